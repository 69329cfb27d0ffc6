#include "certify/run/lockstep_backend.h"

#include <algorithm>

namespace vyre::certify {
namespace {

uint64_t bytes_of(const BufferSet& buffers) {
  uint64_t total = 0;
  for (const auto& [name, bytes] : buffers) total += bytes.size();
  return total;
}

}  // namespace

LockstepBackend::LockstepBackend(Backend& real, uint32_t submissions,
                                 std::chrono::steady_clock::time_point deadline)
    : real_(real), submissions_(std::max<uint32_t>(submissions, 1)), deadline_(deadline) {}

void LockstepBackend::begin(uint32_t runs) {
  std::lock_guard lock(mutex_);
  running_ = runs;
}

DispatchOutcome LockstepBackend::dispatch(const CompiledProgram& program, const BufferSet& inputs,
                                          const Grid& grid) {
  std::optional<DispatchOutcome> answer;
  std::unique_lock lock(mutex_);
  largest_step_bytes_ = std::max(largest_step_bytes_, bytes_of(inputs));
  waiting_.push_back({&program, &inputs, grid, &answer});
  // The last run to arrive makes the step for all; the others wait for it.
  if (waiting_.size() == running_) {
    make_steps();
  } else {
    answered_.wait(lock, [&] { return answer.has_value(); });
  }
  return std::move(*answer);
}

bool LockstepBackend::batches_steps() const {
  std::lock_guard lock(mutex_);
  return largest_step_bytes_ != 0 && 2 * largest_step_bytes_ <= kStepBatchBytes;
}

void LockstepBackend::run_finished() {
  std::lock_guard lock(mutex_);
  --running_;
  if (running_ != 0 && waiting_.size() == running_) make_steps();
}

void LockstepBackend::make_steps() {
  std::vector<Step> steps = std::move(waiting_);
  waiting_.clear();
  std::vector<bool> made(steps.size(), false);
  for (size_t first = 0; first < steps.size(); ++first) {
    if (made[first]) continue;
    const Step& step = steps[first];
    made[first] = true;
    if (std::chrono::steady_clock::now() > deadline_) {
      *step.answer = DispatchOutcome{Status::Timeout, "the case ran past its budget", {}, {}};
      continue;
    }
    // A batch holds every run's outputs at once: runs of a large state are
    // dispatched one by one (and never compared, which would cost more).
    const size_t per_batch = kStepBatchBytes / std::max<uint64_t>(bytes_of(*step.inputs), 1);
    if (per_batch < 2) {
      *step.answer = real_.dispatch(*step.program, *step.inputs, step.grid);
      continue;
    }
    // The runs asking for exactly this step: batches of up to per_batch.
    std::vector<size_t> group = {first};
    for (size_t i = first + 1; i < steps.size() && group.size() < per_batch; ++i) {
      if (!made[i] && steps[i].program == step.program && steps[i].grid == step.grid &&
          *steps[i].inputs == *step.inputs) {
        group.push_back(i);
        made[i] = true;
      }
    }
    if (group.size() == 1) {
      *step.answer = real_.dispatch(*step.program, *step.inputs, step.grid);
      continue;
    }
    BatchOptions options;
    options.runs = static_cast<uint32_t>(group.size());
    options.submissions = std::min(submissions_, options.runs);
    options.reported_differing = options.runs;  // Each run carries on from its own bytes.
    BatchOutcome batch = real_.dispatch_runs(*step.program, *step.inputs, step.grid, options);
    for (size_t k = 0; k < group.size(); ++k) {
      DispatchOutcome& out = steps[group[k]].answer->emplace();
      out.status = batch.status;
      out.message = batch.message;
      if (batch.status != Status::Ok) continue;
      out.outputs = batch.first_outputs;
      for (const DifferingRun& d : batch.differing) {
        if (d.run == k) out.outputs = d.outputs;
      }
    }
  }
  answered_.notify_all();
}

}  // namespace vyre::certify
