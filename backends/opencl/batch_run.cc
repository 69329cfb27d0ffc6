// Enqueuing, waiting for and judging the runs of one batch.
#include "backends/opencl/batch_run.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "backends/batch_failure.h"
#include "backends/opencl/batch_areas.h"
#include "backends/opencl/batch_layout.h"
#include "backends/opencl/compare_kernel.h"
#include "backends/opencl/dispatch_checks.h"
#include "backends/opencl/dispatch_run.h"
#include "backends/opencl/event_wait.h"
#include "backends/opencl/mapped_regions.h"
#include "backends/opencl/runtime_mutants.h"
#include "backends/opencl/unpacked_batch.h"

namespace vyre::opencl {

namespace {

using Clock = std::chrono::steady_clock;

/// A read-only or uniform buffer: one resident copy every run reads.
struct ResidentInput {
  size_t arg = 0;  ///< Index among the kernel's bound buffers.
  const ByteBuffer* bytes = nullptr;
  uint64_t size = 0;  ///< Device bytes: whole words, at least 16.
  cl_mem buffer = nullptr;
};

/// Sub-buffers of a batch's buffers, released with it unless its queue was
/// abandoned (hung work may still use them, as DispatchBuffers keeps its
/// buffers).
class SubBuffers {
 public:
  SubBuffers(const OpenClApi& api, const ClQueue& queue) : api_(api), queue_(queue) {}
  ~SubBuffers() {
    if (queue_.abandoned()) return;
    for (cl_mem sub : held_) api_.clReleaseMemObject(sub);
  }
  SubBuffers(const SubBuffers&) = delete;
  SubBuffers& operator=(const SubBuffers&) = delete;

  /// The `bytes` of `parent` from `offset`; nullptr with `error` set when
  /// the driver refuses.
  cl_mem make(cl_mem parent, uint64_t offset, uint64_t bytes, cl_int& error) {
    const cl_buffer_region region{offset, bytes};
    cl_mem sub = api_.clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
                                        &region, &error);
    if (sub != nullptr) held_.push_back(sub);
    return sub;
  }

 private:
  const OpenClApi& api_;
  const ClQueue& queue_;
  std::vector<cl_mem> held_;
};

/// The batch over one or more areas (the caller's queue, then its streams).
/// Run r runs in area r % areas (there are no more areas than a submission
/// has runs, so runs 0 .. areas - 1 are each area's first, and each
/// submission's first `areas` runs each area's first of the submission),
/// starting from the pristine bytes: one copy before the area's first run,
/// then the previous run's comparison, which
/// saves its judged outputs (run 0: every output) into its slot, compares
/// them with run 0's and writes the pristine bytes back, so that a run is
/// two enqueues and one kernel argument. The other areas' first command of
/// a submission waits for the flags to be cleared in the caller's queue,
/// and so for everything before it there, the upload included; their first
/// comparison of the first submission waits for run 0's saved outputs. The
/// caller's queue waits for all areas before the flags are read.
class Batch {
 public:
  Batch(const OpenClApi& api, ClQueue& queue, BufferPool& pool, const std::string& device_name,
        const BatchRequest& request)
      : api_(api),
        queue_(queue),
        buffers_(pool, queue),
        subs_(api, queue),
        on_(" on " + device_name),
        r_(request) {}
  /// A failed submission's events are released with it, unless its queue
  /// was abandoned (hung work keeps them).
  ~Batch() {
    if (!queue_.abandoned()) release_kernel_events();
  }
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;

