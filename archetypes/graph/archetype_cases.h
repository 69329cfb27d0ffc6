// The graph archetypes as runnable vyre::TestCase values, so a certification
// run can put graph.bfs on any backend, with what it needs to judge the
// outputs: graph.bfs outputs are compared in canonical form (sorted written
// findings, finding_count, queue_overflow), never as raw bytes.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "archetypes/graph/archetype_table.h"
#include "archetypes/graph/bfs_dispatch.h"
#include "spec/ir/test_case.h"
#include "spec/support/result.h"

namespace vyre::archetypes {

/// One archetype ready to run.
struct GraphCase {
  /// Name "graph.bfs/<archetype>", the graph.bfs program, grid and inputs.
  /// `expected` is nullopt: raw outputs depend on the schedule.
  TestCase test_case;
  bfs::BfsDispatch dispatch;
  /// The canonical outputs the spec requires (see expected_bfs_outputs).
  BufferSet canonical_expected;

  /// Canonical form of a run's raw outputs; empty when they are malformed
  /// (which compare() then reports).
  BufferSet canonicalize(const BufferSet& raw_outputs) const;
  /// First difference between canonical_expected and canonical observed
  /// outputs, or nullopt (pinned spec section 7's rule past max_findings).
  std::optional<std::string> compare(const BufferSet& canonical_observed) const;
};

/// A graph.bfs case named "graph.bfs/<name>" whose full finding set is
/// `expected` (any order) with `expected_queue_overflow` nodes dropped; for
/// archetypes and generated graphs alike. Errors: prepare_bfs rejects the
/// input (checked against `limits` when given).
Result<GraphCase> make_bfs_case(const std::string& name, const graph::CsrGraph& graph,
                                std::span<const uint32_t> sources, const bfs::BfsParams& params,
                                std::vector<graph::Finding> expected,
                                uint32_t expected_queue_overflow,
                                const Capabilities* limits = nullptr);

/// The case of one archetype. Error: the archetype expects a rejection
/// (expected_error) or its input fails prepare_bfs.
Result<GraphCase> make_graph_case(const GraphArchetype& archetype);

/// Every archetype that dispatches (all but the rejection cases), in table
/// order. An error means an archetype is broken, an internal defect.
Result<std::vector<GraphCase>> graph_cases();

}  // namespace vyre::archetypes
