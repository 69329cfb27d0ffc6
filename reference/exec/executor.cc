#include "reference/exec/executor.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <vector>

#include "reference/exec/lane_schedule.h"
#include "spec/support/diagnostic_text.h"

namespace vyre::reference {
namespace {

static_assert(std::endian::native == std::endian::little,
              "host buffers are little-endian and read as native words");

/// Batch geometry: whole workgroups per batch and lanes per register.
struct BatchGeometry {
  uint32_t workgroups_per_batch = 1;
  uint32_t width = 1;
  /// Bytes of buffers, registers and fixed observer arrays at this width.
  uint64_t bytes = 0;
};

bool has_workgroup_buffer(const Program& program) {
  return std::any_of(program.buffers.begin(), program.buffers.end(),
                     [](const BufferDecl& b) { return b.access == BufferAccess::Workgroup; });
}

/// By default a barrier's workgroup runs alone, so that the barrier-divergence
/// observer sees one workgroup per batch; workgroup memory has one copy.
bool needs_single_workgroup_batches(const Program& program, const LaneProgram& compiled) {
  return compiled.has_barrier || has_workgroup_buffer(program);
}

/// Bytes of registers and per-lane scratch for a batch `width` lanes wide.
uint64_t batch_bytes(const LaneProgram& compiled, uint64_t width) {
  const uint64_t registers = uint64_t{compiled.permanent_registers} + compiled.temp_registers;
  // Invocation ids, event lanes and indices, four random lane orders, and
  // three LocalId tables (bounded by the width).
  constexpr uint64_t kScratchVectors = 10;
  return (registers + kScratchVectors) * width * sizeof(uint32_t);
}

Result<BatchGeometry> choose_geometry(const ExecutionPlan& plan, const LaneProgram& compiled,
                                      const RunOptions& options, bool observed) {
  const uint64_t fixed = plan.sizes.host_bytes + plan.sizes.output_bytes +
                         plan.sizes.workgroup_bytes + plan.observer_bytes;
  const uint32_t lanes = plan.shape.lanes_per_workgroup;
  uint32_t groups = 1;
  const Schedule::Grouping grouping = options.schedule.grouping;
  // The observers judge barriers and races one workgroup per batch, so a
  // checked run keeps the default grouping; the schedule probes run unchecked.
  const bool together =
      grouping == Schedule::Grouping::Together && !observed && !has_workgroup_buffer(*plan.program);
  const bool default_grouping = grouping == Schedule::Grouping::Default ||
                                (grouping == Schedule::Grouping::Together && !together);
  if (together || (default_grouping && !needs_single_workgroup_batches(*plan.program, compiled))) {
    // Together pairs workgroups even when one fills a batch: the point is
    // that two of them interleave.
    groups = std::max<uint32_t>(together ? 2 : 1, kTargetBatchLanes / lanes);
    groups = std::min(groups, plan.shape.workgroups);
    while (groups > 1 &&
           fixed + batch_bytes(compiled, uint64_t{groups} * lanes) > options.max_memory_bytes) {
      groups /= 2;
    }
  }
  const uint64_t bytes = fixed + batch_bytes(compiled, uint64_t{groups} * lanes);
  const Result<Ok> fits = check_memory(bytes, options, "buffers, registers and checks");
  if (!fits) return fits.error();
  return BatchGeometry{groups, groups * lanes, bytes};
}

class Execution {
 public:
  Execution(const ExecutionPlan& plan, const LaneProgram& compiled, const RunOptions& options,
            std::span<Observer* const> observers, BatchGeometry geometry,
            const MemoryBudget& memory)
      : plan_(plan),
        compiled_(compiled),
        options_(options),
        geometry_(geometry),
        schedule_(options.schedule, plan.shape.workgroups) {
    const uint32_t w = geometry.width;
    file_.assign((size_t{compiled.permanent_registers} + compiled.temp_registers) * w, 0u);
    invocation_.assign(w, 0u);
    s_.width = w;
    s_.file = file_.data();
    s_.permanent = compiled.permanent_registers;
    s_.alive = s_.at(Reg{kAliveReg, false});
    s_.invocation = invocation_;
    s_.schedule = &schedule_;
    // A checked run steps in lockstep, as its observers expect; the schedule
    // probes, which step solo, run unchecked.
    s_.solo = options.schedule.stepping == Schedule::Stepping::Solo && observers.empty();
    s_.step_budget = options.step_budget;
    s_.memory = &memory;
    s_.observers = observers;
    if (!observers.empty()) {
      s_.event_lanes.assign(w, 0u);
      s_.event_indices.assign(w, 0u);
    }
    for (const ConstantRegister& c : compiled.constants) {
      uint32_t* r = s_.at(Reg{c.reg, false});
      for (uint32_t k = 0; k < c.words; ++k) std::fill_n(r + size_t{k} * w, w, c.value[k]);
    }
    const DispatchShape& shape = plan.shape;
    for (uint32_t l = 0; l < shape.lanes_per_workgroup; ++l) {
      const std::array<uint32_t, 3> local = shape.local_xyz(l);
      for (uint32_t axis = 0; axis < 3; ++axis) local_[axis].push_back(local[axis]);
    }
  }

