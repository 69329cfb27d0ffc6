// Enqueuing, waiting for and judging the runs of one batch.
#include "backends/opencl/batch_run.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "backends/batch_failure.h"
#include "backends/clike/batch_buffer.h"
#include "backends/opencl/dispatch_checks.h"
#include "backends/opencl/event_wait.h"
#include "backends/opencl/mapped_regions.h"
#include "backends/opencl/runtime_mutants.h"

namespace vyre::opencl {

const char* const kCompareKernelSource =
    "// Compares one run's output with run 0's (backends/opencl/batch_run.cc).\n"
    "__kernel void vyre_main(__global const uint* first, __global const uint* run,\n"
    "                        __global uint* flags, uint words, uint last_mask, uint flag) {\n"
    "  for (uint i = (uint)get_global_id(0); i < words; i += (uint)get_global_size(0)) {\n"
    "    const uint mask = i + 1u == words ? last_mask : 0xFFFFFFFFu;\n"
    "    if (((first[i] ^ run[i]) & mask) != 0u) {\n"
    "      atomic_or(&flags[flag], 1u);\n"
    "      return;\n"
    "    }\n"
    "  }\n"
    "}\n";

namespace {

using Clock = std::chrono::steady_clock;

/// Work-items of one comparison: a grid-stride loop covers any length.
constexpr size_t kCompareGroup = 64;
constexpr size_t kMaxCompareGroups = 1024;
/// Bytes of one run's control buffer (word 0 is the loop budget flag).
constexpr uint64_t kControlBytes = 16;

/// The mask of the last word of a buffer of `host_bytes` bytes.
uint32_t last_word_mask(uint64_t host_bytes) {
  const uint64_t tail = host_bytes % 4;
  return tail == 0 ? 0xFFFFFFFFu : (uint32_t{1} << (8 * tail)) - 1;
}

/// One bound buffer of the batch: read-only and uniform buffers have one
/// resident copy every run reads; a read_write buffer has a pristine copy of
/// its initial bytes and one buffer per slot that a run writes.
struct BatchBinding : clike::BatchBuffer {
  cl_mem resident = nullptr;
  std::vector<cl_mem> slots{};  ///< Outputs only: one buffer per slot.
};

class Batch {
 public:
  Batch(const OpenClApi& api, ClQueue& queue, BufferPool& pool, const std::string& device_name,
        const BatchRequest& request)
      : api_(api), queue_(queue), buffers_(pool, queue), on_(" on " + device_name), r_(request) {}
  /// A failed submission's events are released with it, unless its queue
  /// was abandoned (hung work keeps them).
  ~Batch() {
    if (!queue_.abandoned()) release_kernel_events();
  }
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;

  BatchOutcome run() {
    plan();
    if (!allocate() || !upload() || !set_fixed_arguments()) return finish();
    for (uint32_t first = 0; first < runs_; first += chunk_) {
      if (!run_chunk(first, std::min(runs_, first + chunk_))) return finish();
    }
    outcome_.status = Status::Ok;
    return finish();
  }

 private:
  bool fail(Status status, std::string message, uint32_t run = 0) {
    return record_batch_failure(outcome_, status, std::move(message), run);
  }

  bool fail_call(cl_int error, const std::string& what, uint32_t run = 0) {
    return fail(resource_status(error), what + on_ + ": " + cl_error_name(error), run);
  }

  BatchOutcome finish() { return finished_batch(std::move(outcome_)); }

  /// Run 0 keeps slot 0; the runs of a submission take distinct slots
  /// among 1..chunk, reused by the next submission.
  uint32_t slot_of(uint32_t run) const { return run == 0 ? 0 : 1 + run % chunk_; }

  /// Runs per submission: at least the submissions asked for, more when the
  /// slots would pass their budget, at most kMaxRunsPerSubmission runs each.
  void plan() {
    runs_ = std::max<uint32_t>(r_.options.runs, 1);
    uint64_t per_run = 0;
    for (const KernelBuffer& b : r_.iface.buffers) {
      BatchBinding binding{clike::batch_buffer(b, r_.inputs, is_scratch(r_.options, b.name))};
      if (binding.output) per_run += binding.size;
      bindings_.push_back(binding);
    }
    if (r_.iface.has_control_buffer) per_run += kControlBytes;
    const uint32_t submissions = std::clamp<uint32_t>(r_.options.submissions, 1, runs_);
    uint64_t chunk = (runs_ + submissions - 1) / submissions;
    if (per_run != 0) chunk = std::min<uint64_t>(chunk, r_.slot_budget_bytes / per_run);
    chunk_ = static_cast<uint32_t>(std::clamp<uint64_t>(chunk, 1, kMaxRunsPerSubmission));
    slots_ = runs_ == 1 ? 1 : chunk_ + 1;
  }