  /// Lays the outputs out; false (with the outcome failed) when the device
  /// cannot be asked its limits.
  bool plan() {
    runs_ = std::max<uint32_t>(r_.options.runs, 1);
    cl_uint align_bits = 0;
    cl_ulong max_alloc = 0;
    if (cl_int error = device_info(CL_DEVICE_MEM_BASE_ADDR_ALIGN, align_bits);
        error != CL_SUCCESS) {
      return fail_call(error, "clGetDeviceInfo(CL_DEVICE_MEM_BASE_ADDR_ALIGN)");
    }
    if (cl_int error = device_info(CL_DEVICE_MAX_MEM_ALLOC_SIZE, max_alloc); error != CL_SUCCESS) {
      return fail_call(error, "clGetDeviceInfo(CL_DEVICE_MAX_MEM_ALLOC_SIZE)");
    }
    max_alloc_ = max_alloc;
    cl_device_type type = 0;
    if (cl_int error = device_info(CL_DEVICE_TYPE, type); error != CL_SUCCESS) {
      return fail_call(error, "clGetDeviceInfo(CL_DEVICE_TYPE)");
    }
    cpu_ = (type & CL_DEVICE_TYPE_CPU) != 0;
    std::vector<PackedOutput> outputs;
    for (size_t i = 0; i < r_.iface.buffers.size(); ++i) {
      const KernelBuffer& b = r_.iface.buffers[i];
      const ByteBuffer& bytes = r_.inputs.at(b.name);
      if (b.access != BufferAccess::ReadWrite) {
        inputs_.push_back({i, &bytes, device_buffer_bytes(bytes.size()), nullptr});
        continue;
      }
      output_args_.push_back(i);
      outputs.push_back(
          {0, device_buffer_bytes(bytes.size()), bytes.size(), is_scratch(r_.options, b.name)});
    }
    layout_ = pack_run(std::move(outputs), r_.iface.has_control_buffer, align_bits / 8);
    table_ = compare_table(layout_);
    std::array<size_t, 3> global{};
    for (size_t axis = 0; axis < 3; ++axis) {
      local_[axis] = r_.iface.workgroup_size[axis];
      global[axis] = size_t{r_.grid.workgroups[axis]} * local_[axis];
    }
    global_ = global_size(global, local_);  // The runtime's seeded bugs apply here too.
    return true;
  }

  /// Whether a run's packed outputs fit one buffer of the device.
  bool packs() const { return layout_.bytes <= max_alloc_; }

  BatchOutcome run() {
    plan_submissions();
    if (!allocate() || !upload() || !set_fixed_arguments()) return finish();
    for (uint32_t first = 0; first < runs_; first += chunk_) {
      if (!run_chunk(first, std::min(runs_, first + chunk_))) return finish();
    }
    outcome_.status = Status::Ok;
    return finish();
  }

  /// The failed outcome of plan().
  BatchOutcome failed() { return finish(); }

 private:
  template <typename T>
  cl_int device_info(cl_device_info what, T& value) const {
    return api_.clGetDeviceInfo(queue_.device(), what, sizeof value, &value, nullptr);
  }

  bool fail(Status status, std::string message, uint32_t run = 0) {
    return record_batch_failure(outcome_, status, std::move(message), run);
  }

  bool fail_call(cl_int error, const std::string& what, uint32_t run = 0) {
    return fail(resource_status(error), what + on_ + ": " + cl_error_name(error), run);
  }

  BatchOutcome finish() {
    if (outcome_.status != Status::Ok) drain();
    return finished_batch(std::move(outcome_));
  }

  /// After a failure, waits for what the other areas still have enqueued,
  /// since their buffers go back to the caller's pool, which only orders
  /// later work after the caller's queue; abandons every queue when that
  /// does not end within a fence timeout a run of a submission. Not after a
  /// hang (every queue is abandoned already) or a device loss (the lane and
  /// its pool are let go, and the context replaced).
  void drain() {
    if (areas_.size() < 2 || queue_.abandoned() || outcome_.status == Status::DeviceLost) return;
    HeldEvent joined{api_};
    if (join_areas(api_, areas_, &joined.event) != CL_SUCCESS) {
      abandon_all();
      return;
    }
    api_.clFlush(queue_.queue());
    cl_int status = CL_COMPLETE;
    const auto deadline = Clock::now() + r_.fence_timeout * chunk_;
    if (wait_for(api_, joined.event, deadline, status, queue_.spin_wait()) == Wait::TimedOut) {
      abandon_all();
    }
  }

  /// A hang: no queue of the batch may be released, since work on any of
  /// them may still use its buffers.
  void abandon_all() {
    queue_.abandon();
    for (Area& area : areas_) area.queue->abandon();
  }

  /// Run 0 keeps slot 0; the runs of a submission take distinct slots
  /// among 1..chunk, reused by the next submission.
  uint32_t slot_of(uint32_t run) const { return run == 0 ? 0 : 1 + run % chunk_; }