  Result<RunResult> run(const BufferSet& inputs) {
    const Program& program = *plan_.program;
    RunResult result;
    for (size_t i = 0; i < program.buffers.size(); ++i) {
      const BufferDecl& decl = program.buffers[i];
      BufferMemory b;
      b.elements = plan_.sizes.element_counts[i];
      b.words_per_element = word_count(decl.element);
      b.is_bool = decl.element == DataType::Bool;
      for (Observer* o : s_.observers) b.watched = b.watched || o->watches(uint32_t(i), decl);
      if (decl.access == BufferAccess::Workgroup) {
        workgroup_words_ += b.elements * b.words_per_element;
        workgroup_memory_.emplace_back(b.elements * b.words_per_element * 4, 0);
        b.writable = workgroup_memory_.back().data();
      } else if (decl.access == BufferAccess::ReadWrite) {
        // Edited in place in the output, which starts as the initial contents;
        // a trailing partial element, like any Bytes buffer, is never
        // addressed, so it is handed back unchanged.
        ByteBuffer& out = result.outputs[decl.name] = inputs.at(decl.name);
        b.writable = out.data();
      }
      b.data = b.writable != nullptr ? b.writable : inputs.at(decl.name).data();
      s_.buffers.push_back(b);
    }
    const uint32_t total = plan_.shape.workgroups;
    for (uint32_t first = 0; first < total; first += geometry_.workgroups_per_batch) {
      run_batch(first, std::min(geometry_.workgroups_per_batch, total - first));
      s_.check_memory(SourceLoc{});
      if (s_.stop == StopReason::StepBudget) return budget_error();
      if (s_.stop == StopReason::MemoryLimit) return memory_error();
    }
    result.oob = s_.oob;
    result.lane_ops = s_.lane_ops;
    result.steps = s_.steps;
    for (Observer* o : s_.observers) o->collect(result.violations);
    return result;
  }

 private:
  void run_batch(uint32_t first, uint32_t groups) {
    // Setup writes ids and masks for the batch's width and zeroes every
    // workgroup buffer: charged first, so that a tiny program declaring
    // huge workgroup memory over many workgroups ends in bounded time.
    if (!s_.charge_setup(geometry_.width + workgroup_words_)) {
      stopped_in_setup_ = true;
      return;
    }
    const DispatchShape& shape = plan_.shape;
    const uint32_t per_group = shape.lanes_per_workgroup;
    const uint32_t lanes = groups * per_group;
    s_.lanes = lanes;
    for (uint32_t j = 0; j < groups; ++j) fill_ids(j, schedule_.batch_workgroup(first, groups, j));
    uint32_t* batch_mask = s_.at(Reg{kBatchMaskReg, false});
    std::fill_n(batch_mask, geometry_.width, 0u);
    std::fill_n(batch_mask, lanes, ~0u);
    std::copy_n(batch_mask, geometry_.width, s_.alive);
    for (ByteBuffer& bytes : workgroup_memory_) std::fill(bytes.begin(), bytes.end(), 0);
    schedule_.begin_batch(lanes);
    s_.returns = 0;
    const BatchView view = s_.view();
    for (Observer* o : s_.observers) o->on_batch_begin(view);
    s_.set_mask(batch_mask);
    exec_body(s_, compiled_.body);
    for (Observer* o : s_.observers) o->on_batch_end(view);
  }

