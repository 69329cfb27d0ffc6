// Reading a file named on the command line, bounded so that a huge or endless
// input (a multi-gigabyte file, /dev/zero) is refused instead of exhausting
// memory or hanging; and writing one whole.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "spec/ir/test_case.h"
#include "spec/support/result.h"

namespace vyre::cli {

/// The whole file, or an Error saying why not: a directory, a file that
/// cannot be opened or read, or one longer than `limit_bytes` (`what_limit`
/// names that limit in the message, e.g. "the text format's limit of 32 MiB").
Result<std::string> read_input(const std::string& path, size_t limit_bytes,
                               const std::string& what_limit);

/// A program or test-case file in the text format, refused past the format's
/// size limit (the parser would refuse it anyway, after reading it all).
Result<std::string> read_text_file(const std::string& path);

/// The test case in the text-format file `path`; nullopt after printing why
/// not to stderr (the read error, or the parser's `FILE:LINE:COL:` diagnostic).
std::optional<TestCase> read_case_file(const std::string& path);

/// Writes `text` to `path` (replacing it); false when it cannot be written
/// whole.
bool write_whole_file(const std::string& path, const std::string& text);

}  // namespace vyre::cli
