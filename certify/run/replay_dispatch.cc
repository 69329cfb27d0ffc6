#include "certify/run/replay_dispatch.h"

#include "certify/run/output_judge.h"
#include "certify/run/output_shape.h"

namespace vyre::certify {

ReplayOutcome replay_dispatch(Backend& backend, const CompiledProgram& program,
                              const TestCase& tc) {
  ReplayOutcome out;
  if (!tc.batch) {
    DispatchOutcome one = backend.dispatch(program, tc.inputs, tc.grid);
    out.runs = 1;
    out.submissions = 1;
    out.status = one.status;
    out.message = std::move(one.message);
    if (one.status != Status::Ok) {
      out.failed_run = 1;
      return out;
    }
    out.outputs.emplace_back(1, std::move(one.outputs));
    return out;
  }
  BatchOptions options;
  options.runs = tc.batch->runs;
  options.submissions = tc.batch->submissions;
  // Every differing run comes back: the one the repro names may be any;
  // without the buffers the case's judge never reads, as in the
  // certification run.
  options.reported_differing = tc.batch->runs;
  options.scratch = unjudged_buffers(tc);
  BatchOutcome batch = backend.dispatch_runs(program, tc.inputs, tc.grid, options);
  out.runs = batch.dispatches;
  out.submissions = batch.submissions;
  out.status = batch.status;
  out.message = std::move(batch.message);
  if (batch.status != Status::Ok) {
    out.failed_run = batch.failed_run + 1;
    return out;
  }
  out.outputs.emplace_back(1, std::move(batch.first_outputs));
  for (DifferingRun& d : batch.differing) out.outputs.emplace_back(d.run + 1, std::move(d.outputs));
  return out;
}

std::optional<RunFailure> first_failing_run(const TestCase& expectation,
                                            const ReplayOutcome& outcome) {
  if (outcome.status != Status::Ok) {
    return RunFailure{outcome.failed_run,
                      verdict_of(outcome.status),
                      "dispatch: " + std::string(name_of(outcome.status)) + ": " + outcome.message,
                      {}};
  }
  const std::vector<std::string> none;
  const std::vector<std::string> scratch = unjudged_buffers(expectation);
  for (const auto& [run, outputs] : outcome.outputs) {
    // Runs after run 1 differ from it and come back without scratch buffers.
    if (auto malformed = output_shape_problem(expectation.program, expectation.inputs, outputs,
                                              run == 1 ? none : scratch)) {
      return RunFailure{run, Verdict::BadOutput, *malformed, outputs};
    }
    if (auto difference = judge_outputs(expectation, outputs).difference) {
      return RunFailure{run, Verdict::Fail, *difference, outputs};
    }
  }
  return std::nullopt;
}

}  // namespace vyre::certify
