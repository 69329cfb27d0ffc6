#include "reference/interpreter.h"

#include <memory>
#include <string>
#include <vector>

#include "reference/exec/executor.h"
#include "reference/exec/lane_compiler.h"
#include "reference/exec/run_checks.h"
#include "reference/observers/barrier_divergence.h"
#include "reference/observers/race_detector.h"
#include "reference/observers/strict_oob.h"
#include "spec/validate/validator.h"

namespace vyre::reference {
namespace {

Error invalid_program(const std::vector<Diagnostic>& diagnostics) {
  std::string message = "vyre reference: the program is invalid (" +
                        std::to_string(diagnostics.size()) + " error" +
                        (diagnostics.size() == 1 ? "" : "s") + "):";
  for (const Diagnostic& d : diagnostics) {
    message += "\n  " + std::string(name_of(d.rule));
    if (d.loc.known()) {
      message += " at " + std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col);
    }
    message += ": " + d.message;
  }
  return Error{message, diagnostics.front().loc};
}

/// Shadow memory the race detector may need, for the memory limit.
uint64_t race_detector_bytes(const Program& program, const BufferSizes& sizes) {
  uint64_t bytes = 0;
  for (size_t i = 0; i < program.buffers.size(); ++i) {
    const BufferAccess a = program.buffers[i].access;
    if (a == BufferAccess::ReadWrite || a == BufferAccess::Workgroup) {
      bytes += sizes.element_counts[i] * RaceDetector::kBytesPerElement;
    }
  }
  return bytes;
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
  }
  return "?";
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
  std::vector<std::unique_ptr<Observer>> owned;
  if (options.checks) {
    owned.push_back(std::make_unique<RaceDetector>(program, *shape, sizes->element_counts));
    owned.push_back(std::make_unique<BarrierDivergenceCheck>(*shape));
    plan.observer_bytes = race_detector_bytes(program, *sizes);
  }
  if (options.strict_oob) owned.push_back(std::make_unique<StrictOutOfBounds>(program, *shape));
  std::vector<Observer*> observers;
  for (const std::unique_ptr<Observer>& o : owned) observers.push_back(o.get());
  observers.insert(observers.end(), extra_observers.begin(), extra_observers.end());
  return execute(plan, *compiled, inputs, options, observers);
}

}  // namespace vyre::reference
