// Pre-dispatch checks: host ABI errors and device limits, without a device.
#include "backends/vulkan/dispatch_checks.h"

#include <gtest/gtest.h>

#include "backends/clike/host_inputs.h"
#include "spec/ir/builder.h"

namespace vyre::vulkan {
namespace {

using namespace vyre::build;

DeviceLimits small_device() {
  DeviceLimits l;
  l.device_name = "test device";
  l.max_workgroup_size = {256, 128, 64};
  l.max_workgroup_invocations = 256;
  l.max_workgroup_count = {65535, 65535, 65535};
  l.max_storage_buffer_range = 1024;
  l.max_uniform_buffer_range = 256;
  l.max_shared_memory = 4096;
  l.max_push_constants = 16;
  l.max_storage_buffers_per_stage = 3;
  l.max_uniform_buffers_per_stage = 1;
  return l;
}

ShaderInterface iface_of(const Program& p, uint32_t budget = 0) {
  return shader_interface_of(p, budget);
}

const Program kTwoBuffers{{storage("in", 0, BufferAccess::ReadOnly),
                           storage("out", 1, BufferAccess::ReadWrite, DataType::U64, 2)},
                          {1, 1, 1},
                          {}};

TEST(ShaderInterface, OrdersBoundBuffersByBindingAndSumsWorkgroupMemory) {
  const Program p{{storage("b", 7, BufferAccess::ReadWrite), workgroup("w", DataType::Vec4U32, 3),
                   storage("a", 2, BufferAccess::Uniform)},
                  {4, 2, 1},
                  {loop("i", u32(0), u32(1), {})}};
  const ShaderInterface iface = shader_interface_of(p, 100);
  ASSERT_EQ(iface.buffers.size(), 2u);
  EXPECT_EQ(iface.buffers[0].name, "a");
  EXPECT_EQ(iface.buffers[1].name, "b");
  EXPECT_EQ(iface.workgroup_memory_bytes, 48u);
  EXPECT_EQ(iface.push_constant_bytes(), 8u);
  EXPECT_TRUE(iface.has_control_buffer);
  EXPECT_EQ(iface.control_binding(), 2u);
  EXPECT_EQ(iface.workgroup_invocations(), 8u);
  EXPECT_EQ(iface.loop_iteration_budget, 100u);
  // Loops get the control buffer even without a budget; no loops, none.
  EXPECT_TRUE(shader_interface_of(p, 0).has_control_buffer);
  EXPECT_EQ(shader_interface_of(p, 0).loop_iteration_budget, 0u);
  EXPECT_FALSE(shader_interface_of(kTwoBuffers, 100).has_control_buffer);
  EXPECT_EQ(shader_interface_of(kTwoBuffers, 100).loop_iteration_budget, 0u);
}

TEST(ShaderInterface, WorkgroupInvocationsSaturate) {
  const Program p{{}, {0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF}, {}};
  EXPECT_EQ(shader_interface_of(p, 0).workgroup_invocations(), UINT64_MAX);
}

TEST(CheckInputs, AcceptsMatchingInputs) {
  EXPECT_TRUE(
      clike::check_host_inputs(iface_of(kTwoBuffers), {{"in", {}}, {"out", ByteBuffer(16)}}, Grid{})
          .ok());
}

TEST(CheckInputs, RejectsMissingUnknownMissizedAndZeroGrid) {
  const ShaderInterface iface = iface_of(kTwoBuffers);
  const auto message = [&](const BufferSet& inputs, Grid grid = {}) {
    Result<Ok> r = clike::check_host_inputs(iface, inputs, grid);
    return r.ok() ? std::string("accepted") : r.error().message;
  };
  EXPECT_NE(message({{"out", ByteBuffer(16)}}).find("no input bytes for buffer `in`"),
            std::string::npos);
  EXPECT_NE(message({{"in", {}}, {"out", ByteBuffer(16)}, {"extra", {}}}).find("`extra`"),
            std::string::npos);
  EXPECT_NE(message({{"in", {}}, {"out", ByteBuffer(15)}}).find("exactly 16 bytes; got 15"),
            std::string::npos);
  EXPECT_NE(
      message({{"in", {}}, {"out", ByteBuffer(16)}}, Grid{{1, 0, 1}}).find("0 workgroups on y"),
      std::string::npos);
}

TEST(CheckInputs, RejectsUniformPast64KiB) {
  const Program p{{storage("u", 0, BufferAccess::Uniform)}, {1, 1, 1}, {}};
  Result<Ok> r = clike::check_host_inputs(iface_of(p), {{"u", ByteBuffer(65540)}}, Grid{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("at most 65536"), std::string::npos);
}

/// The message of the first limit hit, or "fits".
std::string limit_hit(const Program& p, const BufferSet& inputs, Grid grid = {},
                      uint32_t budget = 0) {
  return exceeded_limit(iface_of(p, budget), inputs, grid, small_device()).value_or("fits");
}

TEST(ExceededLimit, NamesEachLimitWithItsValue) {
  EXPECT_EQ(limit_hit(kTwoBuffers, {{"in", {}}, {"out", ByteBuffer(16)}}), "fits");
  EXPECT_EQ(limit_hit(Program{{}, {512, 1, 1}, {}}, {}),
            "workgroup size on x 512 exceeds maxComputeWorkGroupSize = 256 of test device");
  EXPECT_EQ(limit_hit(Program{{}, {1, 1, 65}, {}}, {}),
            "workgroup size on z 65 exceeds maxComputeWorkGroupSize = 64 of test device");
  EXPECT_EQ(
      limit_hit(Program{{}, {16, 32, 1}, {}}, {}),
      "invocations per workgroup 512 exceeds maxComputeWorkGroupInvocations = 256 of test device");
  EXPECT_EQ(
      limit_hit(Program{{}, {1, 1, 1}, {}}, {}, Grid{{1, 70000, 1}}),
      "grid of workgroups on y 70000 exceeds maxComputeWorkGroupCount = 65535 of test device");
  // One past the limit names the requested count, not the limit twice.
  EXPECT_EQ(
      limit_hit(Program{{}, {1, 1, 1}, {}}, {}, Grid{{65536, 1, 1}}),
      "grid of workgroups on x 65536 exceeds maxComputeWorkGroupCount = 65535 of test device");
  EXPECT_EQ(
      limit_hit(Program{{workgroup("w", DataType::U64, 513)}, {1, 1, 1}, {}}, {}),
      "workgroup memory in bytes 4104 exceeds maxComputeSharedMemorySize = 4096 of test device");
  EXPECT_EQ(limit_hit(kTwoBuffers, {{"in", ByteBuffer(1028)}, {"out", ByteBuffer(16)}}),
            "buffer `in` in bytes 1028 exceeds maxStorageBufferRange = 1024 of test device");
  const Program uniform{{storage("u", 0, BufferAccess::Uniform)}, {1, 1, 1}, {}};
  EXPECT_EQ(limit_hit(uniform, {{"u", ByteBuffer(260)}}),
            "buffer `u` in bytes 260 exceeds maxUniformBufferRange = 256 of test device");
}

TEST(ExceededLimit, CountsPushConstantsAndDescriptors) {
  Program five;
  for (uint32_t i = 0; i < 5; ++i)
    five.buffers.push_back(storage("b" + std::to_string(i), i, BufferAccess::ReadOnly));
  BufferSet inputs;
  for (uint32_t i = 0; i < 5; ++i) inputs["b" + std::to_string(i)] = {};
  EXPECT_EQ(limit_hit(five, inputs),
            "push constant bytes (one u32 element count per bound buffer) 20 exceeds "
            "maxPushConstantsSize = 16 of test device");
  // Three storage buffers fit; a loop's control buffer is a fourth.
  Program three{{storage("a", 0, BufferAccess::ReadOnly), storage("b", 1, BufferAccess::ReadOnly),
                 storage("c", 2, BufferAccess::ReadWrite)},
                {1, 1, 1},
                {}};
  const BufferSet three_inputs{{"a", {}}, {"b", {}}, {"c", {}}};
  EXPECT_EQ(limit_hit(three, three_inputs), "fits");
  three.entry.push_back(loop("i", u32(0), u32(2), {}));
  EXPECT_EQ(limit_hit(three, three_inputs),
            "storage buffers 4 exceeds maxPerStageDescriptorStorageBuffers = 3 of test device");
  const Program two_uniform{
      {storage("u", 0, BufferAccess::Uniform), storage("v", 1, BufferAccess::Uniform)},
      {1, 1, 1},
      {}};
  EXPECT_EQ(limit_hit(two_uniform, {{"u", {}}, {"v", {}}}),
            "uniform buffers 2 exceeds maxPerStageDescriptorUniformBuffers = 1 of test device");
}

TEST(ExceededLimit, InvocationIdsPastU32AreNotSupportedEvenWhenTheDeviceTakesTheGrid) {
  // The H100's maxComputeWorkGroupCount.x.
  DeviceLimits h100 = small_device();
  h100.max_workgroup_count = {2147483647, 65535, 65535};
  const auto hit = [&](const Program& p, Grid grid) {
    return exceeded_limit(iface_of(p), {}, grid, h100).value_or("fits");
  };
  const Program x64{{}, {64, 1, 1}, {}};
  // 2^26 workgroups of 64 = 2^32 invocations: ids 0 .. 2^32 - 1 cannot all be counted in u32.
  EXPECT_EQ(hit(x64, Grid{{67108864, 1, 1}}),
            "invocations on x 4294967296 (67108864 workgroups of 64) exceeds 4294967295, the most "
            "that u32 invocation ids can number");
  EXPECT_EQ(hit(x64, Grid{{67108863, 1, 1}}), "fits");  // 4294967232 invocations.
  EXPECT_EQ(hit(x64, Grid{{2147483647, 1, 1}}),
            "invocations on x 137438953408 (2147483647 workgroups of 64) exceeds 4294967295, the "
            "most that u32 invocation ids can number");
  const Program z2{{}, {1, 1, 2}, {}};
  h100.max_workgroup_count[2] = 0xFFFFFFFF;
  EXPECT_EQ(hit(z2, Grid{{1, 1, 0x80000000}}),
            "invocations on z 4294967296 (2147483648 workgroups of 2) exceeds 4294967295, the "
            "most that u32 invocation ids can number");
}

TEST(DescriptorRange, RoundsToWordsAndNeverPassesTheDeviceRange) {
  EXPECT_EQ(device_buffer_bytes(0), 16u);  // Vulkan has no empty buffer.
  EXPECT_EQ(device_buffer_bytes(15), 16u);
  EXPECT_EQ(device_buffer_bytes(17), 20u);
  EXPECT_EQ(device_buffer_bytes(0xFFFFFFFE), 0x100000000u);
  EXPECT_EQ(descriptor_range(17, 1024), 20u);
  // maxStorageBufferRange = 2^32 - 1: a buffer of 2^32 - 2 host bytes fits,
  // its word-rounded size does not, and the range must not say it does.
  EXPECT_EQ(descriptor_range(0xFFFFFFFE, 0xFFFFFFFF), 0xFFFFFFFFu);
  EXPECT_EQ(descriptor_range(0xFFFFFFFF, 0xFFFFFFFF), 0xFFFFFFFFu);
}

TEST(LoopMessages, LoopEndedEarlyNamesWhatHappenedAndLlvmpipesKnownCause) {
  const std::string other = loop_ended_early_message("NVIDIA H100 80GB HBM3");
  EXPECT_TRUE(other.starts_with("a loop ended before its upper bound on NVIDIA H100 80GB HBM3"))
      << other;
  EXPECT_EQ(other.find("65535"), std::string::npos) << other;
  const std::string lavapipe = loop_ended_early_message("llvmpipe (LLVM 15.0.6, 256 bits)");
  EXPECT_NE(lavapipe.find(kLoopEndedEarly), std::string::npos);
  EXPECT_NE(lavapipe.find("65535 loop iterations shared by all its loops"), std::string::npos)
      << lavapipe;
  EXPECT_NE(loop_ended_early_message("LLVMPIPE").find("65535"), std::string::npos);
}

TEST(LoopMessages, BudgetMessageSaysWhatHappenedAndWhatToDo) {
  const std::string message = loop_budget_message(1000);
  EXPECT_TRUE(message.starts_with("an invocation ran more than 1000 loop iterations")) << message;
  EXPECT_NE(message.find("no output is returned"), std::string::npos);
  EXPECT_NE(message.find("give each invocation less work"), std::string::npos);
}

}  // namespace
}  // namespace vyre::vulkan
