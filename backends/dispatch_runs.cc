// The default dispatch_runs (one dispatch() per run) and the bookkeeping every
// batched implementation shares.
#include <algorithm>
#include <chrono>

#include "backends/backend.h"

namespace vyre {

bool is_scratch(const BatchOptions& options, std::string_view name) {
  return std::find(options.scratch.begin(), options.scratch.end(), name) != options.scratch.end();
}

bool same_judged_outputs(const BufferSet& first, const BufferSet& outputs,
                         const BatchOptions& options) {
  if (options.scratch.empty()) return first == outputs;
  // Both directions: a judged buffer only one of them has is a difference.
  for (const auto& [name, bytes] : first) {
    if (is_scratch(options, name)) continue;
    const auto other = outputs.find(name);
    if (other == outputs.end() || other->second != bytes) return false;
  }
  for (const auto& [name, bytes] : outputs) {
    if (!is_scratch(options, name) && !first.contains(name)) return false;
  }
  return true;
}

void record_run_outputs(BatchOutcome& outcome, uint32_t run, BufferSet outputs,
                        const BatchOptions& options) {
  if (run == 0) {
    outcome.first_outputs = std::move(outputs);
    return;
  }
  if (same_judged_outputs(outcome.first_outputs, outputs, options)) return;
  ++outcome.differing_runs;
  if (outcome.differing.size() < options.reported_differing) {
    for (const std::string& name : options.scratch) outputs.erase(name);
    outcome.differing.push_back({run, std::move(outputs)});
  }
}

void finish_batch_timing(BatchOutcome& outcome, double total_ms) {
  outcome.timing.total_ms = total_ms;
  const double work_ms = std::max(0.0, total_ms - outcome.timing.setup_ms);
  outcome.timing.per_dispatch_us =
      outcome.dispatches == 0 ? 0.0 : work_ms * 1000.0 / outcome.dispatches;
}

std::optional<double> add_device_ms(std::optional<double> total, std::optional<double> part,
                                    bool first) {
  if (first) return part;
  if (!total || !part) return std::nullopt;
  return *total + *part;
}

BatchOutcome Backend::dispatch_runs(const CompiledProgram& program, const BufferSet& inputs,
                                    const Grid& grid, const BatchOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  BatchOutcome outcome;
  outcome.status = Status::Ok;
  const uint32_t runs = std::max<uint32_t>(options.runs, 1);
  // Every dispatch() is its own submission.
  for (uint32_t run = 0; run < runs; ++run) {
    DispatchOutcome one = dispatch(program, inputs, grid);
    outcome.timing.device_ms =
        add_device_ms(outcome.timing.device_ms, one.timing.device_ms, run == 0);
    ++outcome.dispatches;
    ++outcome.submissions;
    report_submission(options);
    outcome.timing.setup_ms += one.timing.setup_ms;
    if (one.status != Status::Ok) {
      outcome.status = one.status;
      outcome.message = std::move(one.message);
      outcome.failed_run = run;
      outcome.first_outputs.clear();
      break;
    }
    record_run_outputs(outcome, run, std::move(one.outputs), options);
  }
  finish_batch_timing(
      outcome,
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  return outcome;
}

}  // namespace vyre

namespace vyre {

CompileOutcome Backend::compile_encoded(const Program& program, Encoding encoding) {
  if (encoding == Encoding::AsEmitted) return compile(program);
  std::string offered = "as-emitted";
  for (Encoding e : encodings()) offered += ", " + std::string(name_of(e));
  return {Status::NotSupported,
          "the `" + name() + "` backend does not support the encoding `" +
              std::string(name_of(encoding)) + "` (it compiles: " + offered + ")",
          nullptr};
}

}  // namespace vyre