  /// Runs per submission: at least the submissions asked for, more when the
  /// saved slots would pass their budget or one buffer, at most
  /// kMaxRunsPerSubmission runs each.
  void plan_submissions() {
    const uint32_t submissions = std::clamp<uint32_t>(r_.options.submissions, 1, runs_);
    uint64_t chunk = (runs_ + submissions - 1) / submissions;
    chunk = std::min<uint64_t>(chunk, r_.slot_budget_bytes / layout_.bytes);
    chunk = std::min<uint64_t>(chunk, max_alloc_ / layout_.bytes);
    chunk_ = static_cast<uint32_t>(std::clamp<uint64_t>(chunk, 1, kMaxRunsPerSubmission));
    slots_ = runs_ == 1 ? 1 : chunk_ + 1;
    // An area per stream while their packed buffers stay within the slots'
    // budget, and no more than a submission has runs.
    uint64_t areas = 1 + r_.streams.size();
    areas = std::min<uint64_t>(areas, chunk_);
    areas = std::min<uint64_t>(areas, std::max<uint64_t>(r_.slot_budget_bytes / layout_.bytes, 1));
    areas_.resize(areas);
    for (size_t a = 0; a < areas; ++a) {
      areas_[a].queue = a == 0 ? &queue_ : &r_.streams[a - 1].queue;
      areas_[a].kernel = a == 0 ? &r_.kernel : &r_.streams[a - 1].kernel;
      areas_[a].compare = a == 0 ? &r_.compare : &r_.streams[a - 1].compare;
    }
  }

  Area& area_of(uint32_t run) { return areas_[run % areas_.size()]; }

  bool take(uint64_t bytes, cl_mem& into) {
    cl_int error = CL_SUCCESS;
    into = buffers_.take(std::max<uint64_t>(bytes, 16), error);
    return into != nullptr || fail_call(error, "cannot allocate a buffer");
  }

  /// The buffers, and the sub-buffers of each area's `work` its kernel binds.
  bool allocate() {
    for (ResidentInput& input : inputs_) {
      if (!take(input.size, input.buffer)) return false;
    }
    const uint64_t status_words = (r_.iface.has_control_buffer ? 2 : 1) * uint64_t{slots_};
    if (!take(layout_.bytes, pristine_) || !take(layout_.bytes, first_) ||
        !take((slots_ - 1) * layout_.bytes, others_) || !take(8 * table_.size(), table_buffer_) ||
        !take(4 * status_words, status_)) {
      return false;
    }
    for (Area& area : areas_) {
      if (!take(layout_.bytes, area.work)) return false;
      for (const PackedOutput& output : layout_.outputs) {
        if (!sub_buffer(area, output.offset, output.device_bytes)) return false;
      }
      if (layout_.control_offset && !sub_buffer(area, *layout_.control_offset, kControlBytes)) {
        return false;
      }
    }
    return true;
  }

  bool sub_buffer(Area& area, uint64_t offset, uint64_t bytes) {
    cl_int error = CL_SUCCESS;
    const cl_mem sub = subs_.make(area.work, offset, bytes, error);
    if (sub == nullptr) return fail_call(error, "clCreateSubBuffer");
    area.subs.push_back(sub);
    return true;
  }

  /// Maps every region (non-blocking) and waits for the last map, and with
  /// it (the queue is in order) everything enqueued before, until `deadline`
  /// (which includes `allowance` for a first run).
  bool map(std::vector<MappedRegion>& regions, cl_map_flags flags, const std::string& what,
           Clock::time_point deadline, uint32_t run,
           std::chrono::milliseconds allowance = std::chrono::milliseconds{0}) {
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
        abandon_all();
        return fail(Status::Timeout,
                    what + " did not finish within " + std::to_string(r_.fence_timeout.count()) +
                        " ms a run" + first_run_note(allowance) + on_ +
                        "; its queue is abandoned and a new one will be made",
                    run);
      case Wait::Failed:
        unmap(regions);
        return fail(Status::DeviceLost, what + " failed" + on_ + " (" + cl_error_name(status) + ")",
                    run);
    }
    return false;
  }

  void unmap(std::vector<MappedRegion>& regions) { unmap_regions(api_, queue_.queue(), regions); }

