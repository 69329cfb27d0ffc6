// Adapter from the Backend interface to vyre::reference::run.
#include "backends/reference_backend.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "reference/interpreter.h"
#include "spec/ir/uniform_limit.h"
#include "spec/support/parallel_for.h"
#include "spec/validate/validator.h"

namespace vyre {
namespace {

/// A reference "compiled" program is the validated program itself.
class ReferenceProgram final : public CompiledProgram {
 public:
  explicit ReferenceProgram(Program program) : program_(std::move(program)) {}
  const Program& program() const { return program_; }

 private:
  Program program_;
};

/// Every diagnostic on its own line, rule id first.
std::string describe(const std::vector<Diagnostic>& diagnostics) {
  std::string text;
  for (const Diagnostic& d : diagnostics) {
    if (!text.empty()) text += '\n';
    text += std::string(name_of(d.rule)) + ": " + d.message;
  }
  return text;
}

std::string describe(const std::vector<reference::Violation>& violations) {
  std::string text = "the run is not conforming, so it has no defined output:";
  for (const reference::Violation& v : violations) {
    text += "\n" + std::string(reference::name_of(v.kind)) + ": " + v.message;
  }
  return text;
}

/// Most invocations one dispatch may run: the interpreter's default
/// RunOptions limit, and never past 2^32 - 1 (invocation ids are u32).
uint64_t dispatch_invocation_limit() {
  return std::min<uint64_t>(reference::RunOptions{}.max_invocations, uint64_t{0xFFFFFFFF});
}

/// Why the interpreter will not run `grid` of `program`'s workgroups: more
/// invocations than it takes (a limit of this backend, so NotSupported);
/// nullopt when it will, or when the grid has an empty axis (a host error
/// run() reports).
std::optional<std::string> past_invocation_limit(const Program& program, const Grid& grid) {
  const uint64_t limit = dispatch_invocation_limit();
  const std::optional<uint64_t> total = dispatch_invocations(program.workgroup_size, grid);
  if (total && (*total == 0 || *total <= limit)) return std::nullopt;
  return "the dispatch has " + (total ? std::to_string(*total) : std::string("more than 2^64")) +
         " invocations, more than the " + std::to_string(limit) +
         " the reference interpreter runs; dispatch fewer or smaller workgroups";
}

/// Runs whose run 0 took less than this run serially: starting threads and
/// sharing the outcome cost more than they save.
constexpr double kParallelRunMinMs = 0.5;

class ReferenceBackend final : public Backend {
 public:
  explicit ReferenceBackend(uint32_t host_threads) : host_threads_(host_threads) {}

  std::string name() const override { return "reference"; }

  Capabilities probe() override {
    const reference::RunOptions limits;
    constexpr uint32_t kNoLimit = std::numeric_limits<uint32_t>::max();
    Capabilities caps;
    caps.device_name = "reference interpreter";
    caps.driver = "vyre-certify reference";
    caps.api = "vyre 0.4.0";
    caps.max_workgroup_invocations =
        static_cast<uint32_t>(std::min<uint64_t>(limits.max_invocations, kNoLimit));
    caps.max_workgroup_size = {kNoLimit, kNoLimit, kNoLimit};
    caps.max_workgroup_count = {kNoLimit, kNoLimit, kNoLimit};
    caps.max_dispatch_invocations = dispatch_invocation_limit();
    caps.max_storage_buffer_bytes = limits.max_memory_bytes;
    caps.max_uniform_buffer_bytes = kMaxUniformBytes;
    caps.max_workgroup_memory_bytes = limits.max_memory_bytes;
    return caps;
  }

  CompileOutcome compile(const Program& program) override {
    std::vector<Diagnostic> diagnostics = validate(program);
    if (!diagnostics.empty()) {
      return {Status::CompileError, "invalid program:\n" + describe(diagnostics), nullptr};
    }
    return {Status::Ok, "", std::make_shared<ReferenceProgram>(program)};
  }

  DispatchOutcome dispatch(const CompiledProgram& compiled, const BufferSet& inputs,
                           const Grid& grid) override {
    return interpret(compiled, inputs, grid, /*checks=*/true);
  }

  /// The interpreter is a pure function of its inputs: calls share nothing.
  uint32_t concurrent_dispatches() const override { return threads(); }

