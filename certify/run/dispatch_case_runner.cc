#include "certify/run/dispatch_case_runner.h"

#include <algorithm>
#include <map>

#include "certify/run/run_judge.h"
#include "reference/interpreter.h"

namespace vyre::certify {
namespace {

using Clock = RunClock::Clock;

/// One way of running a single-dispatch case.
struct Variant {
  std::string label;
  TestCase test_case;
  /// Outputs start as the case gives them (not poisoned), so the case's own
  /// byte expectation, when it has one, applies.
  bool outputs_as_given = true;
};

/// True when every byte of a ReadWrite buffer's initial contents is zero, so
/// the buffer is a pure output and may be poisoned.
bool is_pure_output(const ByteBuffer& b) {
  return std::all_of(b.begin(), b.end(), [](uint8_t byte) { return byte == 0; });
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
std::optional<TestCase> poisoned(const DispatchCase& d, TestCase tc, uint8_t poison) {
  bool any = false;
  for (const BufferDecl& b : tc.program.buffers) {
    if (b.access != BufferAccess::ReadWrite) continue;
    auto it = tc.inputs.find(b.name);
    if (it == tc.inputs.end() || it->second.empty()) continue;
    bool listed = d.poisonable && std::find(d.poisonable->begin(), d.poisonable->end(), b.name) !=
                                      d.poisonable->end();
    if (d.poisonable ? !listed : !is_pure_output(it->second)) continue;
    std::fill(it->second.begin(), it->second.end(), poison);
    any = true;
  }
  if (!any) return std::nullopt;
  return tc;
}

std::vector<Variant> variants_of(const DispatchCase& d, const CaseRunOptions& o) {
  const TestCase& base = d.test_case;
  std::vector<uint32_t> sizes = {base.program.workgroup_size[0]};
  if (d.resizable) {
    sizes = {1, 64, o.preferred_workgroup_size};
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  }
  uint64_t invocations = uint64_t{base.program.workgroup_size[0]} * base.grid.workgroups[0];
  std::vector<Variant> out;
  for (uint32_t size : sizes) {
    TestCase sized = base;
    if (d.resizable) {
      sized.program.workgroup_size = {size, 1, 1};
      sized.grid.workgroups = {static_cast<uint32_t>((invocations + size - 1) / size), 1, 1};
    }
    std::string where = describe_shape(sized);
    out.push_back({where + " outputs=as-given", sized, true});
    if (auto p = poisoned(d, std::move(sized), o.poison)) {
      out.push_back({where + " outputs=poisoned", std::move(*p), false});
    }
  }
  if (d.spare_workgroups != std::array<uint32_t, 3>{0, 0, 0}) {
    // Over-dispatched: the extra invocations must leave every output alone,
    // so outputs are poisoned where the case allows it.
    TestCase wide = base;
    for (int axis = 0; axis < 3; ++axis) wide.grid.workgroups[axis] += d.spare_workgroups[axis];
    std::string where = describe_shape(wide);
    if (auto p = poisoned(d, wide, o.poison)) {
      out.push_back({where + " outputs=poisoned", std::move(*p), false});
    } else {
      out.push_back({where + " outputs=as-given", std::move(wide), true});
    }
  }
  return out;
}

/// The expectation a backend's runs of `v` are judged against, from the
/// reference interpreter, which must itself meet the case's own expectation
/// where one applies; nullopt after recording an invalid case in `r`.
std::optional<TestCase> expectation_of(const SuiteCase& c, const Variant& v, CaseResult& r) {
  const TestCase& tc = v.test_case;
  auto ref_start = Clock::now();
  auto ref = reference::run(tc.program, tc.inputs, tc.grid);
  r.reference_us += RunClock::micros_since(ref_start);
  if (!ref.ok()) {
    record_failure(r, Verdict::InvalidCase,
                   "the reference rejects the case: " + ref.error().message, v.label, tc.inputs, {},
                   {}, std::nullopt, nullptr);
    return std::nullopt;
  }
  if (!ref->conforming()) {
    record_failure(r, Verdict::InvalidCase,
                   "the case program is not conforming: " + ref->violations.front().message,
                   v.label, tc.inputs, {}, {}, std::nullopt, nullptr);
    return std::nullopt;
  }
  // A byte expectation describes the outputs as given; a canonical one
  // (graph.bfs findings) holds whatever the outputs start as.
  const bool own_applies =
      tc.expected && (tc.comparison != Comparison::Bytes || v.outputs_as_given);
  if (own_applies) {
    Judgement j = judge_outputs(tc, ref->outputs);
    if (j.difference) {
      record_failure(r, Verdict::InvalidCase,
                     "the reference interpreter disagrees with the case's expectation (" +
                         c.oracle + "): " + *j.difference,
                     v.label, tc.inputs, *tc.expected, j.canonical ? *j.canonical : ref->outputs,
                     std::nullopt, nullptr);
      return std::nullopt;
    }
  }
  TestCase expectation = tc;
  expectation.name = c.id;
  if (tc.comparison == Comparison::Bytes) expectation.expected = std::move(ref->outputs);
  return expectation;
}

}  // namespace

void run_dispatch_case(Backend& backend, const SuiteCase& c, const DispatchCase& d,
                       const CaseRunOptions& o, const ReproWriter& write_repro, CaseResult& r) {
  std::vector<Variant> variants = variants_of(d, o);
  r.variants = static_cast<uint32_t>(variants.size());
  std::map<std::array<uint32_t, 3>, std::shared_ptr<const CompiledProgram>> compiled;
  for (const Variant& v : variants) {
    // The repro of a failure of this variant is its expectation: the
    // variant's inputs, expecting what the judge compares against.
    std::optional<TestCase> expectation = expectation_of(c, v, r);
    if (!expectation) return;
    const BufferSet& inputs = v.test_case.inputs;
    // What runs are judged against and a failure shows as expected: the
    // reference's bytes, or the case's canonical expectation.
    const BufferSet& expected = *expectation->expected;

    auto& program = compiled[v.test_case.program.workgroup_size];
    if (!program) {
      auto compile_start = Clock::now();
      CompileOutcome out = backend.compile(v.test_case.program);
      r.compile_us += RunClock::micros_since(compile_start);
      if (out.status != Status::Ok || !out.program) {
        Verdict verdict = out.status == Status::Ok ? Verdict::BadOutput : verdict_of(out.status);
        record_failure(r, verdict, "compile: " + out.message, v.label, inputs, expected, {},
                       expectation, write_repro);
        return;
      }
      program = out.program;
    }

    RunJudge judge(*expectation, expected);
    for (uint32_t run = 0; run < o.runs; ++run) {
      auto start = Clock::now();
      DispatchOutcome out = backend.dispatch(*program, inputs, v.test_case.grid);
      r.backend_us += RunClock::micros_since(start);
      ++r.dispatches;
      std::string where = v.label + " run=" + std::to_string(run + 1);
      if (out.status != Status::Ok) {
        record_failure(r, verdict_of(out.status), "dispatch: " + out.message, where, inputs,
                       expected, {}, expectation, write_repro);
        return;
      }
      BufferSet shown;
      std::optional<std::string> diff = judge.judge(out.outputs, shown);
      r.distinct_outputs = std::max(r.distinct_outputs, judge.distinct_outputs());
      if (diff) {
        record_failure(r, Verdict::Fail, *diff, where, inputs, expected, shown, expectation,
                       write_repro);
        return;
      }
    }
  }
  r.verdict = Verdict::Pass;
}

}  // namespace vyre::certify
