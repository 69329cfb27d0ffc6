// Host bytes of a dispatch or a batch move only through mapped regions of
// device buffers, so no command still queued after a timeout can touch
// memory the caller owns. Shared by single dispatches and batches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "backends/opencl/opencl_api.h"

namespace vyre::opencl {

/// One region of a device buffer mapped into host memory.
struct MappedRegion {
  cl_mem buffer = nullptr;
  size_t bytes = 0;
  /// The mapped bytes; null while unmapped.
  uint8_t* host = nullptr;
  /// Where the region starts in the buffer, in bytes.
  size_t offset = 0;
};

/// Releases an event at scope exit.
struct HeldEvent {
  const OpenClApi& api;
  cl_event event = nullptr;
  explicit HeldEvent(const OpenClApi& api) : api(api) {}
  HeldEvent(const HeldEvent&) = delete;
  HeldEvent& operator=(const HeldEvent&) = delete;
  ~HeldEvent() {
    if (event != nullptr) api.clReleaseEvent(event);
  }
};

/// Enqueues a non-blocking map of every region; `last` gets the last map's
/// event (none for no region), which, the queue being in order, completes
/// after every map. A map that fails unmaps the regions mapped so far (so a
/// pool gets its buffers back unmapped) and returns its error; CL_SUCCESS
/// otherwise.
cl_int enqueue_maps(const OpenClApi& api, cl_command_queue queue,
                    std::vector<MappedRegion>& regions, cl_map_flags flags, HeldEvent& last);

/// Unmaps every mapped region (those with a host pointer), clearing it.
void unmap_regions(const OpenClApi& api, cl_command_queue queue,
                   std::vector<MappedRegion>& regions);

}  // namespace vyre::opencl
