// A test case: a program, the grid it runs on, its inputs, and what to expect.
// The unit that case files, corpora, repros and the certification run share.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "spec/ir/encoding.h"
#include "spec/ir/host_abi.h"
#include "spec/ir/program.h"

namespace vyre {

/// How a case's outputs are judged against its expectation. Named in the
/// case file's `compare` clause (spec/text/GRAMMAR.md).
enum class Comparison : uint8_t {
  /// Every expected buffer byte for byte, and no other output.
  Bytes,
  /// graph.bfs findings in canonical form (pinned spec section 7): the
  /// expectation is the canonical full finding set; the order of findings,
  /// scratch buffers and the choice of rows past max_findings are the
  /// backend's.
  GraphBfs,
};

/// The `compare` clause's word for `c` ("bytes", "graph.bfs").
std::string_view name_of(Comparison c);

/// How a failure was dispatched, kept in its repro (the `batch` clause) so
/// that replaying and reducing it take the path it failed on: one
/// dispatch_runs call of `runs` runs spread over `submissions` submissions.
struct BatchDispatch {
  uint32_t runs = 1;
  uint32_t submissions = 1;
  /// The run that failed, from 1 (run 1 is the one judged against the
  /// expectation; a later one differed from it); 0 when not known.
  uint32_t failed_run = 0;
  bool operator==(const BatchDispatch&) const = default;
};

/// One runnable case.
struct TestCase {
  std::string name;
  Program program;
  Grid grid;
  /// Every non-workgroup buffer's initial bytes.
  BufferSet inputs;
  /// Expected ReadWrite buffers; nullopt means "the reference interpreter's output".
  std::optional<BufferSet> expected;
  /// How outputs are judged against `expected`.
  Comparison comparison = Comparison::Bytes;
  /// Dispatched as a batch of runs (a repro of a failure on that path);
  /// nullopt: one dispatch.
  std::optional<BatchDispatch> batch = {};
  /// The encoding the backend compiles the program in (the `encoding`
  /// clause); a backend without it reports the case not supported.
  Encoding encoding = Encoding::AsEmitted;
};

}  // namespace vyre
