// Files a backend keeps between runs (built OpenCL programs, a Vulkan
// pipeline cache) so that a run's driver compiles are warm even as a binary's
// first run. One entry is one file named by the SHA-256 of its key; the file
// repeats that digest and carries its payload's length and SHA-256, so a
// truncated, corrupt or misplaced file is a miss, never trusted. Entries are
// written to a temporary file and renamed into place, so processes sharing
// the folder (shards, child processes) never read a half-written entry; the
// folder is trimmed to a byte budget, least recently used first.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vyre {

/// Bytes a cache folder may hold before its least recently used entries go.
inline constexpr uint64_t kDefaultDiskCacheBytes = uint64_t{1} << 30;

/// The default cache folder: $XDG_CACHE_HOME/vyre-certify, else
/// $HOME/.cache/vyre-certify; empty when neither variable is set.
std::string default_disk_cache_dir();

/// The SHA-256 of `text` in lowercase hex (64 characters).
std::string sha256_hex(std::string_view text);

/// What a cache did during this process, for the report.
struct DiskCacheCounts {
  uint64_t hits = 0;
  uint64_t misses = 0;    ///< No entry, or one rejected (see `rejected`).
  uint64_t rejected = 0;  ///< Entries present but truncated, corrupt or of another key.
  uint64_t stored = 0;
};

/// One cache folder. Thread-safe; safe across processes sharing the folder.
/// Every failure (unwritable folder, full disk) degrades to a miss or a
/// skipped store: a cache never fails a run.
class DiskCache {
 public:
  /// Uses `dir` (created on the first store), keeping at most `max_bytes` there.
  explicit DiskCache(std::filesystem::path dir, uint64_t max_bytes = kDefaultDiskCacheBytes);

  /// The payload stored under `key`, if an intact entry exists (a hit also
  /// marks the entry recently used).
  std::optional<std::vector<uint8_t>> load(std::string_view key);
  /// Stores `payload` under `key`, replacing any entry; best effort.
  void store(std::string_view key, std::span<const uint8_t> payload);
  /// The file an entry of `key` lives in (tests corrupt it).
  std::filesystem::path path_of(std::string_view key) const;
  /// The folder.
  const std::filesystem::path& dir() const { return dir_; }
  /// Counts so far.
  DiskCacheCounts counts() const;

 private:
  /// Removes least recently used entries (and stale temporary files) until
  /// the folder holds at most 3/4 of the budget.
  void trim();

  std::filesystem::path dir_;
  uint64_t max_bytes_;
  std::atomic<uint64_t> hits_{0};
  std::atomic<uint64_t> misses_{0};
  std::atomic<uint64_t> rejected_{0};
  std::atomic<uint64_t> stored_{0};
  /// Bytes stored since the last trim; a trim runs when they pass 1/8 of the
  /// budget (and on the first store), not on every store.
  std::atomic<uint64_t> since_trim_{0};
  std::atomic<bool> trimmed_once_{false};
};

}  // namespace vyre