  bool take(uint64_t bytes, cl_mem& into) {
    cl_int error = CL_SUCCESS;
    into = buffers_.take(bytes, error);
    return into != nullptr || fail_call(error, "cannot allocate a buffer");
  }

  bool allocate() {
    for (BatchBinding& b : bindings_) {
      if (!take(b.size, b.resident)) return false;
      if (!b.output) continue;
      b.slots.resize(slots_);
      for (cl_mem& slot : b.slots) {
        if (!take(b.size, slot)) return false;
      }
    }
    if (r_.iface.has_control_buffer) {
      controls_.resize(slots_);
      for (cl_mem& control : controls_) {
        if (!take(kControlBytes, control)) return false;
      }
      if (!take(std::max<uint64_t>(16, 4 * uint64_t{slots_}), control_words_)) return false;
    }
    return take(std::max<uint64_t>(16, 4 * uint64_t{slots_}), flags_);
  }

  /// Maps every region (non-blocking) and waits for the last map, and with
  /// it (the queue is in order) everything enqueued before.
  bool map(std::vector<MappedRegion>& regions, cl_map_flags flags, const std::string& what,
           Clock::time_point deadline, uint32_t run) {
    HeldEvent last{api_};
    if (cl_int error = enqueue_maps(api_, queue_.queue(), regions, flags, last);
        error != CL_SUCCESS) {
      return fail_call(error, "clEnqueueMapBuffer (" + what + ")", run);
    }
    if (last.event == nullptr) return true;
    api_.clFlush(queue_.queue());
    cl_int status = CL_COMPLETE;
    switch (wait_for(api_, last.event, deadline, status, queue_.spin_wait())) {
      case Wait::Complete:
        return true;
      case Wait::TimedOut:
        unmap(regions);
        queue_.abandon();
        return fail(Status::Timeout,
                    what + " did not finish within " + std::to_string(r_.fence_timeout.count()) +
                        " ms a run" + on_ + "; its queue is abandoned and a new one will be made",
                    run);
      case Wait::Failed:
        unmap(regions);
        return fail(Status::DeviceLost, what + " failed" + on_ + " (" + cl_error_name(status) + ")",
                    run);
    }
    return false;
  }

  void unmap(std::vector<MappedRegion>& regions) { unmap_regions(api_, queue_.queue(), regions); }

  /// Every resident buffer gets the host bytes, then zeros to its size.
  bool upload() {
    std::vector<MappedRegion> regions;
    for (const BatchBinding& b : bindings_) regions.push_back({b.resident, b.size, nullptr});
    if (!map(regions, CL_MAP_WRITE_INVALIDATE_REGION, "uploading the inputs",
             Clock::now() + r_.fence_timeout, 0)) {
      return false;
    }
    for (size_t i = 0; i < regions.size(); ++i) {
      const ByteBuffer& bytes = *bindings_[i].bytes;
      std::copy(bytes.begin(), bytes.end(), regions[i].host);
      std::fill(regions[i].host + bytes.size(), regions[i].host + regions[i].bytes, uint8_t{0});
    }
    unmap(regions);
    return true;
  }

  /// The arguments no run changes: element counts and resident buffers.
  bool set_fixed_arguments() {
    const cl_kernel kernel = r_.kernel.kernel;
    std::vector<uint32_t> counts;
    for (const BatchBinding& b : bindings_) {
      counts.push_back(static_cast<uint32_t>(host_element_count(b.decl->element, b.bytes->size())));
    }
    for (size_t i = 0; i < bindings_.size(); ++i) {
      const BatchBinding& b = bindings_[i];
      // The runtime's seeded bugs apply to batches as to single dispatches.
      const cl_uint count = count_argument(counts.data(), i);
      cl_int error = api_.clSetKernelArg(kernel, r_.iface.count_arg(i), sizeof count, &count);
      if (error == CL_SUCCESS && !b.output) {
        error = api_.clSetKernelArg(kernel, r_.iface.pointer_arg(i), sizeof(cl_mem), &b.resident);
      }
      if (error != CL_SUCCESS) return fail_call(error, "clSetKernelArg");
    }
    return true;
  }

