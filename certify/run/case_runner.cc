#include "certify/run/case_runner.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <string_view>

#include "backends/reference_backend.h"
#include "certify/run/status_watch.h"
#include "reference/interpreter.h"

namespace vyre::certify {
namespace {

using Clock = std::chrono::steady_clock;

uint64_t micros_since(Clock::time_point start) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count());
}

/// One way of running a single-dispatch case.
struct Variant {
  std::string label;
  TestCase test_case;
};

uint32_t word_at(const ByteBuffer& b, uint64_t word) {
  uint32_t v = 0;
  for (uint64_t i = 0; i < 4; ++i) {
    uint64_t at = word * 4 + i;
    if (at < b.size()) v |= static_cast<uint32_t>(b[at]) << (8 * i);
  }
  return v;
}

/// True when every byte of a ReadWrite buffer's initial contents is zero, so
/// the buffer is a pure output and may be poisoned.
bool is_pure_output(const ByteBuffer& b) {
  for (uint8_t byte : b) {
    if (byte != 0) return false;
  }
  return true;
}

std::string describe_shape(const TestCase& tc) {
  const auto& wg = tc.program.workgroup_size;
  const auto& grid = tc.grid.workgroups;
  return "workgroup_size=" + std::to_string(wg[0]) + "x" + std::to_string(wg[1]) + "x" +
         std::to_string(wg[2]) + " grid=" + std::to_string(grid[0]) + "x" +
         std::to_string(grid[1]) + "x" + std::to_string(grid[2]);
}

/// `tc` with its pure-output buffers filled with the poison byte; nullopt when
/// it has none.
std::optional<TestCase> poisoned(const SuiteCase& c, TestCase tc, uint8_t poison) {
  bool any = false;
  for (const BufferDecl& b : tc.program.buffers) {
    if (b.access != BufferAccess::ReadWrite) continue;
    auto it = tc.inputs.find(b.name);
    if (it == tc.inputs.end() || it->second.empty()) continue;
    bool listed = c.poisonable && std::find(c.poisonable->begin(), c.poisonable->end(), b.name) !=
                                      c.poisonable->end();
    if (c.poisonable ? !listed : !is_pure_output(it->second)) continue;
    std::fill(it->second.begin(), it->second.end(), poison);
    any = true;
  }
  if (!any) return std::nullopt;
  return tc;
}

std::vector<Variant> variants_of(const SuiteCase& c, const CaseRunOptions& o) {
  const TestCase& base = *c.test_case;
  std::vector<uint32_t> sizes = {base.program.workgroup_size[0]};
  if (c.resizable) {
    sizes = {1, 64, o.preferred_workgroup_size};
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  }
  uint64_t invocations = uint64_t{base.program.workgroup_size[0]} * base.grid.workgroups[0];
  std::vector<Variant> out;
  for (uint32_t size : sizes) {
    TestCase sized = base;
    if (c.resizable) {
      sized.program.workgroup_size = {size, 1, 1};
      sized.grid.workgroups = {static_cast<uint32_t>((invocations + size - 1) / size), 1, 1};
    }
    std::string where = describe_shape(sized);
    out.push_back({where + " outputs=as-given", sized});
    if (auto p = poisoned(c, std::move(sized), o.poison)) {
      out.push_back({where + " outputs=poisoned", std::move(*p)});
    }
  }
  if (c.spare_workgroups != std::array<uint32_t, 3>{0, 0, 0}) {
    // Over-dispatched: the extra invocations must leave every output alone,
    // so outputs are poisoned where the case allows it.
    TestCase wide = base;
    for (int axis = 0; axis < 3; ++axis) wide.grid.workgroups[axis] += c.spare_workgroups[axis];
    std::string where = describe_shape(wide);
    if (auto p = poisoned(c, wide, o.poison)) {
      out.push_back({where + " outputs=poisoned", std::move(*p)});
    } else {
      out.push_back({where + " outputs=as-given", std::move(wide)});
    }
  }
  return out;
}

/// Identifies an output for the distinct-output count without keeping it:
/// a nondeterministic backend may return a different 128 MiB buffer on
/// every run.
uint64_t digest(const BufferSet& outputs) {
  uint64_t h = 0;
  for (const auto& [name, bytes] : outputs) {
    std::string_view view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    h = h * 0x9E3779B97F4A7C15ull ^ std::hash<std::string_view>{}(name);
    h = h * 0x9E3779B97F4A7C15ull ^ std::hash<std::string_view>{}(view);
  }
  return h;
}

