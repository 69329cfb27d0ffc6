// Test helpers of every backend.
#include "backends/backend_test_support.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "spec/ir/host_words.h"

namespace vyre::backend_testing {

ByteBuffer words(const std::vector<uint32_t>& values) {
  return to_bytes(values);
}

ByteBuffer words(std::initializer_list<uint32_t> values) {
  return to_bytes(values);
}

BufferSet run_ok(Backend& backend, const Program& program, const BufferSet& inputs,
                 const Grid& grid) {
  CompileOutcome compiled = backend.compile(program);
  EXPECT_EQ(compiled.status, Status::Ok) << compiled.message;
  if (compiled.status != Status::Ok) return {};
  DispatchOutcome run = backend.dispatch(*compiled.program, inputs, grid);
  EXPECT_EQ(run.status, Status::Ok) << name_of(run.status) << ": " << run.message;
  return run.outputs;
}

std::string describe(const BufferSet& buffers) {
  std::string text;
  for (const auto& [name, bytes] : buffers) {
    text += "\n  " + name + ":";
    for (size_t i = 0; i < bytes.size(); i += 4) {
      char word[16];
      std::snprintf(word, sizeof word, " %08x", word_at(bytes, i / 4));
      text += word;
    }
  }
  return text;
}

}  // namespace vyre::backend_testing
