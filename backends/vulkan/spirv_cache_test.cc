// The lowering's SPIR-V cache: a module made once is found by the next
// process's cache (the same build), nothing else is, and what it finds is
// exactly what the lowering makes without it.
#include "backends/vulkan/spirv_cache.h"

#include <gtest/gtest.h>

#include <cctype>

#include "backends/build_identity.h"
#include "backends/temp_dir_for_tests.h"
#include "backends/vulkan/lowering.h"
#include "spec/ir/builder.h"

namespace vyre::vulkan {
namespace {

using namespace vyre::build;

constexpr uint32_t kMagic = 0x07230203u;

/// A make() that counts its calls and returns `words`.
struct CountingMake {
  SpirvWords words;
  int calls = 0;
  Result<SpirvWords> operator()() {
    ++calls;
    return words;
  }
};

TEST(BuildIdentity, TheExecutableCarriesABuildIdInHex) {
  const std::string id = executable_build_id();
  ASSERT_FALSE(id.empty()) << "the linker gave this test no build ID, so nothing is cached";
  EXPECT_EQ(id.size() % 2, 0u);
  for (const char c : id) EXPECT_TRUE(std::isxdigit(static_cast<unsigned char>(c))) << id;
  EXPECT_EQ(executable_build_id(), id);
}

TEST(SpirvCache, AModuleMadeOnceIsFoundByTheNextCacheOnTheSameFolder) {
  TempDir dir;
  CountingMake make{{kMagic, 0x00010300u, 7, 8}};
  const auto call = [&] { return std::ref(make)(); };
  EXPECT_EQ(*SpirvCache(dir.path()).get("glsl", bytes_of("void main() {}"), call), make.words);
  EXPECT_EQ(make.calls, 1);
  SpirvCache next(dir.path());
  Result<SpirvWords> found = next.get("glsl", bytes_of("void main() {}"), call);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(*found, make.words);
  EXPECT_EQ(make.calls, 1) << "the stored module was made again";
  EXPECT_EQ(next.counts().hits, 1u);
}

TEST(SpirvCache, AnotherInputOrStepIsMadeAfresh) {
  TempDir dir;
  SpirvCache cache(dir.path());
  CountingMake make{{kMagic, 1}};
  const auto call = [&] { return std::ref(make)(); };
  ASSERT_TRUE(cache.get("glsl", bytes_of("a"), call).ok());
  ASSERT_TRUE(cache.get("glsl", bytes_of("b"), call).ok());
  ASSERT_TRUE(cache.get("spirv-opt -O", bytes_of("a"), call).ok());
  EXPECT_EQ(make.calls, 3);
  ASSERT_TRUE(cache.get("glsl", bytes_of("a"), call).ok());
  EXPECT_EQ(make.calls, 3);
}

TEST(SpirvCache, AnErrorIsNeverStored) {
  TempDir dir;
  SpirvCache cache(dir.path());
  int calls = 0;
  const auto failing = [&]() -> Result<SpirvWords> {
    ++calls;
    return Error{"glslang rejected the GLSL"};
  };
  EXPECT_FALSE(cache.get("glsl", bytes_of("x"), failing).ok());
  EXPECT_FALSE(cache.get("glsl", bytes_of("x"), failing).ok());
  EXPECT_EQ(calls, 2);
}

TEST(SpirvCache, StoredBytesThatAreNoModuleAreMadeAgain) {
  TempDir dir;
  SpirvCache cache(dir.path());
  CountingMake make{{1, 2, 3}};  // No SPIR-V magic number.
  const auto call = [&] { return std::ref(make)(); };
  ASSERT_TRUE(cache.get("glsl", bytes_of("x"), call).ok());
  ASSERT_TRUE(cache.get("glsl", bytes_of("x"), call).ok());
  EXPECT_EQ(make.calls, 2);
}

TEST(SpirvCache, TheLoweringGivesTheSameProgramFromTheCacheAsWithoutIt) {
  TempDir dir;
  const Program p{
      {storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
      {64, 1, 1},
      {store("out", invocation_id(0), mul(load("in", invocation_id(0)), u32(3)))}};
  Result<LoweredProgram> plain = lower_program(p);
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  SpirvCache first(dir.path());
  ASSERT_TRUE(lower_program(p, kDefaultLoopIterationBudget, &first).ok());
  SpirvCache second(dir.path());
  Result<LoweredProgram> cached = lower_program(p, kDefaultLoopIterationBudget, &second);
  ASSERT_TRUE(cached.ok()) << cached.error().message;
  EXPECT_EQ(second.counts().hits, 1u);
  EXPECT_EQ(cached->spirv, plain->spirv);
  EXPECT_EQ(cached->glsl, plain->glsl);
  EXPECT_EQ(cached->iface.buffers.size(), plain->iface.buffers.size());
}

}  // namespace
}  // namespace vyre::vulkan
