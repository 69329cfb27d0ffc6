// A failure's expected and observed buffers as u32 words side by side, for
// report.html: only the words around the differences, capped, so a 128 MiB
// buffer gives a table of a few dozen rows and a count of what was left out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/ir/host_abi.h"

namespace vyre::certify {

/// Equal words shown on each side of a differing word.
inline constexpr uint64_t kWordContext = 3;
/// Most rows one buffer's table shows.
inline constexpr uint64_t kMaxWordRows = 48;

/// One word of a buffer in both runs; nullopt past that buffer's end.
struct WordRow {
  uint64_t word = 0;
  std::optional<uint32_t> expected;
  std::optional<uint32_t> observed;
  bool differs = false;
};

/// One buffer's comparison: its size in words, how many differ, and the rows
/// shown (increasing word index; gaps between them are equal or unshown words).
struct BufferWords {
  std::string buffer;
  uint64_t words = 0;
  uint64_t differing = 0;
  std::vector<WordRow> rows;
};

/// Compares every buffer named in `expected` or `observed` word by word
/// (little-endian u32; a last partial word is zero-padded), keeping the rows
/// within kWordContext of the first differences, at most kMaxWordRows per
/// buffer. Buffers that are equal throughout are left out.
std::vector<BufferWords> compare_words(const BufferSet& expected, const BufferSet& observed);

}  // namespace vyre::certify
