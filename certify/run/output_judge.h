// The one judge of a run's outputs: the certification run and `vyre-certify
// run` both ask it whether observed outputs meet a case's expectation, under
// the comparison the case names (TestCase::comparison, the `compare` clause
// of the case grammar).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "certify/report/report.h"
#include "spec/ir/test_case.h"

namespace vyre::certify {

/// What the judge found in one run's outputs.
struct Judgement {
  /// Why the outputs fail the expectation; nullopt when they meet it.
  std::optional<std::string> difference;
  /// The observed outputs in the comparison's canonical form where it has
  /// one (graph.bfs: sorted findings, no scratch); nullopt where outputs are
  /// judged as observed (bytes), so a large output is never copied. What a
  /// report shows and what runs are told apart by.
  std::optional<BufferSet> canonical;
};

/// Judges `observed` against `expectation.expected` under
/// `expectation.comparison`; a case without `expected` cannot be judged and
/// fails with a message saying so.
Judgement judge_outputs(const TestCase& expectation, const BufferSet& observed);

/// The read_write buffers of `expectation`'s program whose bytes the judge
/// never reads (BatchOptions::scratch): under a comparison other than
/// Bytes, those neither expected nor read by the comparison itself
/// (graph.bfs: visited_set and bfs_queue); none under Bytes, where every
/// output is judged, and none without `expected` (nothing says what is).
std::vector<std::string> unjudged_buffers(const TestCase& expectation);

/// Whether two runs' outputs of `c` are the same result under its comparison:
/// equal bytes, or for graph.bfs equal canonical findings (with an
/// expectation: both meeting it, since rows past max_findings may be any
/// admissible subset). What the reference's schedule probes compare.
bool same_result(const TestCase& c, const BufferSet& a, const BufferSet& b);

/// The first differing u32 word between two buffer sets (missing buffers and
/// length differences included); nullopt when equal.
std::optional<FirstDifference> first_difference(const BufferSet& expected,
                                                const BufferSet& observed);

/// "buffer `B` word W: expected 0x..., observed 0x...".
std::string describe(const FirstDifference& d);

/// Every way `observed` differs from `expected`, one indented line each (at
/// most `max_words_per_buffer` differing words listed per buffer); "" when
/// they are equal.
std::string listed_differences(const BufferSet& expected, const BufferSet& observed,
                               size_t max_words_per_buffer);

}  // namespace vyre::certify
