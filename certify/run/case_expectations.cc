#include "certify/run/case_expectations.h"

#include <algorithm>
#include <memory>

#include "backends/reference_backend.h"
#include "certify/run/output_judge.h"
#include "certify/run/run_clock.h"
#include "reference/interpreter.h"
#include "spec/support/parallel_for.h"

namespace vyre::certify {
namespace {

/// A variant whose reference took this long has its case's remaining
/// variants computed side by side (variant_expectations).
constexpr uint64_t kSideBySideVariantUs = 20'000;

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

}  // namespace

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
  std::vector<Encoding> encodings;
  if (d.every_encoding) {
    encodings = o.encodings;
  } else if (d.encoding_variant && !o.encodings.empty()) {
    encodings = {o.encodings[*d.encoding_variant % o.encodings.size()]};
  }
  for (Encoding encoding : encodings) {
    // Another legal lowering of the same program: its bytes are the
    // reference's for the case as given, and a failure names the encoding.
    TestCase encoded = base;
    encoded.encoding = encoding;
    std::string where = describe_shape(encoded) +
                        " outputs=as-given encoding=" + std::string(name_of(encoded.encoding));
    out.push_back({std::move(where), std::move(encoded), true});
  }
  return out;
}

namespace {

/// The expectation of variant `v`: the reference interpreter's outputs, which
/// must themselves meet the case's own expectation where one applies.
VariantExpectation expectation_of(const SuiteCase& c, Variant v, unsigned threads) {
  VariantExpectation out;
  const TestCase& tc = v.test_case;
  const auto invalid = [&](std::string message, BufferSet expected = {}, BufferSet observed = {}) {
    out.invalid = InvalidCase{std::move(message), v.label, tc.inputs, std::move(expected),
                              std::move(observed)};
  };
  reference::RunOptions options;
  options.probe_threads = threads;
  // Outputs judged canonically (graph.bfs) may differ byte-wise between
  // schedules; the probes ask whether the result does.
  options.same_result = [&tc](const BufferSet& a, const BufferSet& b) {
    return same_result(tc, a, b);
  };
  auto ref = reference::run(tc.program, tc.inputs, tc.grid, options);
  if (!ref.ok()) {
    invalid("the reference rejects the case: " + ref.error().message);
  } else if (!ref->conforming()) {
    invalid("the case program is not conforming: " + ref->violations.front().message);
  } else {
    // A byte expectation describes the outputs as given; a canonical one
    // (graph.bfs findings) holds whatever the outputs start as.
    const bool own_applies =
        tc.expected && (tc.comparison != Comparison::Bytes || v.outputs_as_given);
    Judgement j;
    if (own_applies) j = judge_outputs(tc, ref->outputs);
    if (j.difference) {
      invalid("the reference interpreter disagrees with the case's expectation (" + c.oracle +
                  "): " + *j.difference,
              *tc.expected, j.canonical ? std::move(*j.canonical) : std::move(ref->outputs));
    } else {
      TestCase expectation = tc;
      expectation.name = c.id;
      if (tc.comparison == Comparison::Bytes) expectation.expected = std::move(ref->outputs);
      out.expectation = std::move(expectation);
    }
  }
  out.variant = std::move(v);
  return out;
}

/// The expectations of `variants` in order, stopping at the first invalid
/// one. Most cases' variants take microseconds each and run one after
/// another; once one has taken kSideBySideVariantUs (the R-MAT graph cases:
/// seconds each), the rest run side by side on up to `threads`, since the
/// run's lanes wait for these few cases. Indices are taken in order and an
/// invalid variant stops the taking, so the list is the sequential one.
void variant_expectations(const SuiteCase& c, std::vector<Variant> variants, unsigned threads,
                          std::vector<VariantExpectation>& out) {
  size_t next = 0;
  bool long_one = false;
  while (next < variants.size() && !long_one) {
    const auto start = RunClock::Clock::now();
    out.push_back(expectation_of(c, std::move(variants[next++]), threads));
    if (out.back().invalid) return;
    long_one = RunClock::micros_since(start) >= kSideBySideVariantUs;
  }
  std::vector<std::optional<VariantExpectation>> rest(variants.size() - next);
  parallel_for(rest.size(), std::max(threads, 1u), [&](size_t i) {
    rest[i] = expectation_of(c, std::move(variants[next + i]), threads);
    return !rest[i]->invalid;
  });
  for (std::optional<VariantExpectation>& e : rest) {
    out.push_back(std::move(*e));  // Set: only those after an invalid one stay unset.
    if (out.back().invalid) return;
  }
}

/// The reference backend's canonical outputs of one run of `h`, or why it
/// cannot give them.
void host_expectation(const SuiteCase& c, const HostCase& h, const CaseRunOptions& o,
                      CaseExpectations& out) {
  std::unique_ptr<Backend> own_reference;
  if (!o.reference) own_reference = make_reference_backend(BackendOptions{});
  Backend& reference = o.reference ? *o.reference : *own_reference;
  HostPrepared prepared = h.work->prepare(reference);
  std::optional<HostObservation> run;
  if (prepared.status == Status::Ok && prepared.run) run = prepared.run();
  const std::string why = !run                        ? "prepare: " + prepared.message
                          : run->status != Status::Ok ? run->message
                                                      : "";
  if (!why.empty()) {
    out.host_invalid = InvalidCase{
        "the reference backend cannot run the case: " + why, "reference", h.inputs, {}, {}};
    return;
  }
  TestCase oracle;
  oracle.expected = h.expected;
  if (Judgement j = judge_outputs(oracle, run->outputs); j.difference) {
    out.host_invalid = InvalidCase{"the reference backend disagrees with the case's expectation (" +
                                       c.oracle + "): " + *j.difference,
                                   "reference", h.inputs, h.expected, std::move(run->outputs)};
    return;
  }
  out.host_outputs = std::move(run->outputs);
}

}  // namespace

CaseExpectations compute_expectations(const SuiteCase& c, const CaseRunOptions& options) {
  const auto start = RunClock::Clock::now();
  CaseExpectations out;
  if (const auto* d = std::get_if<DispatchCase>(&c.body)) {
    variant_expectations(c, variants_of(*d, options), options.reference_threads, out.variants);
  } else {
    host_expectation(c, std::get<HostCase>(c.body), options, out);
  }
  out.reference_us = RunClock::micros_since(start);
  return out;
}

}  // namespace vyre::certify