  /// Fills the id registers the program reads (and, for observers, the
  /// linear invocation ids) for the lanes of the j-th workgroup of the batch.
  void fill_ids(uint32_t j, uint32_t group) {
    const DispatchShape& shape = plan_.shape;
    const uint32_t per_group = shape.lanes_per_workgroup;
    const std::array<uint32_t, 3> wg = shape.workgroup_xyz(group);
    const uint32_t base = j * per_group;
    for (uint32_t axis = 0; axis < 3; ++axis) {
      if (compiled_.uses_id[kInvocationIdReg + axis]) {
        uint32_t* r = s_.at(Reg{kInvocationIdReg + axis, false}) + base;
        const uint32_t origin = wg[axis] * shape.workgroup_size[axis];
        for (uint32_t l = 0; l < per_group; ++l) r[l] = origin + local_[axis][l];
      }
      if (compiled_.uses_id[kWorkgroupIdReg + axis]) {
        std::fill_n(s_.at(Reg{kWorkgroupIdReg + axis, false}) + base, per_group, wg[axis]);
      }
      if (compiled_.uses_id[kLocalIdReg + axis]) {
        std::copy(local_[axis].begin(), local_[axis].end(),
                  s_.at(Reg{kLocalIdReg + axis, false}) + base);
      }
    }
    if (s_.observers.empty()) return;
    for (uint32_t l = 0; l < per_group; ++l) invocation_[base + l] = group * per_group + l;
  }

  Error budget_error() const {
    std::string where = s_.stop_loc.known() ? " at line " + line_col(s_.stop_loc) : std::string();
    if (stopped_in_setup_) {
      where = " while starting a workgroup (each start zeroes " + std::to_string(workgroup_words_) +
              " words of workgroup memory)";
    }
    return Error{"vyre reference: the step budget of " + std::to_string(s_.step_budget) +
                     " steps is exhausted" + where + " after " + std::to_string(s_.lane_ops) +
                     " lane-operations" +
                     "; the program may not terminate (for example a loop with a huge trip "
                     "count) or does too much work (huge workgroup buffers zeroed in many "
                     "workgroups). Fix: bound the program's loops, shrink its workgroup buffers, "
                     "or raise RunOptions::step_budget.",
                 s_.stop_loc};
  }

  /// The memory-limit Error for an observer's refused reservation, at the
  /// node whose accesses needed it.
  Error memory_error() const {
    const MemoryBudget& memory = *s_.memory;
    const Result<Ok> fits = check_memory(memory.refused_total(), options_, memory.refused_what());
    return Error{fits.error().message, s_.stop_loc};
  }

  const ExecutionPlan& plan_;
  const LaneProgram& compiled_;
  const RunOptions& options_;
  BatchGeometry geometry_;
  LaneSchedule schedule_;
  std::vector<uint32_t> file_;
  std::vector<uint32_t> invocation_;
  /// LocalId per axis of each position in a workgroup.
  std::array<std::vector<uint32_t>, 3> local_;
  /// Workgroup buffers' bytes, zeroed per batch.
  std::vector<ByteBuffer> workgroup_memory_;
  /// Words of all workgroup buffers together (the zeroing charged per batch).
  uint64_t workgroup_words_ = 0;
  /// The budget ran out charging a batch's setup, not at a node.
  bool stopped_in_setup_ = false;
  BatchState s_;
};

}  // namespace

Result<RunResult> execute(const ExecutionPlan& plan, const LaneProgram& compiled,
                          const BufferSet& inputs, const RunOptions& options,
                          std::span<Observer* const> observers, MemoryBudget& memory) {
  const Result<BatchGeometry> geometry =
      choose_geometry(plan, compiled, options, !observers.empty());
  if (!geometry) return geometry.error();
  if (!memory.reserve(geometry->bytes, "buffers, registers and checks")) {
    return check_memory(memory.refused_total(), options, memory.refused_what()).error();
  }
  Execution execution(plan, compiled, options, observers, *geometry, memory);
  return execution.run(inputs);
}

}  // namespace vyre::reference
