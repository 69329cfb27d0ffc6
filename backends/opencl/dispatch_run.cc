// One dispatch, with deadlines.
#include "backends/opencl/dispatch_run.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <optional>
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

/// Most words of a remembered buffer a dispatch rewrites by fills rather
/// than by a mapped upload (the dataflow engine's level word, say).
constexpr size_t kMaxPatchedWords = 4;

constexpr uint32_t kZeroWord = 0;

/// The word `bytes` repeats, when it is whole words all equal (none for
/// no bytes: such a buffer is zeros).
std::optional<uint32_t> repeated_word(const ByteBuffer& bytes) {
  if (bytes.size() % 4 != 0) return std::nullopt;
  uint32_t word = 0;
  if (!bytes.empty()) std::memcpy(&word, bytes.data(), 4);
  for (size_t at = 4; at < bytes.size(); at += 4) {
    if (std::memcmp(bytes.data() + at, &word, 4) != 0) return std::nullopt;
  }
  return word;
}

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
        allowed_(r.timeout + queue.first_run_allowance(r.kernel, r.timeout)),
        deadline_(Clock::now() + allowed_) {}

  DispatchOutcome operator()() {
    DispatchOutcome outcome;
    Clock::time_point start = Clock::now();
    if (!upload()) return std::move(failure_);
    outcome.timing.upload_ms = ms_since(start);
    // The kernel and the maps of its outputs go to the queue together and
    // are waited for once: execute_ms is the kernel and the device's copies
    // back, readback_ms the host's copies out of the mapped regions.
    start = Clock::now();
    std::vector<MappedRegion> regions;
    if (!execute_and_map(regions)) return std::move(failure_);
    r_.kernel.ran = true;
    outcome.timing.execute_ms = ms_since(start);
    outcome.timing.device_ms = device_ms_;
    start = Clock::now();
    const bool budget_spent = !read_back(regions, outcome.outputs);
    unmap(regions);
    api_.clFlush(queue_.queue());
    outcome.timing.readback_ms = ms_since(start);
    if (budget_spent) {
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

  /// Waits for `event` (and, the queue being in order, all before it). When
  /// the wait fails and `kernel` (an earlier command) did not complete, the
  /// failure is named as the kernel's.
  bool wait(cl_event event, const std::string& what, cl_event kernel = nullptr) {
    api_.clFlush(queue_.queue());
    cl_int status = CL_COMPLETE;
    const Wait ended = wait_for(api_, event, deadline_, status, queue_.spin_wait());
    if (ended == Wait::Complete) return true;
    std::string failing = what;
    if (kernel != nullptr) {
      cl_int kernel_status = CL_COMPLETE;
      if (api_.clGetEventInfo(kernel, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof kernel_status,
                              &kernel_status, nullptr) == CL_SUCCESS &&
          kernel_status != CL_COMPLETE) {
        failing = "the kernel";
        if (kernel_status < 0) status = kernel_status;
      }
    }
    if (ended == Wait::TimedOut) {
      queue_.abandon();
      failure_ = failed(Status::Timeout, failing + " did not finish within " +
                                             std::to_string(r_.timeout.count()) + " ms" +
                                             first_run_note(allowed_ - r_.timeout) + on_ +
                                             "; its queue is abandoned and a new one will be made");
      return false;
    }
    failure_ =
        failed(Status::DeviceLost, failing + " failed" + on_ + " (" + cl_error_name(status) + ")");
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
  /// the control buffer zeros. A buffer the pool remembers holding exactly
  /// that is bound as it is; one it remembers differing in a few words gets
  /// those words filled; host bytes that are one word repeated (zeros, most
  /// often) are filled. Fills copy their pattern at the call, so they need
  /// no wait: only the rest is mapped, written and unmapped, behind one wait.
  bool upload() {
    std::vector<MappedRegion> regions;
    std::vector<const ByteBuffer*> sources;
    static const ByteBuffer kNoBytes;
    auto take = [&](const ByteBuffer& bytes, bool& held) -> cl_mem {
      const uint64_t size = device_buffer_bytes(bytes.size());
      // Remembered contents assume the zeros past the host bytes.
      const bool rememberable = zeroes_past_host_bytes() && bytes.size() <= kMaxRememberedBytes;
      held = rememberable;
      if (held) {
        if (cl_mem m = buffers_.take_holding(bytes, size)) return m;
        held = false;
      }
      std::vector<uint64_t> differing;
      if (rememberable) {
        if (cl_mem m = buffers_.take_nearest(bytes, size, kMaxPatchedWords, differing)) {
          for (uint64_t word : differing) {
            if (!fill(m, bytes.data() + word * 4, word * 4, 4)) return nullptr;
          }
          return m;
        }
      }
      cl_int error = CL_SUCCESS;
      cl_mem m = buffers_.take(size, error);
      if (m == nullptr) return fail(error, "cannot allocate a buffer"), nullptr;
      if (const std::optional<uint32_t> word = repeated_word(bytes)) {
        const bool pad = zeroes_past_host_bytes() && size > bytes.size();
        const uint64_t filled = *word == 0 && pad ? size : bytes.size();
        if (filled != 0 && !fill(m, &*word, 0, filled)) return nullptr;
        if (filled < size && pad && !fill(m, &kZeroWord, filled, size - filled)) return nullptr;
        return m;
      }
      regions.push_back({m, size, nullptr});
      sources.push_back(&bytes);
      return m;
    };
    for (const KernelBuffer& b : r_.iface.buffers) {
      bool held = false;
      bound_.push_back(take(r_.inputs.at(b.name), held));
      held_.push_back(held);
      if (bound_.back() == nullptr) return false;
    }
    bool control_held = false;  // Its zeros are checked again after the kernel.
    if (r_.iface.has_control_buffer && (control_ = take(kNoBytes, control_held)) == nullptr) {
      return false;
    }
    if (regions.empty()) return true;
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

  /// Enqueues a fill of `bytes` bytes of `buffer` from `offset` with the
  /// 4-byte `pattern` (copied by the call); false when it fails.
  bool fill(cl_mem buffer, const void* pattern, uint64_t offset, uint64_t bytes) {
    const cl_int error = api_.clEnqueueFillBuffer(queue_.queue(), buffer, pattern, 4, offset, bytes,
                                                  0, nullptr, nullptr);
    return error == CL_SUCCESS || fail(error, "clEnqueueFillBuffer (uploading the inputs)");
  }

  /// Arguments in KernelInterface order, then the kernel. The kernel object
  /// is this dispatch lane's own (kernel_for_lane), which one dispatch holds
  /// at a time, so its arguments can be set each time; only those that
  /// differ from what the lane's last dispatch set are (KernelArguments).
  bool set_arguments() {
    cl_kernel kernel = r_.kernel.kernel;
    KernelArguments& arguments = r_.kernel.arguments;
    arguments.within(buffers_.releases());
    std::vector<cl_uint> counts;
    for (const KernelBuffer& b : r_.iface.buffers) {
      counts.push_back(
          static_cast<cl_uint>(host_element_count(b.element, r_.inputs.at(b.name).size())));
    }
    for (size_t i = 0; i < bound_.size(); ++i) {
      const cl_uint count = count_argument(counts.data(), i);
      cl_int error =
          arguments.set(api_, kernel, r_.iface.pointer_arg(i), sizeof(cl_mem), &bound_[i]);
      if (error == CL_SUCCESS) {
        error = arguments.set(api_, kernel, r_.iface.count_arg(i), sizeof count, &count);
      }
      if (error != CL_SUCCESS) return fail(error, "clSetKernelArg");
    }
    if (control_ != nullptr) {
      const cl_int error =
          arguments.set(api_, kernel, r_.iface.control_arg(), sizeof(cl_mem), &control_);
      if (error != CL_SUCCESS) return fail(error, "clSetKernelArg");
    }
    return true;
  }

  /// Enqueues the kernel, then maps (non-blocking) the control buffer and
  /// every read_write buffer, each up to its device size (so that the zeros
  /// past the host bytes are seen too), and waits for the last map. A
  /// failure is the kernel's when its own event says it failed or never
  /// finished.
  bool execute_and_map(std::vector<MappedRegion>& regions) {
    if (!set_arguments()) return false;
    std::array<size_t, 3> global;
    std::array<size_t, 3> local;
    for (size_t axis = 0; axis < 3; ++axis) {
      local[axis] = r_.iface.workgroup_size[axis];
      global[axis] = size_t{r_.grid.workgroups[axis]} * local[axis];
    }
    global = global_size(global, local);
    HeldEvent run{api_};
    cl_int error = api_.clEnqueueNDRangeKernel(queue_.queue(), r_.kernel.kernel, 3, nullptr,
                                               global.data(), local.data(), 0, nullptr, &run.event);
    if (error != CL_SUCCESS) return fail(error, "clEnqueueNDRangeKernel");
    if (control_ != nullptr) regions.push_back({control_, device_buffer_bytes(0), nullptr});
    for (size_t i = 0; i < bound_.size(); ++i) {
      const KernelBuffer& b = r_.iface.buffers[i];
      const size_t bytes = r_.inputs.at(b.name).size();
      if (b.access != BufferAccess::ReadWrite || bytes == 0) continue;
      regions.push_back({bound_[i], device_buffer_bytes(bytes), nullptr});
    }
    HeldEvent last{api_};
    error = enqueue_maps(api_, queue_.queue(), regions, CL_MAP_READ, last);
    if (error != CL_SUCCESS) {
      // The kernel is queued: its own failure or hang comes first.
      return wait(run.event, "the kernel") &&
             fail(error, "clEnqueueMapBuffer (reading the outputs)");
    }
    cl_event waited = last.event != nullptr ? last.event : run.event;
    if (!wait(waited, "reading the outputs", run.event)) return false;
    device_ms_ = profiled_ms(api_, run.event);
    return true;
  }

  /// Copies the outputs out of the mapped `regions` (control word first);
  /// false when the control word says the loop budget ran out. On success
  /// the pool learns what each buffer now holds.
  bool read_back(const std::vector<MappedRegion>& regions, BufferSet& outputs) {
    size_t next = 0;
    if (control_ != nullptr) {
      const MappedRegion& control = regions[next++];
      uint32_t control_word = 0;
      std::memcpy(&control_word, control.host, sizeof control_word);
      if (control_word != 0) return false;
      if (all_zero(control.host, control.bytes)) buffers_.remember(control_, {});
    }
    for (size_t i = 0; i < bound_.size(); ++i) {
      const KernelBuffer& b = r_.iface.buffers[i];
      const ByteBuffer& input = r_.inputs.at(b.name);
      if (b.access != BufferAccess::ReadWrite) {
        // Read only: it holds what it was given.
        if (held_[i]) {
          buffers_.still_holds(bound_[i]);
        } else if (zeroes_past_host_bytes() && input.size() <= kMaxRememberedBytes) {
          buffers_.remember(bound_[i], input);
        }
        continue;
      }
      if (input.empty()) {
        outputs[b.name] = {};
        continue;
      }
      const MappedRegion& region = regions[next++];
      const size_t bytes = read_back_bytes(input.size());
      outputs[b.name] = output_copy(region.host, bytes);
      if (bytes == input.size() && bytes <= kMaxRememberedBytes &&
          all_zero(region.host + bytes, region.bytes - bytes)) {
        buffers_.remember(bound_[i], outputs[b.name]);
      }
    }
    return true;
  }

  static bool all_zero(const uint8_t* from, size_t bytes) {
    return std::all_of(from, from + bytes, [](uint8_t b) { return b == 0; });
  }

  const OpenClApi& api_;
  ClQueue& queue_;
  DispatchBuffers buffers_;
  const std::string on_;
  const DispatchRequest& r_;
  /// The time the dispatch may take: its timeout, and on a first run what
  /// ClQueue::first_run_allowance adds.
  const std::chrono::milliseconds allowed_;
  const Clock::time_point deadline_;
  std::vector<cl_mem> bound_;
  /// Whether bound_[i] was bound holding its bytes, not uploaded.
  std::vector<bool> held_;
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
