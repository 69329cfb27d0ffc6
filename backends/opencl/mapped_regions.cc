#include "backends/opencl/mapped_regions.h"

namespace vyre::opencl {

cl_int enqueue_maps(const OpenClApi& api, cl_command_queue queue,
                    std::vector<MappedRegion>& regions, cl_map_flags flags, HeldEvent& last) {
  if (last.event != nullptr) api.clReleaseEvent(last.event);
  last.event = nullptr;
  for (size_t i = 0; i < regions.size(); ++i) {
    MappedRegion& region = regions[i];
    // Only the last map's event is waited for (the queue is in order), so
    // only it is asked for: each event is a driver object to make and free.
    cl_event* event = i + 1 == regions.size() ? &last.event : nullptr;
    cl_int error = CL_SUCCESS;
    region.host = static_cast<uint8_t*>(api.clEnqueueMapBuffer(queue, region.buffer, CL_FALSE,
                                                               flags, region.offset, region.bytes,
                                                               0, nullptr, event, &error));
    if (region.host == nullptr) {
      unmap_regions(api, queue, regions);
      return error == CL_SUCCESS ? CL_MAP_FAILURE : error;
    }
  }
  return CL_SUCCESS;
}

void unmap_regions(const OpenClApi& api, cl_command_queue queue,
                   std::vector<MappedRegion>& regions) {
  for (MappedRegion& region : regions) {
    if (region.host == nullptr) continue;
    api.clEnqueueUnmapMemObject(queue, region.buffer, region.host, 0, nullptr, nullptr);
    region.host = nullptr;
  }
}

}  // namespace vyre::opencl
