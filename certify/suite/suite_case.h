// One case of the certification suite, of one of two kinds: a single-dispatch
// case (one TestCase, run in variants) or a host-driven case (host logic
// around several dispatches, e.g. the dataflow engine). Both are plain data;
// how outputs are judged is named by the TestCase itself
// (TestCase::comparison) or is byte equality of canonical outputs.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "backends/backend.h"
#include "backends/hosted_work.h"
#include "certify/suite/level.h"
#include "spec/ir/test_case.h"

namespace vyre::certify {

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

/// A single-dispatch case: one program on one grid and input set, run in
/// variants (workgroup sizes, output initialisation, over-dispatch).
struct DispatchCase {
  /// The program, grid and inputs. `expected`, when set, is the case's own
  /// expectation (a hand-written spec table; for `Comparison::GraphBfs` the
  /// canonical full finding set), which the reference interpreter must meet
  /// before the backend runs; `comparison` says how outputs are judged.
  /// Byte-compared cases judge the backend against the reference's bytes.
  TestCase test_case;
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
  /// A failure of this case is reduced before it is reported
  /// (run/failure_reduction.h) and the reduced case written as a second
  /// repro; for cases whose program is free to change (L5's random programs).
  bool reduce_failures = false;
  /// For a metamorphic variant: the program it was rewritten from, with the
  /// expected bytes both must give. A failure writes it as a repro beside the
  /// variant's, so the report holds both programs.
  std::optional<TestCase> original;
  /// Runs once more (outputs as given) in another encoding of the backend
  /// (CaseRunOptions::encodings): number `*encoding_variant` modulo their
  /// count, so that a run's programs rotate through them. nullopt, or a
  /// backend with none: no such variant.
  std::optional<uint64_t> encoding_variant;
  /// Runs once more in each of the backend's encodings besides as-emitted
  /// (a driver-bug record's case: the bug may show in one encoding only).
  bool every_encoding = false;
};

/// What one run of a host-driven case observed on a backend: its status
/// and canonical output bytes (already sorted where the spec says so).
using HostObservation = HostedRun;

/// A host-driven case prepared on one backend; `run` makes one full run.
using HostPrepared = HostedPrepared;

/// A host-driven case: prepared on a backend once (its programs compiled),
/// then run `--runs` times, all through Backend::run_hosted (in an isolated
/// backend's child process, so no engine step is a round trip). The runner
/// also runs it on the reference backend, which must agree with `expected`,
/// and judges the backend against the reference's outputs byte for byte.
struct HostCase {
  /// Prepares the case on a backend. Registered when the case is built, so
  /// that a child process forked after the catalogue holds it.
  std::shared_ptr<const HostedWork> work;
  /// Canonical expected outputs, from an oracle independent of the backend.
  BufferSet expected;
  /// The input as named u32 buffers (graph, sources, parameters), recorded
  /// in the report when the case fails.
  BufferSet inputs;
};

/// The work of host-driven case `id`: `prepare`, registered under its id.
inline std::shared_ptr<const HostedWork> host_work(std::string id, HostedWork::Prepare prepare) {
  return std::make_shared<const HostedWork>(std::move(id), std::move(prepare));
}

/// One suite case.
struct SuiteCase {
  /// Stable id, e.g. "L1/binop/add"; --filter globs match it.
  std::string id;
  Level level = Level::L1;
  /// What the expected value comes from (pinned spec section 8 vocabulary):
  /// "spec table", "reference interpreter", "CPU oracle", ...
  std::string oracle;
  /// How the inputs are generated; a failure without a repro file names it
  /// and the command that reruns the case.
  InputRecipe input_recipe;
  /// The case itself.
  std::variant<DispatchCase, HostCase> body;
};

/// The single-dispatch body of `c`; null for a host-driven case.
inline const DispatchCase* dispatch_of(const SuiteCase& c) {
  return std::get_if<DispatchCase>(&c.body);
}

/// True when a failure of `c` is reduced before it is reported.
inline bool reduces_failures(const SuiteCase& c) {
  const DispatchCase* d = dispatch_of(c);
  return d != nullptr && d->reduce_failures;
}

/// The program a metamorphic variant `c` was rewritten from; null otherwise.
inline const TestCase* original_of(const SuiteCase& c) {
  const DispatchCase* d = dispatch_of(c);
  return d != nullptr && d->original ? &*d->original : nullptr;
}

/// A case that cannot pass, standing in for one the suite failed to build
/// (an internal defect): it stays visible in the report as an error naming
/// `why` instead of silently leaving its level smaller.
inline SuiteCase broken_case(std::string id, Level level, std::string why) {
  HostCase host;
  host.work = host_work(id, [why = "internal error: " + std::move(why)](Backend&) {
    return HostPrepared{Status::Error, why, {}};
  });
  return SuiteCase{std::move(id), level, "none: the case could not be built", {}, std::move(host)};
}

}  // namespace vyre::certify