  /// Enqueues run `run`: fresh outputs, the kernel, its control word and
  /// its comparison with run 0.
  bool enqueue_run(uint32_t run) {
    const uint32_t slot = slot_of(run);
    const cl_command_queue q = queue_.queue();
    const cl_kernel kernel = r_.kernel.kernel;
    for (size_t i = 0; i < bindings_.size(); ++i) {
      const BatchBinding& b = bindings_[i];
      if (!b.output) continue;
      cl_int error =
          api_.clEnqueueCopyBuffer(q, b.resident, b.slots[slot], 0, 0, b.size, 0, nullptr, nullptr);
      if (error == CL_SUCCESS) {
        error =
            api_.clSetKernelArg(kernel, r_.iface.pointer_arg(i), sizeof(cl_mem), &b.slots[slot]);
      }
      if (error != CL_SUCCESS) return fail_call(error, "fresh outputs for a run", run);
    }
    if (!controls_.empty()) {
      const cl_uint zero = 0;
      cl_int error = api_.clEnqueueFillBuffer(q, controls_[slot], &zero, sizeof zero, 0,
                                              kControlBytes, 0, nullptr, nullptr);
      if (error == CL_SUCCESS) {
        error =
            api_.clSetKernelArg(kernel, r_.iface.control_arg(), sizeof(cl_mem), &controls_[slot]);
      }
      if (error != CL_SUCCESS) return fail_call(error, "a run's control word", run);
    }
    size_t global[3];
    size_t local[3];
    for (size_t axis = 0; axis < 3; ++axis) {
      local[axis] = r_.iface.workgroup_size[axis];
      global[axis] = size_t{r_.grid.workgroups[axis]} * local[axis];
    }
    const std::array<size_t, 3> seeded =
        global_size({global[0], global[1], global[2]}, {local[0], local[1], local[2]});
    std::copy(seeded.begin(), seeded.end(), global);
    if (cl_int error = api_.clEnqueueNDRangeKernel(q, kernel, 3, nullptr, global, local, 0, nullptr,
                                                   timed_kernel());
        error != CL_SUCCESS) {
      return fail_call(error, "clEnqueueNDRangeKernel", run);
    }
    if (r_.perturbed_run == run) perturb(slot);
    if (!controls_.empty()) {
      if (cl_int error = api_.clEnqueueCopyBuffer(q, controls_[slot], control_words_, 0,
                                                  4 * size_t{slot}, 4, 0, nullptr, nullptr);
          error != CL_SUCCESS) {
        return fail_call(error, "reading a run's control word", run);
      }
    }
    return run == 0 || compare(run, slot);
  }

  /// Test only: word 0 of the first output of `slot` overwritten.
  void perturb(uint32_t slot) {
    for (const BatchBinding& b : bindings_) {
      if (!b.output || b.bytes->size() < 4) continue;
      const cl_uint pattern = 0x5A5A5A5A;
      api_.clEnqueueFillBuffer(queue_.queue(), b.slots[slot], &pattern, sizeof pattern, 0, 4, 0,
                               nullptr, nullptr);
      return;
    }
  }

  /// Every judged output of `slot` against slot 0's, setting flag `slot` on
  /// a difference.
  bool compare(uint32_t run, uint32_t slot) {
    const cl_kernel kernel = r_.compare.kernel;
    for (const BatchBinding& b : bindings_) {
      if (!b.output || b.scratch || b.bytes->empty()) continue;
      const cl_uint words = static_cast<cl_uint>((b.bytes->size() + 3) / 4);
      const cl_uint mask = last_word_mask(b.bytes->size());
      const cl_uint flag = slot;
      cl_int error = api_.clSetKernelArg(kernel, 0, sizeof(cl_mem), &b.slots[0]);
      if (error == CL_SUCCESS)
        error = api_.clSetKernelArg(kernel, 1, sizeof(cl_mem), &b.slots[slot]);
      if (error == CL_SUCCESS) error = api_.clSetKernelArg(kernel, 2, sizeof(cl_mem), &flags_);
      if (error == CL_SUCCESS) error = api_.clSetKernelArg(kernel, 3, sizeof words, &words);
      if (error == CL_SUCCESS) error = api_.clSetKernelArg(kernel, 4, sizeof mask, &mask);
      if (error == CL_SUCCESS) error = api_.clSetKernelArg(kernel, 5, sizeof flag, &flag);
      const size_t groups =
          std::min<size_t>((size_t{words} + kCompareGroup - 1) / kCompareGroup, kMaxCompareGroups);
      const size_t global = groups * kCompareGroup;
      const size_t local = kCompareGroup;
      if (error == CL_SUCCESS) {
        error = api_.clEnqueueNDRangeKernel(queue_.queue(), kernel, 1, nullptr, &global, &local, 0,
                                            nullptr, timed_kernel());
      }
      if (error != CL_SUCCESS) return fail_call(error, "comparing a run with run 0", run);
    }
    return true;
  }

  /// Where the next kernel enqueue puts its event, kept until the
  /// submission finished so that its device time can be read.
  cl_event* timed_kernel() {
    kernel_events_.push_back(nullptr);
    return &kernel_events_.back();
  }