  /// Every resident input gets the host bytes, then zeros to its size; the
  /// pristine buffer every output's host bytes at its offset and zeros
  /// elsewhere (the control word included); the table its words.
  bool upload() {
    std::vector<MappedRegion> regions;
    for (const ResidentInput& input : inputs_) regions.push_back({input.buffer, input.size});
    regions.push_back({pristine_, layout_.bytes});
    if (!table_.empty()) regions.push_back({table_buffer_, 8 * table_.size()});
    if (!map(regions, CL_MAP_WRITE_INVALIDATE_REGION, "uploading the inputs",
             Clock::now() + r_.fence_timeout, 0)) {
      return false;
    }
    for (size_t i = 0; i < inputs_.size(); ++i) {
      const ByteBuffer& bytes = *inputs_[i].bytes;
      std::copy(bytes.begin(), bytes.end(), regions[i].host);
      std::fill(regions[i].host + bytes.size(), regions[i].host + regions[i].bytes, uint8_t{0});
    }
    uint8_t* pristine = regions[inputs_.size()].host;
    std::fill(pristine, pristine + layout_.bytes, uint8_t{0});
    for (size_t i = 0; i < output_args_.size(); ++i) {
      const ByteBuffer& bytes = r_.inputs.at(r_.iface.buffers[output_args_[i]].name);
      std::copy(bytes.begin(), bytes.end(), pristine + layout_.outputs[i].offset);
    }
    if (!table_.empty()) std::memcpy(regions.back().host, table_.data(), 8 * table_.size());
    unmap(regions);
    return true;
  }

  /// The arguments no run changes: the program's every argument and the
  /// compare kernel's all but the slot.
  bool set_fixed_arguments() {
    std::vector<uint32_t> counts;
    for (const KernelBuffer& b : r_.iface.buffers) {
      counts.push_back(
          static_cast<uint32_t>(host_element_count(b.element, r_.inputs.at(b.name).size())));
    }
    cl_int error = CL_SUCCESS;
    const auto set = [&](cl_kernel k, cl_uint index, size_t size, const void* value) {
      if (error == CL_SUCCESS) error = api_.clSetKernelArg(k, index, size, value);
    };
    for (const Area& area : areas_) {
      const cl_kernel kernel = area.kernel->kernel;
      area.kernel->arguments.forget();  // Set here, not through it.
      for (size_t i = 0; i < counts.size(); ++i) {
        // The runtime's seeded bugs apply to batches as to single dispatches.
        const cl_uint count = count_argument(counts.data(), i);
        set(kernel, r_.iface.count_arg(i), sizeof count, &count);
      }
      for (const ResidentInput& input : inputs_) {
        set(kernel, r_.iface.pointer_arg(input.arg), sizeof(cl_mem), &input.buffer);
      }
      for (size_t i = 0; i < output_args_.size(); ++i) {
        set(kernel, r_.iface.pointer_arg(output_args_[i]), sizeof(cl_mem), &area.subs[i]);
      }
      if (layout_.control_offset) {
        set(kernel, r_.iface.control_arg(), sizeof(cl_mem), &area.subs.back());
      }
      if (error == CL_SUCCESS) {
        // A CPU device walks its words in blocks: grid-strided, the 128 MiB
        // saturation case's comparison took 50 times as long on PoCL.
        const CompareArguments arguments{area.work,
                                         pristine_,
                                         first_,
                                         others_,
                                         table_buffer_,
                                         static_cast<cl_uint>(table_.size() / kCompareEntryWords),
                                         layout_.bytes / 4,
                                         status_,
                                         slots_,
                                         layout_.control_offset ? 1u : 0u,
                                         layout_.control_offset.value_or(0) / 4,
                                         cpu_ ? 1u : 0u};
        error = set_compare_arguments(api_, area.compare->kernel, arguments);
      }
    }
    return error == CL_SUCCESS || fail_call(error, "clSetKernelArg");
  }

