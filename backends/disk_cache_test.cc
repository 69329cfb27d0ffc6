// The on-disk cache: hits, misses, and files that must never be trusted
// (truncated, corrupt, extended, another key's), concurrent writers, trimming.
#include "backends/disk_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <thread>

#include "backends/temp_dir_for_tests.h"

namespace vyre {
namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> bytes_of(std::string_view text) {
  return {text.begin(), text.end()};
}

std::vector<uint8_t> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void write_file(const fs::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

TEST(DiskCache, AStoredPayloadIsAHitAndAnUnknownKeyAMiss) {
  TempDir dir;
  DiskCache cache(dir.path() / "nested" / "cache");
  EXPECT_FALSE(cache.load("key one"));
  cache.store("key one", bytes_of("payload one"));
  cache.store("key two", {});
  EXPECT_EQ(cache.load("key one"), bytes_of("payload one"));
  EXPECT_EQ(cache.load("key two"), std::vector<uint8_t>{});
  EXPECT_FALSE(cache.load("key three"));
  const DiskCacheCounts counts = cache.counts();
  EXPECT_EQ(counts.hits, 2u);
  EXPECT_EQ(counts.misses, 2u);
  EXPECT_EQ(counts.rejected, 0u);
  EXPECT_EQ(counts.stored, 2u);
  // Another process (a later run) sees the same entries.
  DiskCache later(dir.path() / "nested" / "cache");
  EXPECT_EQ(later.load("key one"), bytes_of("payload one"));
}

TEST(DiskCache, AStoreReplacesTheEntry) {
  TempDir dir;
  DiskCache cache(dir.path());
  cache.store("k", bytes_of("old"));
  cache.store("k", bytes_of("new payload"));
  EXPECT_EQ(cache.load("k"), bytes_of("new payload"));
}

TEST(DiskCache, ATruncatedEntryIsRejectedAtEveryLength) {
  TempDir dir;
  DiskCache cache(dir.path());
  cache.store("k", bytes_of("a payload of some length"));
  const std::vector<uint8_t> whole = read_file(cache.path_of("k"));
  ASSERT_GT(whole.size(), 80u);
  for (size_t keep = 0; keep < whole.size(); ++keep) {
    write_file(cache.path_of("k"), {whole.begin(), whole.begin() + static_cast<long>(keep)});
    EXPECT_FALSE(cache.load("k")) << "kept " << keep << " bytes";
  }
  EXPECT_EQ(cache.counts().rejected, whole.size());
  write_file(cache.path_of("k"), whole);
  EXPECT_EQ(cache.load("k"), bytes_of("a payload of some length"));
}

TEST(DiskCache, AnyFlippedByteIsRejected) {
  TempDir dir;
  DiskCache cache(dir.path());
  cache.store("k", bytes_of("payload"));
  const std::vector<uint8_t> whole = read_file(cache.path_of("k"));
  for (size_t at = 0; at < whole.size(); ++at) {
    std::vector<uint8_t> corrupt = whole;
    corrupt[at] ^= 0x01;
    write_file(cache.path_of("k"), corrupt);
    EXPECT_FALSE(cache.load("k")) << "byte " << at << " flipped";
  }
}

TEST(DiskCache, ExtraBytesAfterThePayloadAreRejected) {
  TempDir dir;
  DiskCache cache(dir.path());
  cache.store("k", bytes_of("payload"));
  std::vector<uint8_t> longer = read_file(cache.path_of("k"));
  longer.push_back(0);
  write_file(cache.path_of("k"), longer);
  EXPECT_FALSE(cache.load("k"));
}

TEST(DiskCache, AnotherKeysEntryUnderThisKeysNameIsRejected) {
  // A file copied or renamed into place (another device's entry, say) is
  // intact but names another key inside.
  TempDir dir;
  DiskCache cache(dir.path());
  cache.store("device A", bytes_of("binary for A"));
  fs::copy_file(cache.path_of("device A"), cache.path_of("device B"));
  EXPECT_FALSE(cache.load("device B"));
  EXPECT_EQ(cache.counts().rejected, 1u);
  EXPECT_EQ(cache.load("device A"), bytes_of("binary for A"));
}

TEST(DiskCache, AnUnwritableFolderIsOnlyAMiss) {
  TempDir dir;
  write_file(dir.path() / "file", bytes_of("not a folder"));
  DiskCache cache(dir.path() / "file" / "cache");
  cache.store("k", bytes_of("payload"));
  EXPECT_FALSE(cache.load("k"));
  EXPECT_EQ(cache.counts().stored, 0u);
}

TEST(DiskCache, ConcurrentWritersOfOneKeyLeaveAnIntactEntry) {
  TempDir dir;
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t) {
    writers.emplace_back([&, t] {
      DiskCache cache(dir.path());  // One per thread, as separate processes would have.
      const std::vector<uint8_t> payload(10000 + 1000 * static_cast<size_t>(t),
                                         static_cast<uint8_t>(t));
      for (int i = 0; i < 50; ++i) {
        cache.store("shared", payload);
        std::optional<std::vector<uint8_t>> read = cache.load("shared");
        ASSERT_TRUE(read);  // Always some writer's whole payload.
        ASSERT_FALSE(read->empty());
        EXPECT_EQ(read->size(), 10000 + 1000 * size_t{read->front()});
      }
    });
  }
  for (std::thread& w : writers) w.join();
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    EXPECT_EQ(entry.path().extension(), ".entry") << entry.path();  // No temporary left.
    ++files;
  }
  EXPECT_EQ(files, 1u);
}

TEST(DiskCache, TheFolderIsTrimmedToItsBudgetOldestFirst) {
  TempDir dir;
  const std::vector<uint8_t> payload(1000, 7);
  DiskCache cache(dir.path(), 8000);
  cache.store("first", payload);
  // Older than every later entry, whatever the file system's time resolution.
  fs::last_write_time(cache.path_of("first"),
                      fs::file_time_type::clock::now() - std::chrono::hours(2));
  for (int i = 0; i < 20; ++i) cache.store("entry " + std::to_string(i), payload);
  uint64_t total = 0;
  for (const auto& entry : fs::directory_iterator(dir.path())) total += entry.file_size();
  EXPECT_LE(total, 8000u);
  EXPECT_FALSE(fs::exists(cache.path_of("first")));
  EXPECT_TRUE(cache.load("entry 19"));
}

TEST(DiskCache, ADefaultFolderFollowsXdgCacheHome) {
  const char* saved = std::getenv("XDG_CACHE_HOME");
  const std::string old = saved != nullptr ? saved : "";
  ::setenv("XDG_CACHE_HOME", "/some/where", 1);
  EXPECT_EQ(default_disk_cache_dir(), "/some/where/vyre-certify");
  if (saved != nullptr) {
    ::setenv("XDG_CACHE_HOME", old.c_str(), 1);
  } else {
    ::unsetenv("XDG_CACHE_HOME");
  }
}

}  // namespace
}  // namespace vyre
