// Packing a run's outputs into one buffer.
#include "backends/opencl/batch_layout.h"

#include <algorithm>
#include <numeric>

namespace vyre::opencl {
namespace {

uint64_t align_up(uint64_t bytes, uint64_t align) {
  return (bytes + align - 1) / align * align;
}

}  // namespace

PackedRun pack_run(std::vector<PackedOutput> outputs, bool control, uint64_t align) {
  // Offsets are word indices of the compare kernel as well as sub-buffer
  // origins, so they are whole words even on a device that asks for less.
  align = std::lcm(std::max<uint64_t>(align, 1), uint64_t{4});
  PackedRun run;
  uint64_t end = 0;
  for (PackedOutput& output : outputs) {
    output.offset = align_up(end, align);
    end = output.offset + output.device_bytes;
  }
  run.outputs = std::move(outputs);
  if (control) {
    run.control_offset = align_up(end, align);
    end = *run.control_offset + kControlBytes;
  }
  run.bytes = std::max<uint64_t>(align_up(end, 4), 16);
  return run;
}

uint32_t last_word_mask(uint64_t host_bytes) {
  const uint64_t tail = host_bytes % 4;
  return tail == 0 ? 0xFFFFFFFFu : (uint32_t{1} << (8 * tail)) - 1;
}

std::vector<uint64_t> compare_table(const PackedRun& run) {
  std::vector<uint64_t> table;
  for (const PackedOutput& output : run.outputs) {
    if (output.host_bytes == 0) continue;
    table.insert(table.end(), {output.offset / 4, (output.host_bytes + 3) / 4,
                               last_word_mask(output.host_bytes), output.scratch ? 0u : 1u});
  }
  return table;
}

uint64_t compared_words(const PackedRun& run) {
  uint64_t words = 0;
  for (const PackedOutput& output : run.outputs) words += (output.host_bytes + 3) / 4;
  return words;
}

}  // namespace vyre::opencl
