// The level loop with the state resident on the device.
#include "backends/opencl/level_loop_run.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <vector>

#include "backends/opencl/dispatch_checks.h"
#include "backends/opencl/event_wait.h"
#include "backends/opencl/mapped_regions.h"
#include "backends/opencl/runtime_mutants.h"

namespace vyre::opencl {
namespace {

using Clock = std::chrono::steady_clock;

/// Index of buffer `name` in `iface`, or none.
std::optional<size_t> buffer_index(const KernelInterface& iface, const std::string& name) {
  for (size_t i = 0; i < iface.buffers.size(); ++i) {
    if (iface.buffers[i].name == name) return i;
  }
  return std::nullopt;
}

/// One loop's work on the queue. The levels' `changed` words, their level
/// parameters and the control word live in one small *table* buffer, each in
/// a sub-buffer of its own (at the device's base address alignment), so
/// that a level is its arguments, a fill of `next` and the kernel, and a
/// group of levels is one map of the table: its words read, the next
/// group's written. `current` and `next` trade places by their arguments.
class LoopRun {
 public:
  LoopRun(const OpenClApi& api, ClQueue& queue, BufferPool& pool, const std::string& device_name,
          const LevelLoopRequest& r)
      : api_(api), queue_(queue), buffers_(pool, queue), on_(" on " + device_name), r_(r) {}

  ~LoopRun() {
    // The table's sub-buffers go: a later object may take one's handle.
    r_.kernel.arguments.forget();
    if (queue_.abandoned()) return;
    unmap(table_region_);
    for (cl_mem sub : subs_) {
      if (sub != nullptr) api_.clReleaseMemObject(sub);
    }
  }

  LevelLoopOutcome operator()() {
    if (!start()) return std::move(failure_);
    uint32_t group = 2;
    bool done = false;
    while (!done && levels_run_ < r_.loop.max_levels) {
      const uint32_t n = std::min(group, r_.loop.max_levels - levels_run_);
      const Clock::time_point start = Clock::now();
      if (!run_group(n, done)) return std::move(failure_);
      group = next_level_group(n, Clock::now() - start, r_.timeout);
    }
    if (!read_back()) return std::move(failure_);
    out_.status = Status::Ok;
    return std::move(out_);
  }

 private:
  /// Records a failed call; always false.
  bool fail(cl_int error, const std::string& what) {
    failure_.status = resource_status(error);
    failure_.message = what + on_ + ": " + cl_error_name(error);
    return false;
  }

  /// Waits for `event` at most `levels` times the timeout (once for no
  /// level); a hang abandons the queue.
  bool wait(cl_event event, const std::string& what, uint32_t levels) {
    api_.clFlush(queue_.queue());
    const std::chrono::milliseconds bound = r_.timeout * std::max<uint32_t>(levels, 1);
    cl_int status = CL_COMPLETE;
    const Wait ended = wait_for(api_, event, Clock::now() + bound, status, queue_.spin_wait());
    if (ended == Wait::Complete) return true;
    if (ended == Wait::TimedOut) {
      queue_.abandon();
      failure_.status = Status::Timeout;
      failure_.message = what + " did not finish within " + std::to_string(bound.count()) + " ms" +
                         on_ + "; its queue is abandoned and a new one will be made";
      return false;
    }
    failure_.status = Status::DeviceLost;
    failure_.message = what + " failed" + on_ + " (" + cl_error_name(status) + ")";
    return false;
  }

  /// Unmaps `region` if it is mapped.
  void unmap(MappedRegion& region) {
    std::vector<MappedRegion> one{region};
    unmap_regions(api_, queue_.queue(), one);
    region.host = nullptr;
  }