  /// Enqueues run `run` in its area: before the area's first run, fresh
  /// outputs; the kernel; and the comparison that saves its outputs and
  /// control word and makes them fresh again (after `compare_waits`). The
  /// first command enqueued waits for `first_waits`.
  bool enqueue_run(uint32_t run, const std::vector<cl_event>& first_waits,
                   const std::vector<cl_event>& compare_waits) {
    Area& area = area_of(run);
    const cl_command_queue q = area.queue->queue();
    const std::vector<cl_event> none;
    const std::vector<cl_event>* kernel_waits = &first_waits;
    if (run < areas_.size()) {  // The area's first run: its outputs made fresh.
      if (cl_int error =
              api_.clEnqueueCopyBuffer(q, pristine_, area.work, 0, 0, layout_.bytes,
                                       static_cast<cl_uint>(first_waits.size()),
                                       first_waits.empty() ? nullptr : first_waits.data(), nullptr);
          error != CL_SUCCESS) {
        return fail_call(error, "fresh outputs for a run", run);
      }
      kernel_waits = &none;
    }
    if (cl_int error = api_.clEnqueueNDRangeKernel(
            q, area.kernel->kernel, 3, nullptr, global_.data(), local_.data(),
            static_cast<cl_uint>(kernel_waits->size()),
            kernel_waits->empty() ? nullptr : kernel_waits->data(), timed_kernel());
        error != CL_SUCCESS) {
      return fail_call(error, "clEnqueueNDRangeKernel", run);
    }
    if (r_.perturbed_run == run) perturb(area);
    return compare(run, area, compare_waits);
  }

  /// Test only: word 0 of the first output with bytes overwritten.
  void perturb(const Area& area) {
    for (const PackedOutput& output : layout_.outputs) {
      if (output.host_bytes < 4) continue;
      const cl_uint pattern = 0x5A5A5A5A;
      api_.clEnqueueFillBuffer(area.queue->queue(), area.work, &pattern, sizeof pattern,
                               output.offset, 4, 0, nullptr, nullptr);
      return;
    }
  }

