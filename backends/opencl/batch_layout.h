// Where a batch keeps one run's read_write outputs and control word: packed
// into one buffer, each at an offset the device can bind a sub-buffer at, so
// that fresh outputs are one copy and one compare kernel walks them all
// (DESIGN.md, "Batched runs"). Pure arithmetic, tested without a device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace vyre::opencl {

/// One read_write output in the packed buffer.
struct PackedOutput {
  uint64_t offset = 0;        ///< Bytes from the buffer's start (set by pack_run).
  uint64_t device_bytes = 0;  ///< Its sub-buffer's size: whole words, at least 16.
  uint64_t host_bytes = 0;    ///< The bytes the caller passed and gets back.
  bool scratch = false;       ///< Not judged (BatchOptions::scratch).
};

/// Bytes of a run's control buffer (word 0 is the loop budget flag).
inline constexpr uint64_t kControlBytes = 16;

/// One run's outputs and control word, packed.
struct PackedRun {
  std::vector<PackedOutput> outputs;  ///< In binding order.
  std::optional<uint64_t> control_offset;
  uint64_t bytes = 0;  ///< The packed buffer's size: whole words, at least 16.
};

/// `outputs` (their offsets ignored) in order, each at the next multiple of
/// `align` bytes (CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes; 0 counts as 4),
/// then the control word when `control`.
PackedRun pack_run(std::vector<PackedOutput> outputs, bool control, uint64_t align);

/// The mask of the last word of a buffer of `host_bytes` bytes.
uint32_t last_word_mask(uint64_t host_bytes);

/// 64-bit words per entry of compare_table.
inline constexpr size_t kCompareEntryWords = 4;

/// The compare kernel's table: for each output with bytes, its offset in
/// 32-bit words, its length in words, the mask of its last word, and 1 when
/// it is judged (0 for scratch).
std::vector<uint64_t> compare_table(const PackedRun& run);

/// Words the compare kernel walks for run 0 (every output with bytes).
uint64_t compared_words(const PackedRun& run);

}  // namespace vyre::opencl