  /// Run 0 first, with the interpreter's race and barrier checks; then the
  /// others on every host core (BackendOptions::host_threads) when run 0 took
  /// at least kParallelRunMinMs: the interpreter is a pure function of its
  /// inputs, so runs share nothing. The later runs skip the checks: whether a
  /// run conforms is a function of the program, its inputs and the schedule,
  /// all the same as run 0's, so run 0 already gave the verdict, and the later
  /// runs still check that the bytes are the same. Submissions mean nothing
  /// here (every run is its own execution); each run counts as one.
  BatchOutcome dispatch_runs(const CompiledProgram& compiled, const BufferSet& inputs,
                             const Grid& grid, const BatchOptions& options) override {
    const auto start = std::chrono::steady_clock::now();
    const uint32_t runs = std::max<uint32_t>(options.runs, 1);
    BatchOutcome outcome;
    DispatchOutcome first = interpret(compiled, inputs, grid, /*checks=*/true);
    outcome.dispatches = 1;
    if (first.status != Status::Ok) {
      outcome.status = first.status;
      outcome.message = std::move(first.message);
    } else {
      outcome.status = Status::Ok;
      const bool parallel = first.timing.execute_ms >= kParallelRunMinMs;
      record_run_outputs(outcome, 0, std::move(first.outputs), options);
      run_rest_in_parallel(compiled, inputs, grid, runs, parallel ? threads() : 1, options,
                           outcome);
    }
    outcome.submissions = outcome.dispatches;
    finish_batch_timing(
        outcome, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
    return outcome;
  }

 private:
  /// One run of a program this backend compiled (so validated): `checks`
  /// selects the interpreter's race and divergent-barrier observers.
  DispatchOutcome interpret(const CompiledProgram& compiled, const BufferSet& inputs,
                            const Grid& grid, bool checks) {
    const auto* program = dynamic_cast<const ReferenceProgram*>(&compiled);
    if (program == nullptr) {
      return {
          Status::Error, "the program was compiled by another backend than `reference`", {}, {}};
    }
    if (std::optional<std::string> past = past_invocation_limit(program->program(), grid)) {
      return {Status::NotSupported, *past, {}, {}};
    }
    const auto start = std::chrono::steady_clock::now();
    reference::RunOptions run_options;
    run_options.checks = checks;
    // A backend runs programs; whether a case's bytes depend on the schedule
    // is the case's oracle's question (certify/run/case_expectations.cc),
    // answered under the case's own comparison.
    run_options.schedule_probes = 0;
    Result<reference::RunResult> run =
        reference::run_unvalidated(program->program(), inputs, grid, run_options);
    DispatchOutcome outcome;
    outcome.timing.execute_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!run.ok()) {
      outcome.status = Status::Error;
      outcome.message = run.error().message;
    } else if (!run->conforming()) {
      outcome.status = Status::Error;
      outcome.message = describe(run->violations);
    } else {
      outcome.status = Status::Ok;
      outcome.outputs = std::move(run->outputs);
    }
    return outcome;
  }

  uint32_t threads() const { return host_threads_ != 0 ? host_threads_ : ::vyre::host_threads(); }

  /// Runs 1..runs-1 on min(max_threads, runs - 1) threads; keeps the lowest-indexed
  /// differing runs (without options.scratch) and the lowest-indexed failure,
  /// as a serial loop would.
  void run_rest_in_parallel(const CompiledProgram& compiled, const BufferSet& inputs,
                            const Grid& grid, uint32_t runs, uint32_t max_threads,
                            const BatchOptions& options, BatchOutcome& outcome) {
    const uint32_t reported = options.reported_differing;
    if (runs <= 1) return;
    const auto by_run = [](const DifferingRun& a, const DifferingRun& b) { return a.run < b.run; };
    std::mutex mutex;
    std::vector<DifferingRun> differing;  // The lowest-indexed, at most `reported`.
    uint32_t differing_runs = 0;
    std::optional<std::pair<uint32_t, DispatchOutcome>> failure;
    parallel_for(runs - 1, max_threads, [&](size_t i) {
      const uint32_t run = static_cast<uint32_t>(i + 1);
      DispatchOutcome one = interpret(compiled, inputs, grid, /*checks=*/false);
      const bool same = one.status == Status::Ok &&
                        same_judged_outputs(outcome.first_outputs, one.outputs, options);
      std::lock_guard lock(mutex);
      ++outcome.dispatches;
      if (one.status != Status::Ok) {
        if (!failure || run < failure->first) failure.emplace(run, std::move(one));
      } else if (!same) {
        ++differing_runs;
        for (const std::string& name : options.scratch) one.outputs.erase(name);
        differing.push_back({run, std::move(one.outputs)});
        std::sort(differing.begin(), differing.end(), by_run);
        if (differing.size() > reported) differing.pop_back();
      }
      return true;
    });
    if (failure) {
      outcome.status = failure->second.status;
      outcome.message = std::move(failure->second.message);
      outcome.failed_run = failure->first;
      outcome.first_outputs.clear();
    }
    outcome.differing_runs = differing_runs;
    outcome.differing = std::move(differing);
  }

  uint32_t host_threads_;
};

}  // namespace

std::unique_ptr<Backend> make_reference_backend(const BackendOptions& options) {
  return std::make_unique<ReferenceBackend>(options.host_threads);
}

}  // namespace vyre
