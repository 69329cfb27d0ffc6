// One dispatch, with deadlines.
#include "backends/opencl/dispatch_run.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <vector>

#include "backends/elapsed_ms.h"
#include "backends/opencl/buffer_pool.h"
#include "backends/opencl/dispatch_checks.h"
#include "backends/opencl/event_wait.h"
#include "backends/opencl/mapped_regions.h"
#include "backends/opencl/runtime_mutants.h"
#include "spec/support/huge_pages.h"

namespace vyre::opencl {
namespace {

using Clock = std::chrono::steady_clock;

DispatchOutcome failed(Status status, std::string message) {
  return {status, std::move(message), {}, {}};
}

/// A copy of `bytes` bytes at `from`, as a new output buffer (on huge
/// pages when large: spec/support/huge_pages.h).
ByteBuffer output_copy(const uint8_t* from, size_t bytes) {
  ByteBuffer out;
  reserve_on_huge_pages(out, bytes);
  out.assign(from, from + bytes);  // Within the reserved capacity: no reallocation.
  return out;
}

/// One dispatch's work on the queue. Host bytes move only through mapped
/// regions, so no command still queued after a timeout can touch memory the
/// caller owns (a non-blocking read or write would, once the call returned).
class Run {
 public:
  Run(const OpenClApi& api, ClQueue& queue, BufferPool& pool, const std::string& device_name,
      const DispatchRequest& r)
      : api_(api),
        queue_(queue),
        buffers_(pool, queue),
        on_(" on " + device_name),
        r_(r),
        deadline_(Clock::now() + r.timeout) {}

  DispatchOutcome operator()() {
    DispatchOutcome outcome;
    Clock::time_point start = Clock::now();
    if (!upload()) return std::move(failure_);
    outcome.timing.upload_ms = ms_since(start);
    start = Clock::now();
    if (!execute()) return std::move(failure_);
    outcome.timing.execute_ms = ms_since(start);
    outcome.timing.device_ms = device_ms_;
    start = Clock::now();
    uint32_t control_word = 0;
    if (!read_back(outcome.outputs, control_word)) return std::move(failure_);
    outcome.timing.readback_ms = ms_since(start);
    if (control_word != 0) {
      return failed(Status::Timeout, loop_budget_message(r_.iface.loop_iteration_budget));
    }
    outcome.status = Status::Ok;
    return outcome;
  }

 private:
  /// Records a failed OpenCL call; always false.
  bool fail(cl_int error, const std::string& what) {
    failure_ = failed(resource_status(error), what + on_ + ": " + cl_error_name(error));
    return false;
  }

  /// Waits for `event` (and, the queue being in order, all before it).
  bool wait(cl_event event, const std::string& what) {
    api_.clFlush(queue_.queue());
    cl_int status = CL_COMPLETE;
    switch (wait_for(api_, event, deadline_, status)) {
      case Wait::Complete:
        return true;
      case Wait::TimedOut:
        queue_.abandon();
        failure_ = failed(Status::Timeout,
                          what + " did not finish within " + std::to_string(r_.timeout.count()) +
                              " ms" + on_ + "; its queue is abandoned and a new one will be made");
        return false;
      case Wait::Failed:
        failure_ =
            failed(Status::DeviceLost, what + " failed" + on_ + " (" + cl_error_name(status) + ")");
        return false;
    }
    return false;
  }

  /// Maps every region (non-blocking) and waits for the last map.
  bool map(std::vector<MappedRegion>& regions, cl_map_flags flags, const std::string& what) {
    HeldEvent last{api_};
    if (cl_int error = enqueue_maps(api_, queue_.queue(), regions, flags, last);
        error != CL_SUCCESS) {
      return fail(error, "clEnqueueMapBuffer (" + what + ")");
    }
    return last.event == nullptr || wait(last.event, what);
  }

  /// Unmaps every mapped region (those with a host pointer).
  void unmap(std::vector<MappedRegion>& regions) { unmap_regions(api_, queue_.queue(), regions); }

  /// Every bound buffer gets the host bytes, then zeros to its device size;
  /// the control buffer zeros.
  bool upload() {
    std::vector<MappedRegion> regions;
    std::vector<const ByteBuffer*> sources;
    static const ByteBuffer kNoBytes;
    auto take = [&](const ByteBuffer& bytes) {
      cl_int error = CL_SUCCESS;
      const uint64_t size = device_buffer_bytes(bytes.size());
      cl_mem m = buffers_.take(size, error);
      if (m != nullptr) {
        regions.push_back({m, size, nullptr});
        sources.push_back(&bytes);
      }
      return error == CL_SUCCESS ? m : (fail(error, "cannot allocate a buffer"), nullptr);
    };
    for (const KernelBuffer& b : r_.iface.buffers) {
      bound_.push_back(take(r_.inputs.at(b.name)));
      if (bound_.back() == nullptr) return false;
    }
    if (r_.iface.has_control_buffer && (control_ = take(kNoBytes)) == nullptr) return false;
    if (!map(regions, CL_MAP_WRITE_INVALIDATE_REGION, "uploading the inputs")) return false;
    for (size_t i = 0; i < regions.size(); ++i) {
      const ByteBuffer& bytes = *sources[i];
      std::copy(bytes.begin(), bytes.end(), regions[i].host);
      if (zeroes_past_host_bytes())
        std::fill(regions[i].host + bytes.size(), regions[i].host + regions[i].bytes, uint8_t{0});
    }
    unmap(regions);
    return true;
  }

