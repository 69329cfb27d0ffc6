// The backend table and the Status names.
#include "backends/registry/registry.h"

#include <gtest/gtest.h>

#include <set>

namespace vyre {
namespace {

TEST(Registry, ListsReferenceVulkanOpenClAndCuda) {
  const std::vector<std::string_view> names = backend_names();
  EXPECT_EQ(names, (std::vector<std::string_view>{"reference", "vulkan", "opencl", "cuda"}));
}

TEST(Registry, MakesEveryListedBackendUnderItsName) {
  for (std::string_view name : backend_names()) {
    Result<std::unique_ptr<Backend>> backend = make_backend(name);
    ASSERT_TRUE(backend.ok()) << backend.error().message;
    EXPECT_EQ((*backend)->name(), name);
  }
}

TEST(Registry, UnknownNameListsTheKnownOnes) {
  Result<std::unique_ptr<Backend>> backend = make_backend("metal");
  ASSERT_FALSE(backend.ok());
  EXPECT_NE(backend.error().message.find("unknown backend `metal`"), std::string::npos);
  EXPECT_NE(backend.error().message.find("reference, vulkan, opencl, cuda"), std::string::npos);
}

TEST(Registry, SaysWhichBackendsTakeADevice) {
  // vulkan, opencl and cuda pick among the machine's devices; the reference interpreter is one.
  EXPECT_TRUE(backend_takes_device("vulkan"));
  EXPECT_TRUE(backend_takes_device("opencl"));
  EXPECT_TRUE(backend_takes_device("cuda"));
  EXPECT_FALSE(backend_takes_device("reference"));
  EXPECT_FALSE(backend_takes_device("metal"));
  EXPECT_FALSE(backend_takes_device(""));
}

TEST(StatusNames, EveryStatusHasItsOwnName) {
  const std::vector<std::pair<Status, std::string_view>> expected = {
      {Status::Ok, "ok"},
      {Status::NotSupported, "not supported"},
      {Status::CompileError, "compile error"},
      {Status::DeviceLost, "device lost"},
      {Status::Timeout, "timeout"},
      {Status::BadOutput, "bad output"},
      {Status::Error, "error"},
  };
  std::set<std::string_view> seen;
  for (const auto& [status, name] : expected) {
    EXPECT_EQ(name_of(status), name);
    seen.insert(name_of(status));
  }
  EXPECT_EQ(seen.size(), expected.size());
}

}  // namespace
}  // namespace vyre