BufferSet canonical(const SuiteCase& c, const BufferSet& b) {
  return c.canonicalize ? c.canonicalize(b) : b;
}

std::optional<std::string> compare(const SuiteCase& c, const BufferSet& expected,
                                   const BufferSet& observed) {
  if (c.compare) return c.compare(expected, observed);
  if (expected == observed) return std::nullopt;
  return std::string("outputs differ from the reference");
}

/// Judges the runs of one variant against its expected bytes and counts the
/// distinct outputs among them.
class RunJudge {
 public:
  RunJudge(const SuiteCase& c, const BufferSet& expected) : c_(c), expected_(expected) {}

  /// Why one run's outputs fail, with those outputs (canonical) in
  /// `observed`; nullopt when they pass.
  std::optional<std::string> judge(const BufferSet& outputs, BufferSet& observed) {
    std::optional<BufferSet> canonicalized;
    if (c_.canonicalize) canonicalized = c_.canonicalize(outputs);
    const BufferSet& got = canonicalized ? *canonicalized : outputs;
    // Outputs identical to the expected ones share its digest, computed
    // once: hashing a 128 MiB output on each of 100 runs would cost more
    // than the dispatches.
    const bool identical = got == expected_;
    distinct_.insert(identical ? expected_digest() : digest(got));
    if (identical && !c_.compare) return std::nullopt;
    std::optional<std::string> diff = compare(c_, expected_, got);
    if (!diff) return std::nullopt;
    if (distinct_.size() > 1) *diff += " (runs disagree: nondeterministic)";
    observed = canonicalized ? std::move(*canonicalized) : outputs;
    return diff;
  }

  uint32_t distinct_outputs() const { return static_cast<uint32_t>(distinct_.size()); }

 private:
  uint64_t expected_digest() {
    if (!expected_digest_) expected_digest_ = digest(expected_);
    return *expected_digest_;
  }

  const SuiteCase& c_;
  const BufferSet& expected_;
  std::optional<uint64_t> expected_digest_;
  std::set<uint64_t> distinct_;
};

std::string describe(const FirstDifference& d) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "buffer `%s` word %llu: expected 0x%08x, observed 0x%08x",
                d.buffer.c_str(), static_cast<unsigned long long>(d.word), d.expected, d.observed);
  return buf;
}

/// Fills `r` as a failure of `variant` run on `inputs`, and writes `repro`
/// when there is one.
void fail(CaseResult& r, Verdict verdict, std::string message, const std::string& variant,
          const BufferSet& inputs, const BufferSet& expected, const BufferSet& observed,
          std::optional<Repro> repro, const ReproWriter& write_repro) {
  r.verdict = verdict;
  r.message = std::move(message);
  Failure f;
  f.variant = variant;
  f.inputs = inputs;
  f.expected = expected;
  f.observed = observed;
  // Only where outputs were compared: an error or a refused compile returned
  // none, and "missing, expected 0 observed 0" would mislead.
  if (verdict == Verdict::Fail || !observed.empty()) {
    f.first_difference = first_difference(expected, observed);
    if (f.first_difference) f.detail = describe(*f.first_difference);
  }
  if (repro && write_repro) f.repro = write_repro(*repro);
  r.failure = std::move(f);
}

