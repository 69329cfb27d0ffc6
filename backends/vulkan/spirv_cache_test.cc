// The lowering's SPIR-V cache: a module made once is found by the next
// process's cache (the same build), nothing else is, and what it finds is
// exactly what the lowering makes without it.
#include "backends/vulkan/spirv_cache.h"

#include <gtest/gtest.h>

#include <elf.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "backends/build_identity.h"
#include "backends/temp_dir_for_tests.h"
#include "backends/vulkan/lowering.h"
#include "spec/ir/builder.h"

namespace vyre::vulkan {
namespace {

using namespace vyre::build;

constexpr uint32_t kMagic = 0x07230203u;

/// `s`'s bytes, as SpirvCache::get takes its input.
std::span<const std::byte> text(std::string_view s) {
  return std::as_bytes(std::span(s));
}

/// A make() that counts its calls and returns `words`.
struct CountingMake {
  SpirvWords words;
  int calls = 0;
  Result<SpirvWords> operator()() {
    ++calls;
    return words;
  }
};

/// The build ID in hex as the file on disk holds it: the `.note.gnu.build-id`
/// section of /proc/self/exe, found through the section headers (where
/// executable_build_id reads the loaded program headers).
std::string build_id_from_file() {
  std::ifstream in("/proc/self/exe", std::ios::binary);
  const std::string elf{std::istreambuf_iterator<char>(in), {}};
  Elf64_Ehdr header;
  if (elf.size() < sizeof header) return {};
  std::memcpy(&header, elf.data(), sizeof header);
  if (header.e_shoff + size_t{header.e_shnum} * sizeof(Elf64_Shdr) > elf.size()) return {};
  const auto section = [&](size_t i) {
    Elf64_Shdr s;
    std::memcpy(&s, elf.data() + header.e_shoff + i * sizeof s, sizeof s);
    return s;
  };
  const Elf64_Shdr names = section(header.e_shstrndx);
  for (size_t i = 0; i < header.e_shnum; ++i) {
    const Elf64_Shdr s = section(i);
    if (std::string(elf.data() + names.sh_offset + s.sh_name) != ".note.gnu.build-id") continue;
    Elf64_Nhdr note;
    std::memcpy(&note, elf.data() + s.sh_offset, sizeof note);
    const size_t desc = s.sh_offset + sizeof note + ((note.n_namesz + 3) & ~3u);
    std::string hex;
    for (size_t b = 0; b < note.n_descsz; ++b) {
      char two[3];
      std::snprintf(two, sizeof two, "%02x", static_cast<unsigned char>(elf[desc + b]));
      hex += two;
    }
    return hex;
  }
  return {};
}

TEST(BuildIdentity, IsTheBuildIdTheFileCarries) {
  const std::string id = executable_build_id();
  ASSERT_FALSE(id.empty()) << "the linker gave this test no build ID, so nothing is cached";
  EXPECT_EQ(id, build_id_from_file());
}

TEST(SpirvCache, AModuleMadeOnceIsFoundByTheNextCacheOnTheSameFolder) {
  TempDir dir;
  CountingMake make{{kMagic, 0x00010300u, 7, 8}};
  const auto call = [&] { return std::ref(make)(); };
  EXPECT_EQ(*SpirvCache(dir.path()).get("glsl", text("void main() {}"), call), make.words);
  EXPECT_EQ(make.calls, 1);
  SpirvCache next(dir.path());
  Result<SpirvWords> found = next.get("glsl", text("void main() {}"), call);
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
  ASSERT_TRUE(cache.get("glsl", text("a"), call).ok());
  ASSERT_TRUE(cache.get("glsl", text("b"), call).ok());
  ASSERT_TRUE(cache.get("spirv-opt -O", text("a"), call).ok());
  EXPECT_EQ(make.calls, 3);
  ASSERT_TRUE(cache.get("glsl", text("a"), call).ok());
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
  EXPECT_FALSE(cache.get("glsl", text("x"), failing).ok());
  EXPECT_FALSE(cache.get("glsl", text("x"), failing).ok());
  EXPECT_EQ(calls, 2);
}

TEST(SpirvCache, StoredBytesThatAreNoModuleAreMadeAgain) {
  TempDir dir;
  SpirvCache cache(dir.path());
  CountingMake make{{1, 2, 3}};  // No SPIR-V magic number.
  const auto call = [&] { return std::ref(make)(); };
  ASSERT_TRUE(cache.get("glsl", text("x"), call).ok());
  ASSERT_TRUE(cache.get("glsl", text("x"), call).ok());
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
