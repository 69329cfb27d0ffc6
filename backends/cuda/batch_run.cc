// Uploading, launching, waiting for and judging the runs of one batch.
#include "backends/cuda/batch_run.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#include "backends/batch_failure.h"
#include "backends/clike/batch_buffer.h"
#include "backends/cuda/dispatch_checks.h"
#include "backends/elapsed_ms.h"
#include "spec/support/huge_pages.h"

namespace vyre::cuda {
namespace {

using Clock = std::chrono::steady_clock;

/// Polls of a stream that spin before the waiting thread sleeps.
constexpr int kSpinningPolls = 200;
constexpr auto kPollSleep = std::chrono::microseconds(50);
/// Bytes of one run's control word slot.
constexpr uint64_t kControlBytes = 4;

/// Status of a failed allocation, copy or launch: the device lacks something,
/// a kernel faulted, or anything else.
Status status_of(CUresult r) {
  if (r == kCudaErrorOutOfMemory || r == kCudaErrorLaunchOutOfResources) {
    return Status::NotSupported;
  }
  return is_sticky_error(r) ? Status::DeviceLost : Status::Error;
}

enum class StreamState : uint8_t { Idle, Failed, TimedOut };

/// Polls `stream` until it is idle, a call fails (`error` gets why) or
/// `deadline` passes: spinning first, as most submissions end within
/// microseconds, then sleeping between polls.
StreamState wait_for_stream(const CudaApi& api, CUstream stream, Clock::time_point deadline,
                            CUresult& error) {
  for (int poll = 0;; ++poll) {
    error = api.cuStreamQuery(stream);
    if (error == kCudaSuccess) return StreamState::Idle;
    if (error != kCudaErrorNotReady) return StreamState::Failed;
    if (Clock::now() >= deadline) return StreamState::TimedOut;
    if (poll >= kSpinningPolls) {
      std::this_thread::sleep_for(kPollSleep);
    } else {
      std::this_thread::yield();
    }
  }
}

/// Device buffers of one batch, freed at its end unless the context was
/// abandoned with a kernel that may still use them, or lost.
class Allocations {
 public:
  Allocations(const CudaApi& api, const CudaContext& context) : api_(api), context_(context) {}
  ~Allocations() {
    if (!context_.releases()) return;
    for (CUdeviceptr p : held_) api_.cuMemFree(p);
  }
  Allocations(const Allocations&) = delete;
  Allocations& operator=(const Allocations&) = delete;

  /// A buffer of `bytes`, or 0 with `error` set.
  CUdeviceptr allocate(uint64_t bytes, CUresult& error) {
    CUdeviceptr p = 0;
    error = api_.cuMemAlloc(&p, bytes);
    if (error != kCudaSuccess) return 0;
    held_.push_back(p);
    return p;
  }

 private:
  const CudaApi& api_;
  const CudaContext& context_;
  std::vector<CUdeviceptr> held_;
};

/// One bound buffer of the batch. Read-only and uniform buffers have one
/// resident copy that every run reads; a read_write buffer has one slot per
/// run of a submission, initialised from its pristine copy.
struct Binding : clike::BatchBuffer {
  CUdeviceptr resident = 0;  ///< The shared copy, or the pristine one.
  CUdeviceptr slots = 0;     ///< Outputs: `stride` bytes per slot (== resident for one run).
  uint64_t stride = 0;
  uint32_t count = 0;  ///< The element count the kernel is passed (S1).
};

class Batch {
 public:
  Batch(const CudaApi& api, CudaContext& context, const BatchRequest& r)
      : api_(api),
        context_(context),
        r_(r),
        allocations_(api, context),
        on_(" on " + r.device_name) {}

  BatchResult run() {
    Clock::time_point start = Clock::now();
    if (!lay_out() || !upload()) return finish();
    result_.timing.upload_ms = ms_since(start);
    for (uint32_t first = 0; first < plan_.runs; first += plan_.chunk) {
      if (!run_chunk(first, std::min(plan_.runs, first + plan_.chunk))) return finish();
    }
    result_.outcome.status = Status::Ok;
    return finish();
  }

 private:
  bool fail(Status status, std::string message, uint32_t run = 0) {
    if (status == Status::DeviceLost) context_.mark_lost();
    return record_batch_failure(result_.outcome, status, std::move(message), run);
  }

  bool fail(CUresult r, const std::string& what, uint32_t run = 0) {
    const Status status = status_of(r);
    const std::string lost =
        status == Status::DeviceLost ? "; the context is lost and a new one will be made" : "";
    return fail(status, what + on_ + ": " + cu_error_name(r, &api_) + lost, run);
  }