void run_single_dispatch(Backend& backend, const SuiteCase& c, const CaseRunOptions& o,
                         const ReproWriter& write_repro, CaseResult& r) {
  std::vector<Variant> variants = variants_of(c, o);
  r.variants = static_cast<uint32_t>(variants.size());
  std::map<std::array<uint32_t, 3>, std::shared_ptr<const CompiledProgram>> compiled;
  for (const Variant& v : variants) {
    // Expected bytes: the reference interpreter, which must itself agree with
    // a hand-written expectation when the case has one.
    auto ref_start = Clock::now();
    auto ref = reference::run(v.test_case.program, v.test_case.inputs, v.test_case.grid);
    r.reference_us += micros_since(ref_start);
    if (!ref.ok()) {
      fail(r, Verdict::InvalidCase, "the reference rejects the case: " + ref.error().message,
           v.label, v.test_case.inputs, {}, {}, std::nullopt, nullptr);
      return;
    }
    if (!ref->conforming()) {
      fail(r, Verdict::InvalidCase,
           "the case program is not conforming: " + ref->violations.front().message, v.label,
           v.test_case.inputs, {}, {}, std::nullopt, nullptr);
      return;
    }
    BufferSet expected = canonical(c, ref->outputs);
    // The repro of a failure of this variant: its inputs, expecting what
    // replay compares against (the reference's bytes, or the case's own
    // expectation where outputs are compared canonically).
    Repro repro{v.test_case, c.replay};
    repro.test_case.name = r.id;
    repro.test_case.expected =
        c.replay == ReplayComparison::Bytes ? ref->outputs : c.replay_expected;
    if (c.compare && !v.test_case.expected) {
      // A comparator that judges against the case's own hand-computed
      // expectation must accept the reference's outputs first.
      if (auto diff = c.compare(expected, expected)) {
        fail(r, Verdict::InvalidCase,
             "the reference interpreter disagrees with the hand-computed expectation: " + *diff,
             v.label, v.test_case.inputs, {}, expected, std::nullopt, nullptr);
        return;
      }
    }
    if (v.test_case.expected && v.label.ends_with("as-given")) {
      BufferSet table = canonical(c, *v.test_case.expected);
      if (auto diff = compare(c, table, expected)) {
        fail(r, Verdict::InvalidCase,
             "the reference interpreter disagrees with the spec table: " + *diff, v.label,
             v.test_case.inputs, table, expected, std::nullopt, nullptr);
        return;
      }
    }

    auto& program = compiled[v.test_case.program.workgroup_size];
    if (!program) {
      auto compile_start = Clock::now();
      CompileOutcome out = backend.compile(v.test_case.program);
      r.compile_us += micros_since(compile_start);
      if (out.status != Status::Ok || !out.program) {
        Verdict verdict = out.status == Status::Ok ? Verdict::BadOutput : verdict_of(out.status);
        fail(r, verdict, "compile: " + out.message, v.label, v.test_case.inputs, expected, {},
             repro, write_repro);
        return;
      }
      program = out.program;
    }

    RunJudge judge(c, expected);
    for (uint32_t run = 0; run < o.runs; ++run) {
      auto start = Clock::now();
      DispatchOutcome out = backend.dispatch(*program, v.test_case.inputs, v.test_case.grid);
      r.backend_us += micros_since(start);
      ++r.dispatches;
      std::string where = v.label + " run=" + std::to_string(run + 1);
      if (out.status != Status::Ok) {
        fail(r, verdict_of(out.status), "dispatch: " + out.message, where, v.test_case.inputs,
             expected, {}, repro, write_repro);
        return;
      }
      BufferSet observed;
      std::optional<std::string> diff = judge.judge(out.outputs, observed);
      r.distinct_outputs = std::max(r.distinct_outputs, judge.distinct_outputs());
      if (diff) {
        fail(r, Verdict::Fail, *diff, where, v.test_case.inputs, expected, observed, repro,
             write_repro);
        return;
      }
    }
  }
  r.verdict = Verdict::Pass;
}

/// The verdict of a host-driven failure: what the backend itself answered
/// when it answered anything but Ok, else the case's own status.
Verdict host_verdict(const StatusWatch& watch, Status own) {
  if (watch.first_failure()) return verdict_of(watch.first_failure()->status);
  return own == Status::Ok ? Verdict::Error : verdict_of(own);
}

/// The message of a host-driven failure: the case's, and the backend's own
/// answer when it differs.
std::string host_message(const StatusWatch& watch, const std::string& own) {
  if (!watch.first_failure() || own.find(watch.first_failure()->message) != std::string::npos) {
    return own;
  }
  return own + " (backend " + watch.first_failure()->message + ")";
}

/// The canonical outputs of one run of host-driven case `c` on `reference`;
/// on failure, fills `r` as an invalid case (the suite, not the backend under
/// test, is at fault) and returns nullopt.
std::optional<BufferSet> reference_run(Backend& reference, const SuiteCase& c, CaseResult& r) {
  auto start = Clock::now();
  HostPrepared prepared = c.host_driven(reference);
  std::optional<HostObservation> out;
  if (prepared.status == Status::Ok && prepared.run) out = prepared.run();
  r.reference_us += micros_since(start);
  std::string why = !out                        ? "prepare: " + prepared.message
                    : out->status != Status::Ok ? out->message
                                                : "";
  if (!why.empty()) {
    fail(r, Verdict::InvalidCase, "the reference backend cannot run the case: " + why, "reference",
         c.host_inputs, {}, {}, std::nullopt, nullptr);
    return std::nullopt;
  }
  return canonical(c, out->outputs);
}

