#include "reference/interpreter.h"

#include <memory>
#include <string>
#include <vector>

#include "reference/exec/executor.h"
#include "reference/exec/lane_compiler.h"
#include "reference/exec/run_checks.h"
#include "reference/exec/schedule_probe.h"
#include "reference/memory_budget.h"
#include "reference/observers/barrier_divergence.h"
#include "reference/observers/race_detector.h"
#include "reference/observers/strict_oob.h"
#include "spec/support/diagnostic_text.h"
#include "spec/validate/validator.h"

namespace vyre::reference {
namespace {

Error invalid_program(const std::vector<Diagnostic>& diagnostics) {
  std::string message = "vyre reference: the program is invalid (" +
                        std::to_string(diagnostics.size()) + " error" +
                        (diagnostics.size() == 1 ? "" : "s") + "):";
  for (const Diagnostic& d : diagnostics) {
    message += "\n  " + std::string(name_of(d.rule)) + at_location(d.loc) + ": " + d.message;
  }
  return Error{message, diagnostics.front().loc};
}

}  // namespace

std::string_view name_of(Violation::Kind kind) {
  switch (kind) {
    case Violation::Kind::DataRace:
      return "data race";
    case Violation::Kind::DivergentBarrier:
      return "divergent barrier";
    case Violation::Kind::OutOfBounds:
      return "out of bounds";
    case Violation::Kind::ScheduleDependence:
      return "schedule dependence";
  }
  return "?";
}

std::string describe(const Schedule& schedule) {
  std::string text = "?";
  switch (schedule.kind) {
    case Schedule::Kind::Canonical:
      text = "canonical";
      break;
    case Schedule::Kind::Reversed:
      text = "reversed";
      break;
    case Schedule::Kind::Random:
      text = "random:" + std::to_string(schedule.seed);
      break;
  }
  switch (schedule.grouping) {
    case Schedule::Grouping::Default:
      break;
    case Schedule::Grouping::Apart:
      text += " (workgroups apart)";
      break;
    case Schedule::Grouping::Together:
      text += " (workgroups together)";
      break;
  }
  if (schedule.stepping == Schedule::Stepping::Solo) text += " (invocations out of step)";
  return text;
}

std::string_view name_of(AccessKind kind) {
  switch (kind) {
    case AccessKind::Read:
      return "read";
    case AccessKind::Write:
      return "write";
    case AccessKind::Atomic:
      return "atomic";
  }
  return "?";
}

Result<RunResult> run(const Program& program, const BufferSet& inputs, const Grid& grid,
                      const RunOptions& options) {
  const std::vector<Diagnostic> diagnostics = validate(program);
  if (!diagnostics.empty()) return invalid_program(diagnostics);
  return run_unvalidated(program, inputs, grid, options);
}

Result<RunResult> run_unvalidated(const Program& program, const BufferSet& inputs, const Grid& grid,
                                  const RunOptions& options,
                                  std::span<Observer* const> extra_observers) {
  const Result<DispatchShape> shape = check_dispatch(program, grid, options);
  if (!shape) return shape.error();
  const Result<BufferSizes> sizes = check_inputs(program, inputs);
  if (!sizes) return sizes.error();
  const Result<LaneProgram> compiled =
      compile_program(program, OpRegistry::standard(), sizes->element_counts);
  if (!compiled) return compiled.error();

  ExecutionPlan plan{&program, *shape, *sizes, 0};
  // Outlives the observers, which give their reservations back as they go.
  MemoryBudget memory(options.max_memory_bytes);
  std::vector<std::unique_ptr<Observer>> owned;
  if (options.checks) {
    auto races = std::make_unique<RaceDetector>(program, *shape, sizes->element_counts,
                                                compiled->access_sites, memory);
    plan.observer_bytes = races->fixed_bytes();
    owned.push_back(std::move(races));
    owned.push_back(std::make_unique<BarrierDivergenceCheck>(*shape));
  }
  if (options.strict_oob) owned.push_back(std::make_unique<StrictOutOfBounds>(program, *shape));
  std::vector<Observer*> observers;
  for (const std::unique_ptr<Observer>& o : owned) observers.push_back(o.get());
  observers.insert(observers.end(), extra_observers.begin(), extra_observers.end());
  Result<RunResult> result = execute(plan, *compiled, inputs, options, observers, memory);
  if (result.ok() && options.checks && result->conforming()) {
    if (std::optional<Violation> v = probe_schedule_dependence(plan, *compiled, inputs, options,
                                                               result->outputs, result->steps)) {
      result->violations.push_back(std::move(*v));
    }
  }
  return result;
}

}  // namespace vyre::reference
