// The Vulkan driver's pipeline cache on disk: stored when a backend closes,
// and while it builds (so a process a driver crashes keeps most of its
// builds), loaded by the next, left as it was by a warm run, refused when
// corrupt.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "backends/temp_dir_for_tests.h"
#include "backends/vulkan/pipeline_cache.h"
#include "backends/vulkan/vulkan_test_support.h"
#include "spec/ir/builder.h"

namespace vyre::vulkan {
namespace {

using namespace vyre::build;
using testing::repeat;
using testing::words;

TEST(VulkanDiskCache, TheDriverCacheIsStoredAtCloseAndLoadedByTheNextBackend) {
  namespace fs = std::filesystem;
  const TempDir temp;
  const std::string dir = temp.path().string();
  BackendOptions options;
  options.cache_dir = dir;
  const Program p{{storage("out", 0, BufferAccess::ReadWrite)},
                  {4, 1, 1},
                  {store("out", invocation_id(0), add(invocation_id(0), u32(40)))}};
  const auto run_once = [&]() -> DriverCacheUse {
    VulkanBackend backend{options};
    CompileOutcome compiled = backend.compile(p);
    EXPECT_EQ(compiled.status, Status::Ok) << compiled.message;
    if (!compiled.program) return {};
    DispatchOutcome out = backend.dispatch(*compiled.program, {{"out", repeat(0, 4)}}, {});
    EXPECT_EQ(out.status, Status::Ok) << out.message;
    EXPECT_EQ(out.outputs.at("out"), words({40, 41, 42, 43}));
    return backend.driver_cache().value_or(DriverCacheUse{});
  };
  const DriverCacheUse first = run_once();
  EXPECT_EQ(first.dir, dir);
  EXPECT_EQ(first.hits, 0u);
  // The driver cache's entries: the folder's own files (the lowering's
  // SPIR-V has a subfolder, spirv/).
  const auto entries = [&] {
    std::vector<fs::path> found;
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().extension() == ".entry") found.push_back(e.path());
    }
    return found;
  };
  ASSERT_EQ(entries().size(), 1u) << "the closed backend stored its driver cache";
  const auto entry_inode = [&] {
    struct stat st {};
    EXPECT_EQ(::stat(entries().at(0).c_str(), &st), 0) << "the entry cannot be stat'ed";
    return st.st_ino;
  };
  const ino_t stored_inode = entry_inode();
  const DriverCacheUse second = run_once();
  EXPECT_EQ(second.hits, 1u);
  EXPECT_EQ(second.rejected, 0u);
  // Its pipeline came from the loaded data, so nothing new was stored: a
  // store writes a new file and renames it over the entry.
  EXPECT_EQ(entry_inode(), stored_inode) << "a warm run rewrote the driver cache";
  // A corrupt entry is refused, and the run goes on with an empty cache.
  fs::resize_file(entries().at(0), 40);
  const DriverCacheUse third = run_once();
  EXPECT_EQ(third.hits, 0u);
  EXPECT_EQ(third.rejected, 1u);
}

TEST(VulkanDiskCache, ABackendThatKeepsBuildingStoresItsDriverCacheBeforeItCloses) {
  namespace fs = std::filesystem;
  const TempDir temp;
  BackendOptions options;
  options.cache_dir = temp.path().string();
  const auto program = [](uint32_t k) {
    return Program{{storage("out", 0, BufferAccess::ReadWrite)},
                   {4, 1, 1},
                   {store("out", invocation_id(0), add(invocation_id(0), u32(k)))}};
  };
  const auto stored = [&] {
    size_t n = 0;
    for (const auto& e : fs::directory_iterator(temp.path())) n += e.path().extension() == ".entry";
    return n;
  };
  VulkanBackend backend{options};
  const auto build_and_run = [&](uint32_t k) {
    CompileOutcome compiled = backend.compile(program(k));
    ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
    DispatchOutcome out = backend.dispatch(*compiled.program, {{"out", repeat(0, 4)}}, {});
    ASSERT_EQ(out.status, Status::Ok) << out.message;
    EXPECT_EQ(out.outputs.at("out"), words({k, k + 1, k + 2, k + 3}));
  };
  build_and_run(40);
  // Past the save interval, the next build writes the cache: the process
  // could now die in the driver without losing the first pipeline.
  std::this_thread::sleep_for(PipelineCache::kSaveEvery + std::chrono::milliseconds(100));
  build_and_run(50);
  EXPECT_EQ(stored(), 1u) << "the open backend has not stored its driver cache";
}

}  // namespace
}  // namespace vyre::vulkan
