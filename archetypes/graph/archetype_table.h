// The graph archetypes of seed 001 and pinned spec section 7, listed once:
// each a named input with its expected verdict written from the spec (the
// findings are worked out by hand in archetype_graphs.cc, never computed by
// the code under test).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "archetypes/graph/bfs_dispatch.h"
#include "backends/backend.h"
#include "reference/graph/csr_graph.h"
#include "reference/graph/finding.h"

namespace vyre::archetypes {

/// One archetype's input and the verdict the spec requires of it.
struct GraphInstance {
  /// node_data holds graph.bfs labels (role in bits 16..23).
  graph::CsrGraph graph;
  std::vector<uint32_t> sources;
  bfs::BfsParams params;
  /// The full graph.bfs finding set (past max_findings too), any order.
  std::vector<graph::Finding> expected;
  /// graph.bfs queue_overflow count.
  uint32_t expected_queue_overflow = 0;
  /// The dataflow engine's findings where its contract differs from graph.bfs
  /// (no frontier queue, no finding cap, sanitizers block entry instead of
  /// exit); nullopt means "the same set as `expected`".
  std::optional<std::vector<graph::Finding>> engine_expected;
  /// Device limits the input is checked against, for the resource archetypes.
  std::optional<Capabilities> limits;
  /// When set, prepare_bfs must fail and its message must contain this.
  std::optional<std::string> expected_error;
};

/// One row of the table.
struct GraphArchetype {
  std::string_view name;
  /// What the archetype checks and why its expectation holds.
  std::string_view description;
  /// Builds the instance on demand (scale archetypes are large).
  GraphInstance (*build)();
};

/// Every graph archetype, in table order.
std::span<const GraphArchetype> graph_archetypes();

/// The archetype named `name`, or nullptr.
const GraphArchetype* find_graph_archetype(std::string_view name);

}  // namespace vyre::archetypes
