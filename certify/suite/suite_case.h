// One case of the certification suite: a single-dispatch TestCase or a
// host-driven run (several dispatches with host logic, e.g. the dataflow
// engine), at a level, with how its outputs are compared.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "certify/suite/level.h"
#include "certify/suite/replay_comparison.h"
#include "spec/ir/test_case.h"

namespace vyre::certify {

/// What a host-driven case observed on a backend.
struct HostObservation {
  Status status = Status::Error;
  std::string message;
  /// Canonical output bytes (already sorted where the spec says so).
  BufferSet outputs;
};

/// How a case's inputs are generated, so that a failure whose inputs no repro
/// file can hold (past the case format's data limit, or a host-driven case)
/// can still be rebuilt exactly: the same suite and seed rebuild the same bytes.
struct InputRecipe {
  /// The generator and its parameters, e.g. "gen::rmat_graph(scale 12, edge
  /// factor 8) with 64 gen::rmat_sources".
  std::string generator;
  /// The --seed the inputs are drawn from; nullopt when they do not depend on it.
  std::optional<uint64_t> seed;
};

/// A host-driven case prepared on one backend.
struct HostPrepared {
  /// Not Ok: the case cannot run there (e.g. a program the backend rejects).
  Status status = Status::Error;
  std::string message;
  /// One full run; called once per requested run.
  std::function<HostObservation()> run;
};

/// Turns outputs into their canonical form before comparison (e.g. sorting
/// graph findings); identity when empty.
using Canonicalizer = std::function<BufferSet(const BufferSet&)>;

/// Compares canonical expected (the reference's) and observed outputs where
/// byte equality is too strict (e.g. findings past max_findings); returns a
/// description of the first difference, or nullopt when they agree. It may
/// judge `observed` against the case's own hand-written expectation instead:
/// the runner also applies it to the reference's outputs, so a reference that
/// disagrees with the spec makes the case invalid. Byte equality when empty.
using Comparator =
    std::function<std::optional<std::string>(const BufferSet& expected, const BufferSet& observed)>;

/// One suite case.
struct SuiteCase {
  /// Stable id, e.g. "L1/binop/add"; --filter globs match it.
  std::string id;
  Level level = Level::L1;
  /// What the expected value comes from (pinned spec section 8 vocabulary):
  /// "spec table", "reference interpreter", "CPU oracle", ...
  std::string oracle;

  /// Single-dispatch case. Its `expected`, when set, is hand-written and is
  /// checked against the reference interpreter before the backend runs.
  std::optional<TestCase> test_case;
  /// The program guards on invocation_id.x < N with a 1-D grid, so it may be
  /// re-run at other workgroup sizes (1, 64, the device's preferred size).
  bool resizable = false;
  /// Workgroups per axis the program's guard makes inert (invocations past
  /// the work return at once). Nonzero adds a variant dispatched with that
  /// many extra workgroups, so a backend is also judged at other dispatch
  /// dimensions than the exact one.
  std::array<uint32_t, 3> spare_workgroups = {0, 0, 0};
  /// ReadWrite buffers that are pure outputs and get a poisoned variant;
  /// nullopt: every ReadWrite buffer whose given contents are all zero.
  std::optional<std::vector<std::string>> poisonable;

  /// Host-driven case: prepares on a backend once (compiles its programs) and
  /// returns the run the runner repeats; `host_expected` holds the canonical
  /// expected outputs, from an oracle independent of the backend. The runner
  /// also runs it once on the reference backend, which must agree with
  /// `host_expected`, and judges the backend against the reference's outputs.
  std::function<HostPrepared(Backend&)> host_driven;
  BufferSet host_expected;
  /// A host-driven case's input as named u32 buffers (graph, sources,
  /// parameters), recorded in the report when the case fails.
  BufferSet host_inputs;
  /// How the inputs are generated; a failure without a repro file names it
  /// and the command that reruns the case.
  InputRecipe input_recipe;

  Canonicalizer canonicalize;
  Comparator compare;
  /// How a repro of this case is judged when replayed (`vyre-certify run`),
  /// and, for GraphBfs, what it expects: the canonical full finding set
  /// (`compare`'s own expectation). Bytes repros expect the reference's bytes.
  ReplayComparison replay = ReplayComparison::Bytes;
  BufferSet replay_expected;
};

/// A case that cannot pass, standing in for one the suite failed to build
/// (an internal defect): it stays visible in the report as an error naming
/// `why` instead of silently leaving its level smaller.
inline SuiteCase broken_case(std::string id, Level level, std::string why) {
  SuiteCase c;
  c.id = std::move(id);
  c.level = level;
  c.oracle = "none: the case could not be built";
  c.host_driven = [why = "internal error: " + std::move(why)](Backend&) {
    return HostPrepared{Status::Error, why, {}};
  };
  return c;
}

}  // namespace vyre::certify
