// Joining a batch's queues, and its kernels' first runs.
#include "backends/opencl/batch_areas.h"

#include <algorithm>

namespace vyre::opencl {

cl_int join_areas(const OpenClApi& api, std::span<const Area> areas, cl_event* event) {
  std::vector<cl_event> markers;
  cl_int error = CL_SUCCESS;
  for (size_t a = 1; a < areas.size() && error == CL_SUCCESS; ++a) {
    cl_event marker = nullptr;
    error = api.clEnqueueMarkerWithWaitList(areas[a].queue->queue(), 0, nullptr, &marker);
    if (marker != nullptr) markers.push_back(marker);
    api.clFlush(areas[a].queue->queue());
  }
  if (error == CL_SUCCESS) {
    error = api.clEnqueueBarrierWithWaitList(
        areas[0].queue->queue(), static_cast<cl_uint>(markers.size()), markers.data(), event);
  }
  for (cl_event marker : markers) api.clReleaseEvent(marker);
  return error;
}

std::chrono::milliseconds first_run_allowance(std::span<const Area> areas,
                                              std::chrono::milliseconds fence) {
  std::chrono::milliseconds allowance{0};
  for (const Area& area : areas) {
    for (const BuiltKernel* kernel : {area.kernel, area.compare}) {
      allowance = std::max(allowance, area.queue->first_run_allowance(*kernel, fence));
    }
  }
  return allowance;
}

void mark_ran(std::span<const Area> areas) {
  for (const Area& area : areas) {
    area.kernel->ran = true;
    area.compare->ran = true;
  }
}

}  // namespace vyre::opencl