  /// Saves the run's outputs into its slot, compares them with run 0's
  /// (setting the slot's flag on a difference) and restores the pristine
  /// outputs for the area's next run.
  bool compare(uint32_t run, const Area& area, const std::vector<cl_event>& waits) {
    const size_t global = compare_work_items(compared_words(layout_));
    const size_t local = kCompareGroup;
    cl_int error = set_compare_slot(api_, area.compare->kernel, slot_of(run));
    if (error == CL_SUCCESS) {
      error = api_.clEnqueueNDRangeKernel(area.queue->queue(), area.compare->kernel, 1, nullptr,
                                          &global, &local, static_cast<cl_uint>(waits.size()),
                                          waits.empty() ? nullptr : waits.data(), timed_kernel());
    }
    return error == CL_SUCCESS || fail_call(error, "comparing a run with run 0", run);
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
    const std::optional<double> busy = busy_ms(api_, kernel_events_);
    release_kernel_events();
    outcome_.timing.device_ms = add_device_ms(outcome_.timing.device_ms, busy, first_submission);
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
    const bool streams = areas_.size() > 1;
    HeldEvent flags_cleared{api_};
    if (cl_int error = api_.clEnqueueFillBuffer(queue_.queue(), status_, &zero, sizeof zero, 0,
                                                4 * size_t{slots_}, 0, nullptr,
                                                streams ? &flags_cleared.event : nullptr);
        error != CL_SUCCESS) {
      return fail_call(error, "clearing the comparison flags", first);
    }
    // What another area's first command of the submission waits for: the
    // cleared flags (in the caller's queue after the upload); its first
    // comparison, in the first submission: run 0's saved outputs (its
    // comparison, the last kernel event once run 0 is enqueued).
    const std::vector<cl_event> cleared{flags_cleared.event};
    std::vector<cl_event> saved;
    const std::vector<cl_event> none;
    for (uint32_t run = first; run < end; ++run) {
      const bool first_here = run - first < areas_.size() && run % areas_.size() != 0;
      if (!enqueue_run(run, first_here ? cleared : none, first_here ? saved : none)) return false;
      if (run == 0 && streams) saved.push_back(kernel_events_.back());
    }
    if (streams) {
      if (cl_int error = join_areas(api_, areas_, nullptr); error != CL_SUCCESS) {
        return fail_call(error, "clEnqueueBarrierWithWaitList", first);
      }
    }
    const size_t status_words = (layout_.control_offset ? 2 : 1) * size_t{slots_};
    std::vector<MappedRegion> status = {{status_, 4 * status_words}};
    // A first submission may wait longer while a device compiles kernels
    // that never ran at their first enqueue (ClQueue::first_run_allowance).
    const std::chrono::milliseconds allowance =
        first == 0 ? first_run_allowance(areas_, r_.fence_timeout) : std::chrono::milliseconds{0};
    const auto deadline = Clock::now() + r_.fence_timeout * (end - first) + allowance;
    if (!map(status, CL_MAP_READ, "the runs", deadline, first, allowance)) return false;
    mark_ran(areas_);
    add_kernel_times(first == 0);
    std::vector<uint32_t> words(status_words);
    std::memcpy(words.data(), status[0].host, 4 * status_words);
    unmap(status);
    ++outcome_.submissions;
    report_submission(r_.options);
    if (layout_.control_offset) {
      for (uint32_t run = first; run < end; ++run) {
        if (words[slots_ + slot_of(run)] != 0) {
          return fail(Status::Timeout, loop_budget_message(r_.iface.loop_iteration_budget), run);
        }
      }
    }
    outcome_.dispatches += end - first;
    if (first == 0) {
      BufferSet outputs;
      if (!read_slot(0, outputs, 0, /*judged_only=*/false)) return false;
      record_run_outputs(outcome_, 0, std::move(outputs), r_.options);
    }
    for (uint32_t run = std::max<uint32_t>(first, 1); run < end; ++run) {
      if (words[slot_of(run)] == 0) continue;
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

  /// The outputs saved in `slot` (`judged_only`: but scratch, which only
  /// slot 0 saves), exactly the host's byte lengths.
  bool read_slot(uint32_t slot, BufferSet& outputs, uint32_t run, bool judged_only) {
    const cl_mem saved = slot == 0 ? first_ : others_;
    const uint64_t base = slot == 0 ? 0 : (slot - 1) * layout_.bytes;
    std::vector<MappedRegion> regions;
    std::vector<const std::string*> names;
    for (size_t i = 0; i < layout_.outputs.size(); ++i) {
      const PackedOutput& output = layout_.outputs[i];
      const std::string& name = r_.iface.buffers[output_args_[i]].name;
      if (judged_only && output.scratch) continue;
      if (output.host_bytes == 0) {
        outputs[name] = {};
        continue;
      }
      regions.push_back({saved, output.host_bytes, nullptr, base + output.offset});
      names.push_back(&name);
    }
    if (!map(regions, CL_MAP_READ, "reading the outputs", Clock::now() + r_.fence_timeout, run)) {
      return false;
    }
    for (size_t i = 0; i < regions.size(); ++i) {
      outputs[*names[i]] = ByteBuffer(regions[i].host, regions[i].host + regions[i].bytes);
    }
    unmap(regions);
    return true;
  }

  const OpenClApi& api_;
  ClQueue& queue_;
  DispatchBuffers buffers_;
  // After buffers_: the sub-buffers go before the buffers they are part of.
  SubBuffers subs_;
  const std::string on_;
  const BatchRequest& r_;
  BatchOutcome outcome_;
  uint32_t runs_ = 1;
  uint32_t chunk_ = 1;
  uint32_t slots_ = 1;
  uint64_t max_alloc_ = 0;
  /// Whether the device is a CPU (how the compare kernel splits its words).
  bool cpu_ = false;
  std::vector<ResidentInput> inputs_;
  /// Index among the bound buffers of each packed output, in layout order.
  std::vector<size_t> output_args_;
  PackedRun layout_;
  std::vector<uint64_t> table_;
  /// The outputs' initial bytes (and a zero control word), packed.
  cl_mem pristine_ = nullptr;
  /// Where the runs run: the caller's queue, then the streams used.
  std::vector<Area> areas_;
  /// Every run's NDRange: work-items in all and per workgroup.
  std::array<size_t, 3> global_{};
  std::array<size_t, 3> local_{};
  /// Run 0's outputs, and the other slots' judged outputs, `layout_.bytes` a slot.
  cl_mem first_ = nullptr;
  cl_mem others_ = nullptr;
  cl_mem table_buffer_ = nullptr;
  /// A flag word per slot, then (with a control word) a control word per slot.
  cl_mem status_ = nullptr;
  /// Events of the kernels enqueued in the submission under way.
  std::vector<cl_event> kernel_events_;
};

}  // namespace

BatchOutcome run_batch(const OpenClApi& api, ClQueue& queue, BufferPool& pool,
                       const std::string& device_name, const BatchRequest& request) {
  Batch batch(api, queue, pool, device_name, request);
  if (!batch.plan()) return batch.failed();
  if (batch.packs()) return batch.run();
  return run_as_dispatches(api, queue, pool, device_name, request);
}

}  // namespace vyre::opencl
