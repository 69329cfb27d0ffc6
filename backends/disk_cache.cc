// The on-disk cache: entry format, atomic stores, trimming.
#include "backends/disk_cache.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <thread>

namespace vyre {
namespace {

namespace fs = std::filesystem;

using Digest = std::array<uint8_t, 32>;

/// "VYRECCH1": the format's name and version; a change of layout changes it.
constexpr std::array<uint8_t, 8> kMagic = {'V', 'Y', 'R', 'E', 'C', 'C', 'H', '1'};
/// Magic, key digest, payload length (u64, little-endian), payload digest.
constexpr size_t kHeaderBytes = 8 + 32 + 8 + 32;
/// Temporary files older than this were left by a process that died mid-store.
constexpr auto kStaleTemporary = std::chrono::hours(1);
constexpr std::string_view kTemporaryPrefix = ".tmp-";
constexpr std::string_view kEntrySuffix = ".entry";

Digest sha256(const uint8_t* bytes, size_t size) {
  Digest out{};
  unsigned int len = 0;
  EVP_Digest(bytes, size, out.data(), &len, EVP_sha256(), nullptr);
  return out;
}

Digest sha256(std::string_view text) {
  return sha256(reinterpret_cast<const uint8_t*>(text.data()), text.size());
}

std::string hex(const Digest& d) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (uint8_t b : d) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

void put_u64(uint8_t* at, uint64_t v) {
  for (int i = 0; i < 8; ++i) at[i] = static_cast<uint8_t>(v >> (8 * i));
}

uint64_t get_u64(const uint8_t* at) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t{at[i]} << (8 * i);
  return v;
}

/// A name no other thread or process uses at the same time.
std::string temporary_name() {
  static std::atomic<uint64_t> counter{0};
  return std::string(kTemporaryPrefix) + std::to_string(::getpid()) + "-" +
         std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id())) + "-" +
         std::to_string(counter.fetch_add(1));
}

}  // namespace

std::string sha256_hex(std::string_view text) {
  return hex(sha256(text));
}

std::string default_disk_cache_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/') {
    return (fs::path(xdg) / "vyre-certify").string();
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return (fs::path(home) / ".cache" / "vyre-certify").string();
  }
  return {};
}

DiskCache::DiskCache(fs::path dir, uint64_t max_bytes)
    : dir_(std::move(dir)), max_bytes_(max_bytes) {}

fs::path DiskCache::path_of(std::string_view key) const {
  return dir_ / (hex(sha256(key)) + std::string(kEntrySuffix));
}

std::optional<std::vector<uint8_t>> DiskCache::load(std::string_view key) {
  const fs::path path = path_of(key);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ++misses_;
    return std::nullopt;
  }
  const auto reject = [&]() -> std::optional<std::vector<uint8_t>> {
    ++rejected_;
    ++misses_;
    return std::nullopt;
  };
  // The size of the file opened, not of the path: another process may have
  // renamed a new entry into place since.
  in.seekg(0, std::ios::end);
  const std::streamoff file_bytes = in.tellg();
  in.seekg(0, std::ios::beg);
  std::array<uint8_t, kHeaderBytes> header{};
  if (file_bytes < 0 || !in.read(reinterpret_cast<char*>(header.data()), header.size())) {
    return reject();
  }
  if (!std::equal(kMagic.begin(), kMagic.end(), header.begin())) return reject();
  const Digest key_digest = sha256(key);
  if (!std::equal(key_digest.begin(), key_digest.end(), header.begin() + 8)) return reject();
  const uint64_t length = get_u64(header.data() + 40);
  // The length must match the file exactly: a truncated or extended file is
  // rejected before a byte of payload is allocated.
  if (length > max_bytes_ || static_cast<uint64_t>(file_bytes) != kHeaderBytes + length) {
    return reject();
  }
  std::vector<uint8_t> payload(length);
  if (length != 0 &&
      !in.read(reinterpret_cast<char*>(payload.data()), static_cast<std::streamsize>(length))) {
    return reject();
  }
  const Digest payload_digest = sha256(payload.data(), payload.size());
  if (!std::equal(payload_digest.begin(), payload_digest.end(), header.begin() + 48)) {
    return reject();
  }
  // Recently used: trimming removes the entries used longest ago first.
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
  ++hits_;
  return payload;
}

void DiskCache::store(std::string_view key, std::span<const uint8_t> payload) {
  if (payload.size() > max_bytes_ / 4) return;  // One entry never crowds out the rest.
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) return;
  std::array<uint8_t, kHeaderBytes> header{};
  std::copy(kMagic.begin(), kMagic.end(), header.begin());
  const Digest key_digest = sha256(key);
  std::copy(key_digest.begin(), key_digest.end(), header.begin() + 8);
  put_u64(header.data() + 40, payload.size());
  const Digest payload_digest = sha256(payload.data(), payload.size());
  std::copy(payload_digest.begin(), payload_digest.end(), header.begin() + 48);

  const fs::path temporary = dir_ / temporary_name();
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(header.data()), header.size());
    out.write(reinterpret_cast<const char*>(payload.data()),
              static_cast<std::streamsize>(payload.size()));
    out.close();
    if (!out) {
      fs::remove(temporary, ec);
      return;
    }
  }
  // rename() replaces the entry atomically: a reader sees the old file or
  // the new one, never part of either.
  fs::rename(temporary, path_of(key), ec);
  if (ec) {
    fs::remove(temporary, ec);
    return;
  }
  ++stored_;
  const uint64_t pending = since_trim_ += kHeaderBytes + payload.size();
  if (!trimmed_once_.exchange(true) || pending > max_bytes_ / 8) {
    since_trim_ = 0;
    trim();
  }
}

void DiskCache::trim() {
  struct Entry {
    fs::file_time_type used;
    uint64_t bytes;
    fs::path path;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  const auto now = fs::file_time_type::clock::now();
  for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code entry_ec;
    if (!it->is_regular_file(entry_ec)) continue;
    const std::string name = it->path().filename().string();
    const fs::file_time_type used = it->last_write_time(entry_ec);
    if (entry_ec) continue;
    if (name.starts_with(kTemporaryPrefix)) {
      if (now - used > kStaleTemporary) fs::remove(it->path(), entry_ec);
      continue;
    }
    if (!name.ends_with(kEntrySuffix)) continue;  // Not ours: left alone.
    const uint64_t bytes = it->file_size(entry_ec);
    if (entry_ec) continue;
    entries.push_back({used, bytes, it->path()});
    total += bytes;
  }
  if (total <= max_bytes_) return;
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.used < b.used; });
  for (const Entry& e : entries) {
    if (total <= max_bytes_ / 4 * 3) break;
    // Another process may have removed or replaced it already: either is fine.
    fs::remove(e.path, ec);
    total -= e.bytes;
  }
}

DiskCacheCounts DiskCache::counts() const {
  return {hits_.load(), misses_.load(), rejected_.load(), stored_.load()};
}

}  // namespace vyre
