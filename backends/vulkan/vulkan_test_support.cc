// Test helpers for the Vulkan backend.
#include "backends/vulkan/vulkan_test_support.h"

#include <gtest/gtest.h>

#include "spec/ir/builder.h"

namespace vyre::vulkan::testing {

ByteBuffer repeat(uint32_t value, size_t count) {
  return words(std::vector<uint32_t>(count, value));
}

VulkanBackend& shared_backend() {
  // Never destroyed: at exit, drivers (NVIDIA's) tear themselves down in
  // atexit handlers registered after this static, so destroying its device
  // later would crash.
  static VulkanBackend& backend = *new VulkanBackend{BackendOptions{}};
  const Capabilities caps = backend.probe();
  if (!caps.unavailable.empty()) {
    ADD_FAILURE() << "no usable Vulkan device, so the Vulkan backend cannot be tested: "
                  << caps.unavailable
                  << "\n(CI has lavapipe: install mesa-vulkan-drivers and set XDG_RUNTIME_DIR)";
  }
  return backend;
}

void expect_case(const Case& c) {
  VulkanBackend& backend = shared_backend();
  for (uint32_t wg : {1u, 64u}) {
    Program program = c.program;
    program.workgroup_size = {wg, 1, 1};
    if (c.guard) {
      program.entry = {build::if_(build::lt(build::invocation_id(0), build::u32(c.invocations)),
                                  std::move(program.entry))};
    }
    CompileOutcome compiled = backend.compile(program);
    ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
    const Grid grid{{(c.invocations + wg - 1) / wg, 1, 1}};
    for (uint8_t fill : {uint8_t{0x00}, uint8_t{0xAB}}) {
      BufferSet inputs = c.inputs;
      for (const auto& [name, count] : c.outputs) inputs[name] = ByteBuffer(count * 4, fill);
      DispatchOutcome run = backend.dispatch(*compiled.program, inputs, grid);
      SCOPED_TRACE("workgroup size " + std::to_string(wg) + ", outputs filled with " +
                   std::to_string(fill));
      ASSERT_EQ(run.status, Status::Ok) << name_of(run.status) << ": " << run.message;
      EXPECT_TRUE(run.outputs == c.expected)
          << "expected" << describe(c.expected) << "\nobserved" << describe(run.outputs);
    }
  }
}

}  // namespace vyre::vulkan::testing