  BatchResult finish() {
    if (result_.outcome.status != Status::Ok) drain();
    return {finished_batch(std::move(result_.outcome)), result_.timing};
  }

  bool lay_out() {
    uint64_t per_run = 0;
    for (const KernelBuffer& b : r_.iface.buffers) {
      Binding binding{clike::batch_buffer(b, r_.inputs, is_scratch(r_.options, b.name))};
      binding.stride = slot_stride(binding.size);
      // Fits a u32: exceeded_limit keeps every buffer within device memory,
      // and S1 counts elements of at least 4 bytes (Bytes: backing words).
      binding.count = static_cast<uint32_t>(host_element_count(b.element, binding.bytes->size()));
      if (binding.output) per_run += binding.stride;
      bindings_.push_back(binding);
    }
    if (r_.iface.has_control_buffer) per_run += slot_stride(kControlBytes);
    plan_ = plan_batch(r_.options, per_run, r_.slot_budget_bytes);
    return true;
  }

  /// Every buffer's resident copy: the host bytes, then zeros to its size;
  /// the output slots and control words.
  bool upload() {
    CUresult error = kCudaSuccess;
    for (Binding& b : bindings_) {
      b.resident = allocations_.allocate(b.size, error);
      if (b.resident == 0)
        return fail(error, "cannot allocate " + std::to_string(b.size) + " bytes");
      const uint64_t n = b.bytes->size();
      if (n != 0) error = api_.cuMemcpyHtoDAsync(b.resident, b.bytes->data(), n, context_.stream());
      if (error == kCudaSuccess && b.size > n) {
        error = api_.cuMemsetD8Async(b.resident + n, 0, b.size - n, context_.stream());
      }
      if (error != kCudaSuccess) return fail(error, "uploading buffer `" + b.decl->name + "`");
      b.slots = b.resident;
      if (b.output && plan_.pristine) {
        b.slots = allocations_.allocate(b.stride * plan_.chunk, error);
        if (b.slots == 0) return fail(error, "cannot allocate the runs' output slots");
      }
    }
    if (r_.iface.has_control_buffer) {
      control_stride_ = slot_stride(kControlBytes);
      control_ = allocations_.allocate(control_stride_ * plan_.chunk, error);
      if (control_ == 0) return fail(error, "cannot allocate the control words");
    }
    return true;
  }

  /// Launches runs [first, end), waits once, then judges each.
  bool run_chunk(uint32_t first, uint32_t end) {
    const Clock::time_point start = Clock::now();
    for (uint32_t run = first; run < end; ++run) {
      if (!launch(run, run - first)) return false;
    }
    if (!wait(end - first, first)) return false;
    result_.outcome.submissions += 1;
    report_submission(r_.options);
    result_.outcome.dispatches += end - first;
    if (first == 0) result_.timing.execute_ms = ms_since(start);
    const Clock::time_point read_start = Clock::now();
    if (!judge(first, end)) return false;
    if (first == 0) result_.timing.readback_ms = ms_since(read_start);
    return true;
  }

  /// Fresh outputs and control word in `slot`, then the kernel on them.
  bool launch(uint32_t run, uint32_t slot) {
    const CUstream stream = context_.stream();
    std::vector<CUdeviceptr> pointers;
    std::vector<uint32_t> counts;
    for (const Binding& b : bindings_) {
      CUdeviceptr at = b.resident;
      if (b.output && plan_.pristine) {
        at = b.slots + b.stride * slot;
        if (CUresult e = api_.cuMemcpyDtoDAsync(at, b.resident, b.size, stream);
            e != kCudaSuccess) {
          return fail(e, "initialising run " + std::to_string(run) + "'s outputs", run);
        }
      }
      pointers.push_back(at);
      counts.push_back(b.count);
    }
    if (control_ != 0) {
      pointers.push_back(control_ + control_stride_ * slot);
      if (CUresult e = api_.cuMemsetD8Async(pointers.back(), 0, kControlBytes, stream);
          e != kCudaSuccess) {
        return fail(e, "clearing run " + std::to_string(run) + "'s control word", run);
      }
    }
    // Parameters in KernelInterface order: pointers, counts, control.
    std::vector<void*> parameters;
    for (size_t i = 0; i < bindings_.size(); ++i) parameters.push_back(&pointers[i]);
    for (uint32_t& count : counts) parameters.push_back(&count);
    if (control_ != 0) parameters.push_back(&pointers.back());
    const auto& block = r_.iface.workgroup_size;
    const auto& grid = r_.grid.workgroups;
    const CUresult e = api_.cuLaunchKernel(
        r_.kernel.function, grid[0], grid[1], grid[2], block[0], block[1], block[2], 0, stream,
        parameters.empty() ? nullptr : parameters.data(), nullptr);
    if (e != kCudaSuccess) return fail(e, "cuLaunchKernel of run " + std::to_string(run), run);
    return true;
  }

