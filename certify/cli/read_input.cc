#include "certify/cli/read_input.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "spec/support/diagnostic_text.h"
#include "spec/text/text_format.h"

namespace vyre::cli {

Result<std::string> read_input(const std::string& path, size_t limit_bytes,
                               const std::string& what_limit) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return Error{"is a directory, not a file"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot open the file: " + std::string(std::strerror(errno))};
  std::string text;
  char chunk[1 << 16];
  // One chunk past the limit is enough to know the file is too large.
  while (text.size() <= limit_bytes && in.read(chunk, sizeof chunk).gcount() > 0) {
    text.append(chunk, static_cast<size_t>(in.gcount()));
  }
  if (in.bad()) return Error{"cannot read the file"};
  if (text.size() > limit_bytes) return Error{"the file is larger than " + what_limit};
  return text;
}

Result<std::string> read_text_file(const std::string& path) {
  return read_input(
      path, kMaxTextBytes,
      "the text format's limit of " + std::to_string(kMaxTextBytes >> 20) + " MiB; split it");
}

std::optional<TestCase> read_case_file(const std::string& path) {
  const Result<std::string> text = read_text_file(path);
  if (!text) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), text.error().message.c_str());
    return std::nullopt;
  }
  Result<TestCase> parsed = parse_case(*text);
  if (!parsed.ok()) {
    std::fprintf(stderr, "%s\n",
                 file_diagnostic(path, parsed.error().loc, "", parsed.error().message).c_str());
    return std::nullopt;
  }
  return std::move(parsed).value();
}

bool write_whole_file(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary);
  file << text;
  file.close();
  return static_cast<bool>(file);
}

}  // namespace vyre::cli
