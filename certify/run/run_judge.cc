#include "certify/run/run_judge.h"

namespace vyre::certify {
namespace {

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

}  // namespace

std::optional<std::string> RunJudge::judge(const BufferSet& outputs, BufferSet& shown) {
  Judgement j = judge_outputs(expectation_, outputs);
  const BufferSet& got = j.canonical ? *j.canonical : outputs;
  // Outputs identical to the reference's share its digest, computed once:
  // hashing a 128 MiB output on each of 100 runs would cost more than the
  // dispatches. Bytes that met a byte comparison are the reference's
  // (the expectation of every byte-compared case), with no second compare.
  const bool identical = (!j.canonical && !j.difference) || got == reference_shown_;
  distinct_.insert(identical ? reference_digest() : digest(got));
  if (!j.difference) return std::nullopt;
  if (distinct_.size() > 1) *j.difference += " (runs disagree: nondeterministic)";
  shown = j.canonical ? std::move(*j.canonical) : outputs;
  return j.difference;
}

uint64_t RunJudge::reference_digest() {
  if (!reference_digest_) reference_digest_ = digest(reference_shown_);
  return *reference_digest_;
}

void record_failure(CaseResult& r, Verdict verdict, std::string message, const std::string& variant,
                    const BufferSet& inputs, const BufferSet& expected, const BufferSet& observed,
                    const std::optional<TestCase>& repro, const ReproWriter& write_repro) {
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

}  // namespace vyre::certify
