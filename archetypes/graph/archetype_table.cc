#include "archetypes/graph/archetype_table.h"

#include <array>

#include "archetypes/graph/archetype_graphs.h"

namespace vyre::archetypes {
namespace {

namespace a = graph_archetype;

constexpr std::array kArchetypes = {
    GraphArchetype{"empty_graph", "0 nodes, 0 edges, no sources: no findings", a::empty_graph},
    GraphArchetype{"single_node_self_loop",
                   "one source node with a self-loop: no finding (not a sink)",
                   a::single_node_self_loop},
    GraphArchetype{"single_node_self_loop_source_sink",
                   "one source+sink node with a self-loop: (s, s, 0) exactly once",
                   a::single_node_self_loop_source_sink},
    GraphArchetype{"complete_graph",
                   "K5, two sources, two sinks: every sink from every source at depth 1",
                   a::complete_graph},
    GraphArchetype{"chain", "10-node chain, max_depth 6: sinks at depths 3 and 6, not 9", a::chain},
    GraphArchetype{"star", "hub source, 8 spokes: sink spokes at depth 1", a::star},
    GraphArchetype{"binary_tree", "15-node binary tree: depth equals tree level", a::binary_tree},
    GraphArchetype{"diamond_dag", "paths of 2 and 3 edges merge: the shortest depth is reported",
                   a::diamond_dag},
    GraphArchetype{"cycle", "4-cycle, two sources: BFS ends, no duplicate findings", a::cycle},
    GraphArchetype{"disconnected_components",
                   "two components: no source reaches the other component",
                   a::disconnected_components},
    GraphArchetype{"start_source_sink", "a source+sink start yields (s, s, 0), then expands",
                   a::start_source_sink},
    GraphArchetype{"max_depth_zero", "max_depth 0: only the start node is reached",
                   a::max_depth_zero},
    GraphArchetype{"sanitizer_only_path", "a sanitizer on the only path: no finding",
                   a::sanitizer_only_path},
    GraphArchetype{"sanitizer_one_of_two_paths",
                   "a sanitizer on one of two paths: the finding comes by the other, longer one",
                   a::sanitizer_one_of_two_paths},
    GraphArchetype{"sanitizer_would_be_sink",
                   "sanitizer+sink is not representable: a sanitizer is never reported nor "
                   "expanded, also as a start node",
                   a::sanitizer_would_be_sink},
    GraphArchetype{"frontier_exactly_max_queue",
                   "MAX_BFS_QUEUE nodes on one level: all expanded, no overflow",
                   a::frontier_exactly_max_queue},
    GraphArchetype{"frontier_max_queue_plus_one",
                   "MAX_BFS_QUEUE + 1 nodes on one level: one dropped and counted, no crash",
                   a::frontier_max_queue_plus_one},
    GraphArchetype{"max_findings_overflow",
                   "10 findings, max_findings 4: count 10, 4 written rows from the full set",
                   a::max_findings_overflow},
    GraphArchetype{"visited_at_buffer_limit",
                   "num_sources x words_per_source x 4 equals max_storage_buffer_bytes: runs",
                   a::visited_at_buffer_limit},
    GraphArchetype{"visited_past_buffer_limit",
                   "one source past max_storage_buffer_bytes: a structured error, no dispatch",
                   a::visited_past_buffer_limit},
};

}  // namespace

std::span<const GraphArchetype> graph_archetypes() {
  return kArchetypes;
}

const GraphArchetype* find_graph_archetype(std::string_view name) {
  for (const GraphArchetype& row : kArchetypes) {
    if (row.name == name) return &row;
  }
  return nullptr;
}

}  // namespace vyre::archetypes
