// --device all|LIST: which devices, and the child command lines (the
// children themselves are exercised end to end by device_shards_cli_test).
#include "certify/gate/device_shards.h"

#include <gtest/gtest.h>

namespace vyre::certify {
namespace {

/// A host whose devices 0 .. count-1 are usable.
DeviceUsable devices_below(size_t count) {
  return [count](const std::string& selector) { return std::stoul(selector) < count; };
}

TEST(DeviceShards, SeveralDevicesIsAllOrACommaList) {
  EXPECT_TRUE(names_several_devices("all"));
  EXPECT_TRUE(names_several_devices("0,1"));
  EXPECT_TRUE(names_several_devices("0,"));
  EXPECT_FALSE(names_several_devices("0"));
  EXPECT_FALSE(names_several_devices("llvmpipe"));
  EXPECT_FALSE(names_several_devices("All"));
}

TEST(DeviceShards, AllOnAOneDeviceBackendIsOneOrdinaryRun) {
  EXPECT_TRUE(all_is_one_device("all", false));
  EXPECT_FALSE(all_is_one_device("all", true));
  EXPECT_FALSE(all_is_one_device("0,1", false));
}

TEST(DeviceShards, AllIsEveryUsableIndex) {
  auto three = shard_devices("all", "vulkan", true, devices_below(3));
  ASSERT_TRUE(three) << three.error().message;
  EXPECT_EQ(*three, (std::vector<std::string>{"0", "1", "2"}));
  auto one = shard_devices("all", "vulkan", true, devices_below(1));
  ASSERT_TRUE(one) << one.error().message;
  EXPECT_EQ(*one, (std::vector<std::string>{"0"}));
}

TEST(DeviceShards, AllStopsAtTheLimit) {
  auto many = shard_devices("all", "vulkan", true, [](const std::string&) { return true; });
  ASSERT_TRUE(many) << many.error().message;
  EXPECT_EQ(many->size(), kMaxDevices);
}

TEST(DeviceShards, AllWithoutAUsableDeviceIsAnError) {
  auto none = shard_devices("all", "opencl", true, devices_below(0));
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("no usable device"), std::string::npos);
}

TEST(DeviceShards, AListIsSplitAndMayRepeat) {
  auto list = shard_devices("0,1,llvmpipe,0", "vulkan", true, devices_below(0));
  ASSERT_TRUE(list) << list.error().message;
  EXPECT_EQ(*list, (std::vector<std::string>{"0", "1", "llvmpipe", "0"}));
}

TEST(DeviceShards, BadListsAreErrors) {
  for (std::string_view bad : {"0,", ",1", "0,,1"}) {
    auto r = shard_devices(bad, "vulkan", true, devices_below(2));
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.error().message.find("empty item"), std::string::npos) << r.error().message;
  }
  auto one_device = shard_devices("0,1", "reference", false, devices_below(2));
  ASSERT_FALSE(one_device);
  EXPECT_NE(one_device.error().message.find("has one device"), std::string::npos);
}

TEST(DeviceShards, ChildrenInheritAllButTheParentsOwnOptions) {
  const std::vector<std::string> args = {
      "--backend", "vulkan",  "--device",      "all",  "--out",  "nightly", "--seed",
      "5",         "--quiet", "--seed-policy", "date", "--gate", "g.toml"};
  EXPECT_EQ(inherited_arguments(args),
            (std::vector<std::string>{"--backend", "vulkan", "--quiet", "--gate", "g.toml"}));
}

TEST(DeviceShards, ShardAndMergeCommandLines) {
  ShardPlan plan;
  plan.self = "/bin/vyre-certify";
  plan.inherited = {"--backend", "vulkan", "--level", "L2"};
  plan.seed = 20261125;
  plan.seed_policy = "date";
  plan.out = "out";
  EXPECT_EQ(
      shard_command(plan, "1", 2, 3),
      (std::vector<std::string>{"/bin/vyre-certify", "--backend", "vulkan", "--level", "L2",
                                "--device", "1", "--seed", "20261125", "--seed-policy", "date",
                                "--shard", "2/3", "--out", "out/shard-2", "--quiet"}));
  plan.inherited.push_back("--quiet");
  EXPECT_EQ(shard_command(plan, "0", 1, 1).back(), "out/shard-1");  // --quiet given once
  EXPECT_EQ(merge_command(plan, 3),
            (std::vector<std::string>{"/bin/vyre-certify", "merge", "--out", "out", "out/shard-1",
                                      "out/shard-2", "out/shard-3"}));
}

}  // namespace
}  // namespace vyre::certify
