// spec/examples programs lowered to CUDA C (the registry's backend) and run on
// a CUDA device, against hand-computed outputs: shared memory, barriers and
// loops (workgroup_sum), atomics under contention (histogram). Without a
// device every test FAILS; the label `cuda` keeps them out of the presets.
// (A namespace of their own: the unity build joins them with runtime_test.cc.)
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "backends/cuda/cuda_backend.h"
#include "spec/text/text_format.h"

namespace vyre::cuda::lowered {
namespace {

ByteBuffer words(const std::vector<uint32_t>& values) {
  ByteBuffer bytes;
  for (uint32_t v : values) {
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  return bytes;
}

/// spec/examples/`name`.vyre compiled by the registry's cuda backend.
std::shared_ptr<const CompiledProgram> compiled_example(Backend& backend, const std::string& name) {
  std::ifstream in(std::filesystem::path(VYRE_SOURCE_DIR) / "spec/examples" / (name + ".vyre"));
  std::ostringstream text;
  text << in.rdbuf();
  const Result<Program> program = parse_program(text.str());
  EXPECT_TRUE(program.ok()) << name;
  if (!program.ok()) return nullptr;
  CompileOutcome compiled = backend.compile(*program);
  EXPECT_EQ(compiled.status, Status::Ok) << compiled.message;
  return compiled.program;
}

Grid grid(uint32_t x) {
  Grid g;
  g.workgroups = {x, 1, 1};
  return g;
}

TEST(CudaLoweredRuntime, WorkgroupSumAddsEachWorkgroupsElements) {
  std::unique_ptr<Backend> backend = make_cuda_backend({});
  ASSERT_TRUE(backend->probe().unavailable.empty()) << backend->probe().unavailable;
  auto program = compiled_example(*backend, "workgroup_sum");
  ASSERT_NE(program, nullptr);
  std::vector<uint32_t> input(200);
  for (uint32_t i = 0; i < 200; ++i) input[i] = i;
  // Workgroup w sums 64 w .. 64 w + 63 (elements past 199 count as 0).
  DispatchOutcome out = backend->dispatch(
      *program, {{"input", words(input)}, {"sums", words({9, 9, 9, 9, 9})}}, grid(4));
  ASSERT_EQ(out.status, Status::Ok) << out.message;
  EXPECT_EQ(out.outputs.at("sums"), words({2016, 6112, 10208, 1564, 9}));
}

TEST(CudaLoweredRuntime, HistogramCountsEveryValueOnce) {
  std::unique_ptr<Backend> backend = make_cuda_backend({});
  ASSERT_TRUE(backend->probe().unavailable.empty()) << backend->probe().unavailable;
  auto program = compiled_example(*backend, "histogram");
  ASSERT_NE(program, nullptr);
  std::vector<uint32_t> values(100);
  for (uint32_t i = 0; i < 100; ++i) values[i] = i;
  // 100 values: bins 0..3 get 7 each, bins 4..15 get 6.
  std::vector<uint32_t> bins(16, 6);
  for (int b = 0; b < 4; ++b) bins[b] = 7;
  BatchOptions options;
  options.runs = 20;
  BatchOutcome out = backend->dispatch_runs(
      *program, {{"values", words(values)}, {"bins", words(std::vector<uint32_t>(16, 0))}}, grid(2),
      options);
  ASSERT_EQ(out.status, Status::Ok) << out.message;
  EXPECT_EQ(out.first_outputs.at("bins"), words(bins));
  EXPECT_EQ(out.differing_runs, 0u);
}

}  // namespace
}  // namespace vyre::cuda::lowered
