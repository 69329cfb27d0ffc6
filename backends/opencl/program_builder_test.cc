// Kernels built in joined programs and through the disk cache, on an OpenCL
// device (PoCL in CI): a joined program's kernels each give their own
// program's bytes; a rejected source fails alone; a second builder loads
// every kernel from the disk cache; a corrupt, truncated, foreign or
// driver-refused entry is rebuilt from source, never trusted.
#include "backends/opencl/program_builder.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>

#include "backends/opencl/buffer_pool.h"
#include "backends/opencl/dispatch_run.h"
#include "backends/opencl/lowering.h"
#include "backends/opencl/opencl_test_support.h"
#include "backends/opencl/program_batch.h"
#include "spec/ir/builder.h"

namespace vyre::opencl {
namespace {

namespace fs = std::filesystem;
using namespace vyre::build;
using testing::words;

/// out[i] = i + k, for 4 invocations.
LoweredKernel lowered_index_plus(uint32_t k) {
  Result<LoweredKernel> lowered =
      lower_program({{storage("out", 0, BufferAccess::ReadWrite)},
                     {4, 1, 1},
                     {store("out", invocation_id(0), add(invocation_id(0), u32(k)))}});
  EXPECT_TRUE(lowered.ok());
  return *lowered;
}

/// A queue on the first usable device, and a temporary cache folder.
class ProgramBuilderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::open_device_queue(api_, device_, queue_);
    ASSERT_FALSE(HasFatalFailure());
    std::string dir = (fs::temp_directory_path() / "vyre-cl-cache-XXXXXX").string();
    ASSERT_NE(::mkdtemp(dir.data()), nullptr);
    dir_ = dir;
    disk_ = std::make_unique<DiskCache>(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  std::unique_ptr<ProgramBuilder> builder(const std::string& key = "test device") {
    counts_ = std::make_shared<BuildCounts>();
    return std::make_unique<ProgramBuilder>(api_, queue_->shared_context(), disk_.get(), key,
                                            device_.capabilities.device_name, counts_);
  }

  /// Runs `kernel` (lowered as index_plus) and returns `out`.
  ByteBuffer run(const BuiltKernel& kernel, const LoweredKernel& lowered) {
    BufferPool pool(api_, *queue_, device_.limits.max_mem_alloc_size, 1 << 20);
    const BufferSet inputs{{"out", words({9, 9, 9, 9})}};
    const Grid grid{};
    const DispatchRequest request{kernel, lowered.iface, inputs, grid, std::chrono::seconds(60)};
    DispatchOutcome out =
        run_dispatch(api_, *queue_, pool, device_.capabilities.device_name, request);
    EXPECT_EQ(out.status, Status::Ok) << out.message;
    return out.status == Status::Ok ? out.outputs.at("out") : ByteBuffer{};
  }

  /// Builds lowered_index_plus(0..n-1) with `b` and checks every kernel's bytes.
  void build_and_check(ProgramBuilder& b, uint32_t n) {
    std::vector<LoweredKernel> lowered;
    std::vector<std::string_view> sources;
    for (uint32_t k = 0; k < n; ++k) lowered.push_back(lowered_index_plus(100 * k));
    for (const LoweredKernel& l : lowered) sources.push_back(l.source);
    auto built = b.build(sources);
    ASSERT_EQ(built.size(), n);
    for (uint32_t k = 0; k < n; ++k) {
      ASSERT_TRUE(built[k].ok()) << built[k].error().message;
      EXPECT_EQ(run(**built[k], lowered[k]),
                words({100 * k, 100 * k + 1, 100 * k + 2, 100 * k + 3}));
    }
  }

  /// Every entry file of the cache folder.
  std::vector<fs::path> entries() const {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path());
    return out;
  }