  /// Binds every buffer (a kept one that holds its bytes, or an upload),
  /// makes the table and maps it for the first group.
  bool start() {
    const KernelInterface& iface = r_.iface;
    const LevelLoop& loop = r_.loop;
    changed_ = *buffer_index(iface, loop.changed);
    level_ = *buffer_index(iface, loop.level_buffer);
    current_ = *buffer_index(iface, loop.current);
    next_ = *buffer_index(iface, loop.next);
    params_ = r_.state.at(loop.level_buffer);
    cl_uint align_bits = 0;
    if (cl_int error = api_.clGetDeviceInfo(queue_.device(), CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                                            sizeof align_bits, &align_bits, nullptr);
        error != CL_SUCCESS) {
      return fail(error, "clGetDeviceInfo(CL_DEVICE_MEM_BASE_ADDR_ALIGN)");
    }
    const uint64_t align = std::max<uint64_t>(align_bits / 8, 4);
    const uint64_t widest = std::max(device_buffer_bytes(params_.size()),
                                     device_buffer_bytes(r_.state.at(loop.changed).size()));
    stride_ = (widest + align - 1) / align * align;
    table_bytes_ = stride_ * (2 * kMaxLevelsPerWait + 1);
    subs_.assign(2 * kMaxLevelsPerWait + 1, nullptr);

    std::vector<MappedRegion> regions;
    std::vector<const ByteBuffer*> sources;
    std::vector<size_t> remembered;  // Read-only buffers uploaded: remembered once written.
    bound_.assign(iface.buffers.size(), nullptr);
    for (size_t i = 0; i < iface.buffers.size(); ++i) {
      if (i == changed_ || i == level_) continue;
      const ByteBuffer& bytes = r_.state.at(iface.buffers[i].name);
      const uint64_t size = device_buffer_bytes(bytes.size());
      const bool read_only = iface.buffers[i].access != BufferAccess::ReadWrite && i != current_;
      // Remembered contents assume the zeros past the host bytes.
      if (zeroes_past_host_bytes() && bytes.size() <= kMaxRememberedBytes) {
        bound_[i] = buffers_.take_holding(bytes, size);
      }
      if (bound_[i] != nullptr) {
        if (read_only) buffers_.still_holds(bound_[i]);
        continue;
      }
      cl_int error = CL_SUCCESS;
      bound_[i] = buffers_.take(size, error);
      if (bound_[i] == nullptr) return fail(error, "cannot allocate a buffer");
      if (read_only && zeroes_past_host_bytes() && bytes.size() <= kMaxRememberedBytes) {
        remembered.push_back(i);
      }
      regions.push_back({bound_[i], size, nullptr});
      sources.push_back(&bytes);
    }
    cl_int error = CL_SUCCESS;
    table_ = buffers_.take(table_bytes_, error);
    if (table_ == nullptr) return fail(error, "cannot allocate a buffer");
    regions.push_back({table_, table_bytes_, nullptr});
    HeldEvent last{api_};
    if (cl_int e =
            enqueue_maps(api_, queue_.queue(), regions, CL_MAP_WRITE_INVALIDATE_REGION, last);
        e != CL_SUCCESS) {
      return fail(e, "clEnqueueMapBuffer (uploading the state)");
    }
    if (!wait(last.event, "uploading the state", 0)) {
      return false;
    }
    for (size_t i = 0; i < sources.size(); ++i) {
      std::copy(sources[i]->begin(), sources[i]->end(), regions[i].host);
      if (zeroes_past_host_bytes()) {
        std::fill(regions[i].host + sources[i]->size(), regions[i].host + regions[i].bytes,
                  uint8_t{0});
      }
    }
    table_region_ = regions.back();
    regions.pop_back();
    // The control word has no host bytes: zeros past them, as every slot's pad.
    if (zeroes_past_host_bytes()) {
      std::fill(table_region_.host, table_region_.host + table_bytes_, uint8_t{0});
    }
    unmap_regions(api_, queue_.queue(), regions);
    for (size_t i : remembered) buffers_.remember(bound_[i], r_.state.at(iface.buffers[i].name));
    return set_fixed_arguments();
  }

  /// The sub-buffer of table slot `slot` (made on first use).
  cl_mem slot(size_t slot) {
    if (subs_[slot] != nullptr) return subs_[slot];
    cl_buffer_region region{stride_ * slot, stride_};
    cl_int error = CL_SUCCESS;
    subs_[slot] = api_.clCreateSubBuffer(table_, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
                                         &region, &error);
    if (subs_[slot] == nullptr) fail(error, "clCreateSubBuffer");
    return subs_[slot];
  }

  /// Counts, the buffers no level changes, and the control word's slot.
  bool set_fixed_arguments() {
    r_.kernel.arguments.within(buffers_.releases());
    const KernelInterface& iface = r_.iface;
    std::vector<uint32_t> counts;
    for (const KernelBuffer& b : iface.buffers) {
      counts.push_back(
          static_cast<uint32_t>(host_element_count(b.element, r_.state.at(b.name).size())));
    }
    for (size_t i = 0; i < counts.size(); ++i) {
      const cl_uint count = count_argument(counts.data(), i);
      if (!set(iface.count_arg(i), sizeof count, &count)) return false;
      if (bound_[i] != nullptr && i != current_ && i != next_ &&
          !set(iface.pointer_arg(i), sizeof(cl_mem), &bound_[i])) {
        return false;
      }
    }
    if (iface.has_control_buffer) {
      cl_mem control = slot(kControlSlot);
      if (control == nullptr || !set(iface.control_arg(), sizeof(cl_mem), &control)) return false;
    }
    return true;
  }

  bool set(cl_uint index, size_t size, const void* value) {
    const cl_int error = r_.kernel.arguments.set(api_, r_.kernel.kernel, index, size, value);
    return error == CL_SUCCESS || fail(error, "clSetKernelArg");
  }

