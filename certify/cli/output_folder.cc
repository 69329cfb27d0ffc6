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

}  // namespace vyre::cli