  OpenClApi api_;
  ClDevice device_;
  std::shared_ptr<ClQueue> queue_;
  fs::path dir_;
  std::unique_ptr<DiskCache> disk_;
  std::shared_ptr<BuildCounts> counts_;
};

TEST(ProgramBatch, KernelsAreJoinedUnderTheirOwnNamesWithOnePrelude) {
  const std::string a = "uint helper(uint x) { return x; }\n__kernel void vyre_main(void) {}\n";
  const std::string b = "uint helper(uint x) { return x; }\n__kernel void vyre_main(int y) {}\n";
  ASSERT_TRUE(split_kernel_source(a));
  EXPECT_EQ(split_kernel_source(a)->prelude, "uint helper(uint x) { return x; }\n");
  EXPECT_FALSE(split_kernel_source("void not_a_kernel(void) {}\n"));
  EXPECT_EQ(join_kernel_sources({a, b}, "vyre_main"),
            "uint helper(uint x) { return x; }\n"
            "#define vyre_main vyre_joined_0\n__kernel void vyre_main(void) {}\n#undef vyre_main\n"
            "#define vyre_main vyre_joined_1\n__kernel void vyre_main(int y) {}\n"
            "#undef vyre_main\n");
}

TEST_F(ProgramBuilderTest, JoinedKernelsEachRunTheirOwnProgram) {
  auto b = builder();
  build_and_check(*b, 5);
  EXPECT_EQ(counts_->programs_built, 1u);
  EXPECT_EQ(counts_->kernels_built, 5u);
}

TEST_F(ProgramBuilderTest, ARejectedSourceFailsAloneWithItsLog) {
  auto b = builder();
  const LoweredKernel good = lowered_index_plus(7);
  const std::string bad = "__kernel void vyre_main(void) { undefined_function(); }\n";
  auto built = b->build({good.source, bad, good.source});
  ASSERT_EQ(built.size(), 3u);
  ASSERT_TRUE(built[0].ok()) << built[0].error().message;
  ASSERT_TRUE(built[2].ok()) << built[2].error().message;
  ASSERT_FALSE(built[1].ok());
  EXPECT_NE(built[1].error().message.find("undefined_function"), std::string::npos);
  EXPECT_EQ(run(**built[0], good), words({7, 8, 9, 10}));
}

TEST_F(ProgramBuilderTest, ASecondBuilderLoadsEveryKernelFromTheDiskCache) {
  build_and_check(*builder(), 3);
  ASSERT_FALSE(entries().empty());
  auto again = builder();
  build_and_check(*again, 3);
  EXPECT_EQ(counts_->kernels_loaded, 3u);
  EXPECT_EQ(counts_->programs_built, 0u);
}

TEST_F(ProgramBuilderTest, AnotherDevicesEntriesAreNotUsed) {
  build_and_check(*builder("device A"), 2);
  auto other = builder("device B");
  build_and_check(*other, 2);
  EXPECT_EQ(counts_->kernels_loaded, 0u);
  EXPECT_EQ(counts_->kernels_built, 2u);
}

TEST_F(ProgramBuilderTest, CorruptOrTruncatedEntriesAreRebuiltFromSource) {
  build_and_check(*builder(), 2);
  std::vector<fs::path> files = entries();
  ASSERT_GE(files.size(), 3u);  // The program and one index entry per kernel.
  for (size_t i = 0; i < files.size(); ++i) {
    if (i % 2 == 0) {
      fs::resize_file(files[i], fs::file_size(files[i]) / 2);
    } else {
      std::fstream f(files[i], std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(static_cast<std::streamoff>(fs::file_size(files[i]) - 1));
      f.put('\x5A');
    }
  }
  auto again = builder();
  build_and_check(*again, 2);
  EXPECT_EQ(counts_->kernels_loaded, 0u);
  EXPECT_EQ(counts_->kernels_built, 2u);
  EXPECT_GE(disk_->counts().rejected, 1u);
}

TEST_F(ProgramBuilderTest, ABinaryTheDriverRefusesIsRebuiltFromSource) {
  // An intact entry (right key, right digest) whose payload is no program,
  // as a driver update under an unchanged version string could leave: the
  // driver refuses it and the kernels are built from source.
  build_and_check(*builder(), 2);
  const LoweredKernel k0 = lowered_index_plus(0);
  const LoweredKernel k1 = lowered_index_plus(100);
  const std::string joined = join_kernel_sources({k0.source, k1.source}, "vyre_main");
  // The program entry's key, as program_builder.cc spells it.
  const std::string key = "vyre opencl v1 program\ntest device\n" + sha256_hex(joined);
  ASSERT_TRUE(disk_->load(key)) << "the key's spelling changed; update this test";
  disk_->store(key, std::vector<uint8_t>(4096, 0xC3));
  auto again = builder();
  build_and_check(*again, 2);
  EXPECT_EQ(counts_->kernels_loaded, 0u);
  EXPECT_EQ(counts_->binaries_refused, 1u);
  EXPECT_EQ(counts_->kernels_built, 2u);
}

}  // namespace
}  // namespace vyre::opencl