  /// Writes the level parameters of a group of `n` levels into the mapped
  /// table and zeroes their `changed` words.
  void write_table(uint32_t n) {
    for (uint32_t s = 0; s < n; ++s) {
      const uint32_t level = levels_run_ + s;
      std::memcpy(params_.data() + uint64_t{r_.loop.level_word} * 4, &level, 4);
      uint8_t* at = table_region_.host + stride_ * (kParamsSlot + s);
      std::copy(params_.begin(), params_.end(), at);
      uint8_t* changed = table_region_.host + stride_ * (kChangedSlot + s);
      std::fill_n(changed, r_.state.at(r_.loop.changed).size(), uint8_t{0});
      if (zeroes_past_host_bytes()) {  // The runtime's seeded bugs apply here as to a dispatch.
        std::fill(at + params_.size(), at + stride_, uint8_t{0});
        std::fill(changed, changed + stride_, uint8_t{0});
      }
    }
  }

  /// Enqueues `n` levels, then the table's map, and waits once; `done` when a
  /// level changed nothing.
  bool run_group(uint32_t n, bool& done) {
    write_table(n);
    unmap(table_region_);
    const KernelInterface& iface = r_.iface;
    std::array<size_t, 3> global;
    std::array<size_t, 3> local;
    for (size_t axis = 0; axis < 3; ++axis) {
      local[axis] = iface.workgroup_size[axis];
      global[axis] = size_t{r_.grid.workgroups[axis]} * local[axis];
    }
    global = global_size(global, local);
    HeldEvent first{api_};
    HeldEvent last{api_};
    for (uint32_t s = 0; s < n; ++s) {
      const uint32_t level = levels_run_ + s;
      cl_mem params = slot(kParamsSlot + s);
      cl_mem changed = slot(kChangedSlot + s);
      if (params == nullptr || changed == nullptr) return false;
      cl_mem current = bound_[level % 2 == 0 ? current_ : next_];
      cl_mem next = bound_[level % 2 == 0 ? next_ : current_];
      if (!set(iface.pointer_arg(level_), sizeof(cl_mem), &params) ||
          !set(iface.pointer_arg(changed_), sizeof(cl_mem), &changed) ||
          !set(iface.pointer_arg(current_), sizeof(cl_mem), &current) ||
          !set(iface.pointer_arg(next_), sizeof(cl_mem), &next)) {
        return false;
      }
      // Level 0's next holds the state's zeros; every later one held a frontier.
      if (level != 0) {
        static constexpr uint32_t kZero = 0;
        const uint64_t bytes = device_buffer_bytes(r_.state.at(r_.loop.next).size());
        if (cl_int error = api_.clEnqueueFillBuffer(queue_.queue(), next, &kZero, 4, 0, bytes, 0,
                                                    nullptr, nullptr);
            error != CL_SUCCESS) {
          return fail(error, "clEnqueueFillBuffer (the next level's `" + r_.loop.next + "`)");
        }
      }
      cl_event* event = s == 0 ? &first.event : s + 1 == n ? &last.event : nullptr;
      if (cl_int error =
              api_.clEnqueueNDRangeKernel(queue_.queue(), r_.kernel.kernel, 3, nullptr,
                                          global.data(), local.data(), 0, nullptr, event);
          error != CL_SUCCESS) {
        return fail(error, "clEnqueueNDRangeKernel");
      }
    }
    std::vector<MappedRegion> table{{table_, table_bytes_, nullptr}};
    HeldEvent mapped{api_};
    if (cl_int error =
            enqueue_maps(api_, queue_.queue(), table, CL_MAP_READ | CL_MAP_WRITE, mapped);
        error != CL_SUCCESS) {
      return fail(error, "clEnqueueMapBuffer (the levels' changed words)");
    }
    table_region_ = table[0];
    if (r_.loop.on_submission) r_.loop.on_submission();
    const std::string what = "levels " + std::to_string(levels_run_) + " to " +
                             std::to_string(levels_run_ + n - 1) + " of the loop";
    if (!wait(mapped.event, what, n)) return false;
    out_.device_ms = add_device_ms(
        out_.device_ms,
        profiled_span(api_, first.event, last.event != nullptr ? last.event : first.event),
        levels_run_ == 0);
    uint32_t control = 0;
    std::memcpy(&control, table_region_.host + stride_ * kControlSlot, 4);
    if (control != 0) {
      failure_.status = Status::Timeout;
      failure_.message = loop_budget_message(iface.loop_iteration_budget);
      return false;
    }
    for (uint32_t s = 0; s < n; ++s) {
      uint32_t word = 0;
      std::memcpy(&word, table_region_.host + stride_ * (kChangedSlot + s), 4);
      out_.changed_words.push_back(word);
      done = done || word == 0;
    }
    levels_run_ += n;
    return true;
  }

