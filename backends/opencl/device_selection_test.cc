// Which OpenCL device a run gets: with no --device, the first usable GPU
// (a host with NVIDIA's driver and PoCL may list PoCL's CPU device first).
#include <gtest/gtest.h>

#include "backends/opencl/opencl_device.h"

namespace vyre::opencl {
namespace {

ClDevice device(std::string name, cl_device_type type, std::string unavailable = "") {
  ClDevice d;
  d.capabilities.device_name = std::move(name);
  d.capabilities.driver = "driver";
  d.capabilities.unavailable = std::move(unavailable);
  d.type = type;
  return d;
}

TEST(OpenClDeviceSelection, NoSelectorPrefersTheFirstUsableGpu) {
  const std::vector<ClDevice> devices = {device("cpu", CL_DEVICE_TYPE_CPU),
                                         device("broken gpu", CL_DEVICE_TYPE_GPU, "no compiler"),
                                         device("gpu", CL_DEVICE_TYPE_GPU)};
  auto chosen = select_device(devices, "");
  ASSERT_TRUE(chosen.ok()) << chosen.error().message;
  EXPECT_EQ(chosen->capabilities.device_name, "gpu");
}

TEST(OpenClDeviceSelection, WithoutAGpuTheFirstDevice) {
  const std::vector<ClDevice> devices = {device("cpu 0", CL_DEVICE_TYPE_CPU),
                                         device("cpu 1", CL_DEVICE_TYPE_CPU)};
  auto chosen = select_device(devices, "");
  ASSERT_TRUE(chosen.ok()) << chosen.error().message;
  EXPECT_EQ(chosen->capabilities.device_name, "cpu 0");
}

TEST(OpenClDeviceSelection, AnIndexOrANameStillPicksAnyDevice) {
  const std::vector<ClDevice> devices = {device("cpu", CL_DEVICE_TYPE_CPU),
                                         device("gpu", CL_DEVICE_TYPE_GPU)};
  auto by_index = select_device(devices, "0");
  ASSERT_TRUE(by_index.ok());
  EXPECT_EQ(by_index->capabilities.device_name, "cpu");
  auto by_name = select_device(devices, "CPU");
  ASSERT_TRUE(by_name.ok());
  EXPECT_EQ(by_name->capabilities.device_name, "cpu");
  EXPECT_FALSE(select_device(devices, "7").ok());
}

}  // namespace
}  // namespace vyre::opencl