  /// Arguments in KernelInterface order, then the kernel. Dispatches never
  /// overlap, so the cached kernel's arguments can be set each time.
  bool execute() {
    cl_kernel kernel = r_.kernel.kernel;
    std::vector<cl_uint> counts;
    for (const KernelBuffer& b : r_.iface.buffers) {
      counts.push_back(
          static_cast<cl_uint>(host_element_count(b.element, r_.inputs.at(b.name).size())));
    }
    for (size_t i = 0; i < bound_.size(); ++i) {
      const cl_uint count = count_argument(counts.data(), i);
      cl_int error =
          api_.clSetKernelArg(kernel, r_.iface.pointer_arg(i), sizeof(cl_mem), &bound_[i]);
      if (error == CL_SUCCESS) {
        error = api_.clSetKernelArg(kernel, r_.iface.count_arg(i), sizeof count, &count);
      }
      if (error != CL_SUCCESS) return fail(error, "clSetKernelArg");
    }
    if (control_ != nullptr) {
      const cl_int error =
          api_.clSetKernelArg(kernel, r_.iface.control_arg(), sizeof(cl_mem), &control_);
      if (error != CL_SUCCESS) return fail(error, "clSetKernelArg");
    }
    std::array<size_t, 3> global;
    std::array<size_t, 3> local;
    for (size_t axis = 0; axis < 3; ++axis) {
      local[axis] = r_.iface.workgroup_size[axis];
      global[axis] = size_t{r_.grid.workgroups[axis]} * local[axis];
    }
    global = global_size(global, local);
    HeldEvent run{api_};
    const cl_int error = api_.clEnqueueNDRangeKernel(
        queue_.queue(), kernel, 3, nullptr, global.data(), local.data(), 0, nullptr, &run.event);
    if (error != CL_SUCCESS) return fail(error, "clEnqueueNDRangeKernel");
    if (!wait(run.event, "the kernel")) return false;
    device_ms_ = profiled_ms(api_, run.event);
    return true;
  }

  /// The control word, then every read_write buffer's host bytes.
  bool read_back(BufferSet& outputs, uint32_t& control_word) {
    std::vector<MappedRegion> regions;
    if (control_ != nullptr) regions.push_back({control_, sizeof control_word, nullptr});
    for (size_t i = 0; i < bound_.size(); ++i) {
      const KernelBuffer& b = r_.iface.buffers[i];
      const size_t bytes = r_.inputs.at(b.name).size();
      if (b.access != BufferAccess::ReadWrite) continue;
      if (bytes == 0) {
        outputs[b.name] = {};
        continue;
      }
      regions.push_back({bound_[i], read_back_bytes(bytes), nullptr});
    }
    if (!map(regions, CL_MAP_READ, "reading the outputs")) return false;
    size_t next = 0;
    if (control_ != nullptr) std::memcpy(&control_word, regions[next++].host, sizeof control_word);
    for (size_t i = 0; i < bound_.size(); ++i) {
      const KernelBuffer& b = r_.iface.buffers[i];
      if (b.access != BufferAccess::ReadWrite || r_.inputs.at(b.name).empty()) continue;
      const MappedRegion& region = regions[next++];
      outputs[b.name] = output_copy(region.host, region.bytes);
    }
    unmap(regions);
    api_.clFlush(queue_.queue());
    return true;
  }

  const OpenClApi& api_;
  ClQueue& queue_;
  DispatchBuffers buffers_;
  const std::string on_;
  const DispatchRequest& r_;
  const Clock::time_point deadline_;
  std::vector<cl_mem> bound_;
  cl_mem control_ = nullptr;
  std::optional<double> device_ms_;  ///< The kernel's own time, once it finished.
  DispatchOutcome failure_;
};

}  // namespace

DispatchOutcome run_dispatch(const OpenClApi& api, ClQueue& queue, BufferPool& pool,
                             const std::string& device_name, const DispatchRequest& request) {
  return Run(api, queue, pool, device_name, request)();
}

}  // namespace vyre::opencl
