// Test helpers for the OpenCL backend.
#include "backends/opencl/opencl_test_support.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "spec/ir/builder.h"

namespace vyre::opencl::testing {

ByteBuffer words(const std::vector<uint32_t>& values) {
  ByteBuffer bytes;
  for (uint32_t v : values) {
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  return bytes;
}

ByteBuffer words(std::initializer_list<uint32_t> values) {
  return words(std::vector<uint32_t>(values));
}

Program spinning_program() {
  using namespace vyre::build;
  return {{storage("n", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
          {1, 1, 1},
          {let("x", u32(1)),
           loop("i", u32(0), load("n", u32(0)),
                {assign("x", bit_xor(var("x"), shl(var("x"), u32(13)))),
                 assign("x", bit_xor(var("x"), shr(var("x"), u32(17)))),
                 assign("x", bit_xor(var("x"), shl(var("x"), u32(5))))}),
           store("out", u32(0), var("x"))}};
}

OpenClBackend& shared_backend() {
  // Never destroyed: drivers tear themselves down in atexit handlers that may
  // run before a static's destructor.
  static OpenClBackend& backend = *new OpenClBackend{BackendOptions{}};
  const Capabilities caps = backend.probe();
  if (!caps.unavailable.empty()) {
    ADD_FAILURE() << "no usable OpenCL device, so the OpenCL backend cannot be tested: "
                  << caps.unavailable << "\n(CI has PoCL: install pocl-opencl-icd)";
  }
  return backend;
}

void open_device_queue(OpenClApi& api, ClDevice& device, std::shared_ptr<ClQueue>& queue) {
  Result<OpenClApi> opened = OpenClApi::open();
  ASSERT_TRUE(opened.ok()) << opened.error().message;
  api = *opened;
  Result<std::vector<ClDevice>> devices = list_devices(api);
  ASSERT_TRUE(devices.ok()) << devices.error().message;
  Result<ClDevice> chosen = select_device(*devices, "");
  ASSERT_TRUE(chosen.ok()) << chosen.error().message;
  device = *chosen;
  Result<std::unique_ptr<ClQueue>> created = ClQueue::create(api, device);
  ASSERT_TRUE(created.ok()) << created.error().message;
  queue = std::move(*created);
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
      uint32_t v = 0;
      for (size_t b = 0; b < 4 && i + b < bytes.size(); ++b) v |= uint32_t{bytes[i + b]} << (8 * b);
      char word[16];
      std::snprintf(word, sizeof word, " %08x", v);
      text += word;
    }
  }
  return text;
}

}  // namespace vyre::opencl::testing
