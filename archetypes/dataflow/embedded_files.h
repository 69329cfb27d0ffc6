// The dataflow rule and graph files the suite's own cases use, embedded into
// the binary at build time from the repo files (archetypes/CMakeLists.txt
// generates embedded_files.cc), so the shipped binary reads no file at run
// time and the repo file stays the one source of truth.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace vyre::dataflow {

/// One embedded file.
struct EmbeddedFile {
  /// Its path relative to archetypes/dataflow/, e.g. "rules/bfs_labels.toml".
  std::string_view path;
  std::string_view text;
};

/// Every embedded file, in the order CMake lists them.
std::span<const EmbeddedFile> embedded_files();

/// The text of the embedded file at `path`; nullopt when none is.
std::optional<std::string_view> embedded_file(std::string_view path);

}  // namespace vyre::dataflow
