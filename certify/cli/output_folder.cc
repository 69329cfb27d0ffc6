#include "certify/cli/output_folder.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace vyre::cli {

std::optional<std::string> check_writable(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return "cannot create output folder " + dir + ": " + ec.message();
  std::string probe = (std::filesystem::path(dir) / ".vyre-certify-write-test-XXXXXX").string();
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) return "output folder " + dir + " is not writable";
  ::close(fd);
  std::filesystem::remove(probe, ec);
  return std::nullopt;
}

bool same_or_inside(const std::string& dir, const std::string& folder) {
  std::error_code ec;
  const std::filesystem::path inner = std::filesystem::weakly_canonical(dir, ec);
  if (ec) return false;
  const std::filesystem::path outer = std::filesystem::weakly_canonical(folder, ec);
  if (ec) return false;
  // Compared part by part, so that /a/shard10 is not inside /a/shard1.
  auto part = inner.begin();
  for (const std::filesystem::path& want : outer) {
    if (want.empty()) continue;  // the trailing "" of a path ending in '/'
    if (part == inner.end() || *part != want) return false;
    ++part;
  }
  return true;
}

}  // namespace vyre::cli
