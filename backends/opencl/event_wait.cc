// Timed waits for events.
#include "backends/opencl/event_wait.h"

#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace vyre::opencl {
namespace {

using Clock = std::chrono::steady_clock;

/// Completion of one event, set from the driver's callback thread. Shared with
/// the callback, which may run after a timed-out wait has returned.
struct Completion {
  std::mutex mutex;
  std::condition_variable done_cv;
  bool done = false;
  cl_int status = CL_COMPLETE;
};

void CL_CALLBACK on_complete(cl_event, cl_int status, void* user_data) {
  auto* held = static_cast<std::shared_ptr<Completion>*>(user_data);
  {
    std::lock_guard lock((*held)->mutex);
    (*held)->done = true;
    (*held)->status = status;
  }
  (*held)->done_cv.notify_all();
  delete held;
}

/// wait_for's fallback where the driver takes no callback: polls the status.
Wait poll(const OpenClApi& api, cl_event event, Clock::time_point deadline, cl_int& status) {
  while (true) {
    if (api.clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                           nullptr) != CL_SUCCESS) {
      return Wait::Failed;
    }
    if (status == CL_COMPLETE) return Wait::Complete;
    if (status < 0) return Wait::Failed;
    if (Clock::now() >= deadline) return Wait::TimedOut;
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

/// The device's start of `first` and end of `last` (nanoseconds); nullopt
/// when either is not profiled or the end comes first.
std::optional<std::pair<cl_ulong, cl_ulong>> profiled_interval(const OpenClApi& api, cl_event first,
                                                               cl_event last) {
  cl_ulong start = 0;
  cl_ulong end = 0;
  if (api.clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof start, &start,
                                  nullptr) != CL_SUCCESS ||
      api.clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) !=
          CL_SUCCESS ||
      end < start) {
    return std::nullopt;
  }
  return std::pair{start, end};
}

}  // namespace

Wait wait_for(const OpenClApi& api, cl_event event, Clock::time_point deadline, cl_int& status,
              std::chrono::microseconds spin) {
  // A small kernel or copy on a GPU is done within tens of microseconds:
  // asking its status a few times costs less than a callback, which comes
  // from the driver's own thread and then wakes this one.
  const Clock::time_point spin_end = std::min(deadline, Clock::now() + spin);
  while (Clock::now() < spin_end) {
    if (api.clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                           nullptr) != CL_SUCCESS) {
      return Wait::Failed;
    }
    if (status == CL_COMPLETE) return Wait::Complete;
    if (status < 0) return Wait::Failed;
    std::this_thread::yield();
  }
  auto completion = std::make_shared<Completion>();
  auto* held = new std::shared_ptr<Completion>(completion);
  if (api.clSetEventCallback(event, CL_COMPLETE, on_complete, held) != CL_SUCCESS) {
    delete held;
    return poll(api, event, deadline, status);
  }
  std::unique_lock lock(completion->mutex);
  if (!completion->done_cv.wait_until(lock, deadline, [&] { return completion->done; })) {
    return Wait::TimedOut;
  }
  status = completion->status;
  return status == CL_COMPLETE ? Wait::Complete : Wait::Failed;
}

std::string first_run_note(std::chrono::milliseconds allowance) {
  if (allowance.count() == 0) return "";
  return " (and " + std::to_string(allowance.count()) +
         " ms more for the driver's compile at the kernel's first run)";
}

Status resource_status(cl_int error) {
  return error == CL_OUT_OF_RESOURCES || error == CL_OUT_OF_HOST_MEMORY ||
                 error == CL_MEM_OBJECT_ALLOCATION_FAILURE || error == CL_INVALID_WORK_GROUP_SIZE ||
                 error == CL_INVALID_BUFFER_SIZE
             ? Status::NotSupported
             : Status::Error;
}

std::optional<double> profiled_ms(const OpenClApi& api, cl_event event) {
  return profiled_span(api, event, event);
}

std::optional<double> busy_ms(const OpenClApi& api, std::span<const cl_event> events) {
  std::vector<std::pair<cl_ulong, cl_ulong>> intervals;
  for (cl_event event : events) {
    if (event == nullptr) continue;
    std::optional<std::pair<cl_ulong, cl_ulong>> interval = profiled_interval(api, event, event);
    if (!interval) return std::nullopt;
    intervals.push_back(*interval);
  }
  std::sort(intervals.begin(), intervals.end());
  cl_ulong busy = 0;
  cl_ulong covered = 0;  // End of the union so far.
  for (const auto& [start, end] : intervals) {
    const cl_ulong from = std::max(start, covered);
    if (end > from) busy += end - from;
    covered = std::max(covered, end);
  }
  return static_cast<double>(busy) / 1e6;
}

std::optional<double> profiled_span(const OpenClApi& api, cl_event first, cl_event last) {
  std::optional<std::pair<cl_ulong, cl_ulong>> interval = profiled_interval(api, first, last);
  if (!interval) return std::nullopt;
  return static_cast<double>(interval->second - interval->first) / 1e6;
}

}  // namespace vyre::opencl
