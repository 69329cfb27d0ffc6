// One dispatch, with deadlines.
#include "backends/opencl/dispatch_run.h"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "backends/opencl/buffer_pool.h"
#include "backends/opencl/dispatch_checks.h"

namespace vyre::opencl {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

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

enum class Wait : uint8_t { Complete, Failed, TimedOut };

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

/// Waits for `event` until `deadline`; `status` gets its execution status.
Wait wait_for(const OpenClApi& api, cl_event event, Clock::time_point deadline, cl_int& status) {
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

/// Status of a failed allocation or enqueue: the device lacks something.
Status resource_status(cl_int error) {
  return error == CL_OUT_OF_RESOURCES || error == CL_OUT_OF_HOST_MEMORY ||
                 error == CL_MEM_OBJECT_ALLOCATION_FAILURE || error == CL_INVALID_WORK_GROUP_SIZE ||
                 error == CL_INVALID_BUFFER_SIZE
             ? Status::NotSupported
             : Status::Error;
}

/// Releases an event at scope exit.
struct EventHolder {
  const OpenClApi& api;
  cl_event event = nullptr;
  ~EventHolder() {
    if (event != nullptr) api.clReleaseEvent(event);
  }
};

DispatchOutcome failed(Status status, std::string message) {
  return {status, std::move(message), {}, {}};
}

}  // namespace

DispatchOutcome run_dispatch(const OpenClApi& api, ClQueue& queue, BufferPool& pool,
                             const std::string& device_name, const DispatchRequest& r) {
  const auto on = " on " + device_name;
  const Clock::time_point deadline = Clock::now() + r.timeout;
  DispatchOutcome outcome;
  DispatchBuffers buffers(pool, queue);

  // Upload: every bound buffer (host bytes, then zeros to a whole word, or 16
  // bytes for an empty one), then the control word, in one wait.
  const Clock::time_point upload_start = Clock::now();
  static constexpr uint8_t kZeros[16] = {};
  cl_int error = CL_SUCCESS;
  EventHolder uploaded{api};
  auto upload = [&](const ByteBuffer& bytes) -> cl_mem {
    const uint64_t size = device_buffer_bytes(bytes.size());
    cl_mem m = buffers.take(size, error);
    const std::pair<size_t, const void*> pieces[] = {{0, bytes.data()}, {bytes.size(), kZeros}};
    for (const auto& [offset, data] : pieces) {
      const size_t length = offset == 0 ? bytes.size() : size - bytes.size();
      if (m == nullptr || error != CL_SUCCESS || length == 0) continue;
      if (uploaded.event != nullptr) api.clReleaseEvent(uploaded.event);
      uploaded.event = nullptr;
      error = api.clEnqueueWriteBuffer(queue.queue(), m, CL_FALSE, offset, length, data, 0, nullptr,
                                       &uploaded.event);
    }
    return m;
  };
  std::vector<cl_mem> bound;
  for (const KernelBuffer& b : r.iface.buffers) {
    bound.push_back(upload(r.inputs.at(b.name)));
    if (error != CL_SUCCESS) {
      return failed(resource_status(error),
                    "cannot upload buffer `" + b.name + "`" + on + ": " + cl_error_name(error));
    }
  }
  const ByteBuffer zero_word(4, 0);
  cl_mem control = r.iface.has_control_buffer ? upload(zero_word) : nullptr;
  if (error != CL_SUCCESS) {
    return failed(resource_status(error),
                  "cannot create the control buffer" + on + ": " + cl_error_name(error));
  }
  if (uploaded.event != nullptr) {
    api.clFlush(queue.queue());
    cl_int status = CL_COMPLETE;
    switch (wait_for(api, uploaded.event, deadline, status)) {
      case Wait::Complete:
        break;
      case Wait::TimedOut:
        queue.abandon();
        return failed(Status::Timeout, "uploading the inputs did not finish within " +
                                           std::to_string(r.timeout.count()) + " ms" + on);
      case Wait::Failed:
        return failed(Status::DeviceLost,
                      "uploading the inputs failed" + on + " (" + cl_error_name(status) + ")");
    }
  }
  outcome.timing.upload_ms = ms_since(upload_start);

  // Arguments in KernelInterface order. Dispatches never overlap, so the
  // cached kernel's arguments can be set each time.
  for (size_t i = 0; i < bound.size() && error == CL_SUCCESS; ++i) {
    const KernelBuffer& b = r.iface.buffers[i];
    const cl_uint count =
        static_cast<cl_uint>(host_element_count(b.element, r.inputs.at(b.name).size()));
    error = api.clSetKernelArg(r.kernel.kernel, r.iface.pointer_arg(i), sizeof(cl_mem), &bound[i]);
    if (error == CL_SUCCESS) {
      error = api.clSetKernelArg(r.kernel.kernel, r.iface.count_arg(i), sizeof count, &count);
    }
  }
  if (error == CL_SUCCESS && control != nullptr) {
    error = api.clSetKernelArg(r.kernel.kernel, r.iface.control_arg(), sizeof(cl_mem), &control);
  }
  if (error != CL_SUCCESS)
    return failed(Status::Error, "clSetKernelArg" + on + ": " + cl_error_name(error));

  // The kernel.
  size_t global[3];
  size_t local[3];
  for (size_t axis = 0; axis < 3; ++axis) {
    local[axis] = r.iface.workgroup_size[axis];
    global[axis] = size_t{r.grid.workgroups[axis]} * local[axis];
  }
  const Clock::time_point execute_start = Clock::now();
  EventHolder run{api};
  error = api.clEnqueueNDRangeKernel(queue.queue(), r.kernel.kernel, 3, nullptr, global, local, 0,
                                     nullptr, &run.event);
  if (error != CL_SUCCESS) {
    return failed(resource_status(error),
                  "clEnqueueNDRangeKernel" + on + ": " + cl_error_name(error));
  }
  api.clFlush(queue.queue());
  cl_int status = CL_COMPLETE;
  switch (wait_for(api, run.event, deadline, status)) {
    case Wait::Complete:
      break;
    case Wait::TimedOut:
      queue.abandon();
      return failed(Status::Timeout, "the kernel did not finish within " +
                                         std::to_string(r.timeout.count()) + " ms" + on +
                                         "; its queue is abandoned and a new one will be made");
    case Wait::Failed:
      return failed(Status::DeviceLost,
                    "the kernel failed" + on + " (" + cl_error_name(status) + ")");
  }
  outcome.timing.execute_ms = ms_since(execute_start);

  // Readback: the control word, then every read_write buffer's host bytes.
  const Clock::time_point readback_start = Clock::now();
  uint32_t control_word = 0;
  EventHolder last{api};
  auto read = [&](cl_mem m, size_t bytes, void* into) {
    if (error != CL_SUCCESS || bytes == 0) return;
    if (last.event != nullptr) api.clReleaseEvent(last.event);
    last.event = nullptr;
    error = api.clEnqueueReadBuffer(queue.queue(), m, CL_FALSE, 0, bytes, into, 0, nullptr,
                                    &last.event);
  };
  if (control != nullptr) read(control, sizeof control_word, &control_word);
  for (size_t i = 0; i < bound.size(); ++i) {
    const KernelBuffer& b = r.iface.buffers[i];
    if (b.access != BufferAccess::ReadWrite) continue;
    ByteBuffer& out = outcome.outputs[b.name];
    out.resize(r.inputs.at(b.name).size());
    read(bound[i], out.size(), out.data());
  }
  if (error != CL_SUCCESS) {
    return failed(resource_status(error), "clEnqueueReadBuffer" + on + ": " + cl_error_name(error));
  }
  if (last.event != nullptr) {
    api.clFlush(queue.queue());
    switch (wait_for(api, last.event, deadline, status)) {
      case Wait::Complete:
        break;
      case Wait::TimedOut:
        queue.abandon();
        return failed(Status::Timeout, "reading the outputs did not finish within " +
                                           std::to_string(r.timeout.count()) + " ms" + on);
      case Wait::Failed:
        return failed(Status::DeviceLost,
                      "reading the outputs failed" + on + " (" + cl_error_name(status) + ")");
    }
  }
  outcome.timing.readback_ms = ms_since(readback_start);
  if (control_word != 0)
    return failed(Status::Timeout, loop_budget_message(r.iface.loop_iteration_budget));
  outcome.status = Status::Ok;
  return outcome;
}

}  // namespace vyre::opencl