// A host-driven case has no single dispatch to write as a case file: its
// failure carries the engine's inputs (SuiteCase::host_inputs) and no repro
// file; run_case's message names the command that reruns it. The engine owns
// its buffers and dispatch grids, so the case has one variant: the runs.
void run_host_driven(Backend& backend, const SuiteCase& c, const CaseRunOptions& o, CaseResult& r) {
  r.variants = 1;
  // Expected bytes: the reference backend's, which must itself agree with
  // the case's hand-computed or oracle expectation.
  std::unique_ptr<Backend> own_reference;
  if (!o.reference) own_reference = make_reference_backend(BackendOptions{});
  std::optional<BufferSet> reference =
      reference_run(o.reference ? *o.reference : *own_reference, c, r);
  if (!reference) return;
  const BufferSet oracle = canonical(c, c.host_expected);
  if (auto diff = compare(c, oracle, *reference)) {
    fail(r, Verdict::InvalidCase,
         "the reference backend disagrees with the case's expectation (" + c.oracle + "): " + *diff,
         "reference", c.host_inputs, oracle, *reference, std::nullopt, nullptr);
    return;
  }
  const BufferSet& expected = *reference;
  StatusWatch watch(backend);
  auto prepare_start = Clock::now();
  HostPrepared prepared = c.host_driven(watch);
  r.compile_us += micros_since(prepare_start);
  if (prepared.status != Status::Ok || !prepared.run) {
    fail(r, host_verdict(watch, prepared.status),
         "prepare: " + host_message(watch, prepared.message), "prepare", c.host_inputs, expected,
         {}, std::nullopt, nullptr);
    return;
  }
  RunJudge judge(c, expected);
  for (uint32_t run = 0; run < o.runs; ++run) {
    watch.forget();
    auto start = Clock::now();
    HostObservation out = prepared.run();
    r.backend_us += micros_since(start);
    ++r.dispatches;
    std::string where = "run=" + std::to_string(run + 1);
    if (out.status != Status::Ok) {
      fail(r, host_verdict(watch, out.status), host_message(watch, out.message), where,
           c.host_inputs, expected, {}, std::nullopt, nullptr);
      return;
    }
    BufferSet observed;
    std::optional<std::string> diff = judge.judge(out.outputs, observed);
    r.distinct_outputs = std::max(r.distinct_outputs, judge.distinct_outputs());
    if (diff) {
      fail(r, Verdict::Fail, *diff, where, c.host_inputs, expected, observed, std::nullopt,
           nullptr);
      return;
    }
  }
  r.verdict = Verdict::Pass;
}

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

std::optional<FirstDifference> first_difference(const BufferSet& expected,
                                                const BufferSet& observed) {
  for (const auto& [name, want] : expected) {
    auto it = observed.find(name);
    if (it == observed.end()) return FirstDifference{name + " (missing)", 0, 0, 0};
    const ByteBuffer& got = it->second;
    uint64_t words = (std::max(want.size(), got.size()) + 3) / 4;
    for (uint64_t w = 0; w < words; ++w) {
      bool in_both = w * 4 + 4 <= want.size() && w * 4 + 4 <= got.size();
      if (!in_both || word_at(want, w) != word_at(got, w)) {
        if (in_both || want.size() != got.size()) {
          return FirstDifference{name, w, word_at(want, w), word_at(got, w)};
        }
      }
    }
  }
  for (const auto& [name, got] : observed) {
    if (!expected.contains(name)) return FirstDifference{name + " (unexpected)", 0, 0, 0};
  }
  return std::nullopt;
}

CaseResult run_case(Backend& backend, const SuiteCase& c, const CaseRunOptions& options,
                    const ReproWriter& write_repro) {
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
  if (c.test_case) {
    run_single_dispatch(backend, c, options, write_repro, r);
  } else if (c.host_driven) {
    run_host_driven(backend, c, options, r);
  } else {
    r.verdict = Verdict::InvalidCase;
    r.message = "the case has neither a program nor a host-driven run";
  }
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