  /// Waits for everything on the stream, `runs` timeouts at most.
  bool wait(uint32_t runs, uint32_t first) {
    const auto limit = r_.timeout * runs;
    CUresult error = kCudaSuccess;
    switch (wait_for_stream(api_, context_.stream(), Clock::now() + limit, error)) {
      case StreamState::Idle:
        return true;
      case StreamState::Failed:
        return fail(error, "the kernel failed", first);
      case StreamState::TimedOut:
        context_.abandon();
        return fail(Status::Timeout,
                    (runs == 1 ? std::string("the kernel") : std::to_string(runs) + " runs") +
                        " did not finish within " + std::to_string(limit.count()) + " ms" + on_ +
                        "; its context is abandoned and a new one will be made",
                    first);
    }
    return false;
  }

  /// After a failure that left work on the stream (a launch refused after
  /// others were queued), waits for that work before the buffers it uses
  /// are freed; past one timeout the context is abandoned instead.
  void drain() {
    if (!context_.releases()) return;
    CUresult error = kCudaSuccess;
    switch (wait_for_stream(api_, context_.stream(), Clock::now() + r_.timeout, error)) {
      case StreamState::Idle:
        return;
      case StreamState::Failed:
        if (is_sticky_error(error)) context_.mark_lost();
        return;
      case StreamState::TimedOut:
        context_.abandon();
        return;
    }
  }

  /// Control words, then each run's outputs, recorded against run 0's (a
  /// scratch output is read for run 0 alone: no other run's is judged).
  bool judge(uint32_t first, uint32_t end) {
    const uint32_t runs = end - first;
    if (control_ != 0) {
      std::vector<uint8_t> words(control_stride_ * runs);
      if (CUresult e = api_.cuMemcpyDtoH(words.data(), control_, words.size()); e != kCudaSuccess) {
        return fail(e, "reading the control words", first);
      }
      for (uint32_t i = 0; i < runs; ++i) {
        uint32_t word = 0;
        std::memcpy(&word, words.data() + control_stride_ * i, sizeof word);
        if (word != 0) {
          return fail(Status::Timeout, loop_budget_message(r_.iface.loop_iteration_budget),
                      first + i);
        }
      }
    }
    std::vector<ByteBuffer> slots;  // Per output: this submission's slots.
    for (const Binding& b : bindings_) {
      if (!b.output) continue;
      ByteBuffer bytes;
      if (!b.bytes->empty() && (!b.scratch || first == 0)) {
        // Run 0 sits in slot 0 of the first submission.
        const uint64_t span = plan_.pristine && !b.scratch ? b.stride * runs : b.bytes->size();
        reserve_on_huge_pages(bytes, span);
        bytes.resize(span);
        if (CUresult e = api_.cuMemcpyDtoH(bytes.data(), b.slots, span); e != kCudaSuccess) {
          return fail(e, "reading buffer `" + b.decl->name + "`", first);
        }
      }
      slots.push_back(std::move(bytes));
    }
    for (uint32_t i = 0; i < runs; ++i) {
      BufferSet outputs;
      size_t next = 0;
      for (const Binding& b : bindings_) {
        if (!b.output) continue;
        ByteBuffer& all = slots[next++];
        if (b.scratch) {
          if (first + i == 0) outputs[b.decl->name] = std::move(all);
          continue;
        }
        if (!plan_.pristine || all.empty()) {  // The single run: its bytes are the whole read.
          outputs[b.decl->name] = std::move(all);
          continue;
        }
        const uint8_t* from = all.data() + b.stride * i;
        outputs[b.decl->name] = ByteBuffer(from, from + b.bytes->size());
      }
      record_run_outputs(result_.outcome, first + i, std::move(outputs), r_.options);
    }
    return true;
  }

  const CudaApi& api_;
  CudaContext& context_;
  const BatchRequest& r_;
  Allocations allocations_;
  const std::string on_;
  BatchPlan plan_;
  std::vector<Binding> bindings_;
  CUdeviceptr control_ = 0;
  uint64_t control_stride_ = 0;
  BatchResult result_;
};

}  // namespace

BatchResult run_batch(const CudaApi& api, CudaContext& context, const BatchRequest& request) {
  return Batch(api, context, request).run();
}

}  // namespace vyre::cuda
