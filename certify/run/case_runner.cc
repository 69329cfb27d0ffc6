#include "certify/run/case_runner.h"

#include "certify/run/case_expectations.h"
#include "certify/run/dispatch_case_runner.h"
#include "certify/run/host_case_runner.h"

namespace vyre::certify {
namespace {

/// What a failure without a repro file tells its reader: how its inputs are
/// generated (the report keeps at most a prefix of large buffers) and the
/// command that rebuilds and reruns exactly this case.
std::string rerun_note(const Backend& backend, const SuiteCase& c) {
  std::string note = "no repro file";
  if (!c.input_recipe.generator.empty()) note += "; inputs: " + c.input_recipe.generator;
  note += "; rerun: vyre-certify --backend " + backend.name() + " --level " +
          std::string(name_of(c.level));
  if (c.input_recipe.seed) note += " --seed " + std::to_string(*c.input_recipe.seed);
  return note + " --filter " + c.id;
}

}  // namespace

CaseResult run_case(Backend& backend, const SuiteCase& c, const CaseRunOptions& options,
                    const ReproWriter& write_repro, const CaseExpectations* expectations) {
  CaseResult r;
  r.id = c.id;
  r.level = c.level;
  r.oracle = c.oracle;
  r.runs_per_variant = options.runs;
  if (options.runs == 0) {
    r.verdict = Verdict::Error;
    r.message = "zero runs requested: nothing would be checked";
    return r;
  }
  std::optional<CaseExpectations> own;
  if (!expectations) expectations = &own.emplace(compute_expectations(c, options));
  r.reference_us = expectations->reference_us;
  r.compile_us = expectations->compile_us;
  if (std::holds_alternative<DispatchCase>(c.body)) {
    run_dispatch_case(backend, *expectations, options, write_repro, r);
  } else {
    run_host_case(backend, std::get<HostCase>(c.body), *expectations, options, r);
  }
  if (r.dispatches != 0) r.per_dispatch_us /= static_cast<double>(r.dispatches);
  if (r.failure && r.failure->repro.empty()) {
    r.message += " (" + rerun_note(backend, c) + ")";
  }
  if (r.verdict == Verdict::Pass) {
    r.message = "identical to the reference on " + std::to_string(r.variants) + " variant(s) x " +
                std::to_string(options.runs) + " run(s)";
  }
  return r;
}

}  // namespace vyre::certify