  /// Reads back the outputs and the carried `current`; `next` and `changed`
  /// are zeros after the carry.
  bool read_back() {
    unmap(table_region_);
    const KernelInterface& iface = r_.iface;
    // After levels_run_ levels, the last one's next is bound where its
    // parity puts it: it is the carried `current`.
    const size_t carried = levels_run_ % 2 == 0 ? current_ : next_;
    std::vector<std::string> names;
    std::vector<MappedRegion> regions;
    auto add = [&](const std::string& name, size_t index) {
      const ByteBuffer& bytes = r_.state.at(name);
      if (bytes.empty()) {
        out_.state[name] = {};
        return;
      }
      names.push_back(name);
      regions.push_back({bound_[index], device_buffer_bytes(bytes.size()), nullptr});
    };
    for (const std::string& name : r_.loop.outputs) {
      if (name == r_.loop.next || name == r_.loop.changed) {
        out_.state[name] = ByteBuffer(r_.state.at(name).size(), 0);
      } else {
        add(name, *buffer_index(iface, name));
      }
    }
    add(r_.loop.current, carried);
    if (regions.empty()) return true;
    HeldEvent last{api_};
    if (cl_int error = enqueue_maps(api_, queue_.queue(), regions, CL_MAP_READ, last);
        error != CL_SUCCESS) {
      return fail(error, "clEnqueueMapBuffer (reading the state)");
    }
    if (!wait(last.event, "reading the state", 0)) return false;
    for (size_t i = 0; i < regions.size(); ++i) {
      const size_t bytes = read_back_bytes(r_.state.at(names[i]).size());
      out_.state[names[i]] = ByteBuffer(regions[i].host, regions[i].host + bytes);
    }
    unmap_regions(api_, queue_.queue(), regions);
    api_.clFlush(queue_.queue());
    return true;
  }

  /// Table slots: the levels' parameters, their changed words, the control word.
  static constexpr size_t kParamsSlot = 0;
  static constexpr size_t kChangedSlot = kMaxLevelsPerWait;
  static constexpr size_t kControlSlot = 2 * kMaxLevelsPerWait;

  const OpenClApi& api_;
  ClQueue& queue_;
  DispatchBuffers buffers_;
  const std::string on_;
  const LevelLoopRequest& r_;
  size_t changed_ = 0, level_ = 0, current_ = 0, next_ = 0;
  ByteBuffer params_;
  uint64_t stride_ = 0;
  uint64_t table_bytes_ = 0;
  cl_mem table_ = nullptr;
  MappedRegion table_region_;
  std::vector<cl_mem> subs_;
  std::vector<cl_mem> bound_;
  uint32_t levels_run_ = 0;
  LevelLoopOutcome out_;
  LevelLoopOutcome failure_;
};

}  // namespace

bool level_loop_fits(const KernelInterface& iface, const BufferSet& state, const LevelLoop& loop) {
  const auto changed = buffer_index(iface, loop.changed);
  const auto level = buffer_index(iface, loop.level_buffer);
  const auto current = buffer_index(iface, loop.current);
  const auto next = buffer_index(iface, loop.next);
  if (!changed || !level || !current || !next) return false;
  const std::array<size_t, 4> distinct = {*changed, *level, *current, *next};
  for (size_t i = 0; i < distinct.size(); ++i) {
    for (size_t j = i + 1; j < distinct.size(); ++j) {
      if (distinct[i] == distinct[j]) return false;
    }
  }
  const auto read_write = [&](const std::string& name) {
    const auto i = buffer_index(iface, name);
    return i && iface.buffers[*i].access == BufferAccess::ReadWrite && state.contains(name);
  };
  if (!read_write(loop.changed) || !read_write(loop.next) || !state.contains(loop.current) ||
      !state.contains(loop.level_buffer)) {
    return false;
  }
  for (const std::string& name : loop.outputs) {
    if (!read_write(name) || name == loop.current || name == loop.level_buffer) return false;
  }
  const uint64_t level_bytes = state.at(loop.level_buffer).size();
  return state.at(loop.changed).size() >= 4 && level_bytes >= (uint64_t{loop.level_word} + 1) * 4 &&
         level_bytes <= 4096 && state.at(loop.changed).size() <= 4096 &&
         state.at(loop.current).size() == state.at(loop.next).size();
}

LevelLoopOutcome run_level_loop(const OpenClApi& api, ClQueue& queue, BufferPool& pool,
                                const std::string& device_name, const LevelLoopRequest& request) {
  return LoopRun(api, queue, pool, device_name, request)();
}

}  // namespace vyre::opencl