  /// Adds the finished submission's kernel times (runs and comparisons) to
  /// the batch's device time, and releases their events.
  void add_kernel_times(bool first_submission) {
    std::optional<double> sum = 0.0;
    for (cl_event event : kernel_events_) {
      if (event == nullptr) continue;
      sum = add_device_ms(sum, profiled_ms(api_, event), false);
    }
    release_kernel_events();
    outcome_.timing.device_ms = add_device_ms(outcome_.timing.device_ms, sum, first_submission);
  }

  void release_kernel_events() {
    for (cl_event event : kernel_events_) {
      if (event != nullptr) api_.clReleaseEvent(event);
    }
    kernel_events_.clear();
  }

  /// Enqueues runs [first, end), waits once, and judges them.
  bool run_chunk(uint32_t first, uint32_t end) {
    const cl_uint zero = 0;
    if (cl_int error =
            api_.clEnqueueFillBuffer(queue_.queue(), flags_, &zero, sizeof zero, 0,
                                     std::max<size_t>(16, 4 * size_t{slots_}), 0, nullptr, nullptr);
        error != CL_SUCCESS) {
      return fail_call(error, "clearing the comparison flags", first);
    }
    for (uint32_t run = first; run < end; ++run) {
      if (!enqueue_run(run)) return false;
    }
    std::vector<MappedRegion> words = {{flags_, 4 * size_t{slots_}, nullptr}};
    if (control_words_ != nullptr) words.push_back({control_words_, 4 * size_t{slots_}, nullptr});
    const auto deadline = Clock::now() + r_.fence_timeout * (end - first);
    if (!map(words, CL_MAP_READ, "the runs", deadline, first)) return false;
    add_kernel_times(first == 0);
    std::vector<uint32_t> flags(slots_);
    std::vector<uint32_t> controls(slots_);
    std::memcpy(flags.data(), words[0].host, 4 * size_t{slots_});
    if (control_words_ != nullptr) std::memcpy(controls.data(), words[1].host, 4 * size_t{slots_});
    unmap(words);
    ++outcome_.submissions;
    for (uint32_t run = first; run < end; ++run) {
      if (controls[slot_of(run)] != 0) {
        return fail(Status::Timeout, loop_budget_message(r_.iface.loop_iteration_budget), run);
      }
    }
    outcome_.dispatches += end - first;
    if (first == 0) {
      BufferSet outputs;
      if (!read_slot(0, outputs, 0, /*judged_only=*/false)) return false;
      record_run_outputs(outcome_, 0, std::move(outputs), r_.options);
    }
    for (uint32_t run = std::max<uint32_t>(first, 1); run < end; ++run) {
      if (flags[slot_of(run)] == 0) continue;
      if (outcome_.differing.size() >= r_.options.reported_differing) {
        ++outcome_.differing_runs;
        continue;
      }
      BufferSet outputs;
      if (!read_slot(slot_of(run), outputs, run, /*judged_only=*/true)) return false;
      record_run_outputs(outcome_, run, std::move(outputs), r_.options);
    }
    return true;
  }

  /// The read_write buffers of `slot` (`judged_only`: but scratch), exactly
  /// the host's byte lengths.
  bool read_slot(uint32_t slot, BufferSet& outputs, uint32_t run, bool judged_only) {
    std::vector<MappedRegion> regions;
    std::vector<const BatchBinding*> mapped;
    for (const BatchBinding& b : bindings_) {
      if (!b.output || (judged_only && b.scratch)) continue;
      if (b.bytes->empty()) {
        outputs[b.decl->name] = {};
        continue;
      }
      regions.push_back({b.slots[slot], b.bytes->size(), nullptr});
      mapped.push_back(&b);
    }
    if (!map(regions, CL_MAP_READ, "reading the outputs", Clock::now() + r_.fence_timeout, run)) {
      return false;
    }
    for (size_t i = 0; i < regions.size(); ++i) {
      outputs[mapped[i]->decl->name] =
          ByteBuffer(regions[i].host, regions[i].host + regions[i].bytes);
    }
    unmap(regions);
    return true;
  }

  const OpenClApi& api_;
  ClQueue& queue_;
  DispatchBuffers buffers_;
  const std::string on_;
  const BatchRequest& r_;
  BatchOutcome outcome_;
  uint32_t runs_ = 1;
  uint32_t chunk_ = 1;
  uint32_t slots_ = 1;
  std::vector<BatchBinding> bindings_;
  std::vector<cl_mem> controls_;
  cl_mem control_words_ = nullptr;
  cl_mem flags_ = nullptr;
  /// Events of the kernels enqueued in the submission under way.
  std::vector<cl_event> kernel_events_;
};

}  // namespace

BatchOutcome run_batch(const OpenClApi& api, ClQueue& queue, BufferPool& pool,
                       const std::string& device_name, const BatchRequest& request) {
  return Batch(api, queue, pool, device_name, request).run();
}

}  // namespace vyre::opencl
