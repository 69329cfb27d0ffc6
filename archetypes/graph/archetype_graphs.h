// Builders of the graph archetypes, one per row of archetype_table.cc.
#pragma once

#include "archetypes/graph/archetype_table.h"

namespace vyre::archetypes::graph_archetype {

/// Structural archetypes (seed 001).
GraphInstance empty_graph();
GraphInstance single_node_self_loop();
GraphInstance single_node_self_loop_source_sink();
GraphInstance complete_graph();
GraphInstance chain();
GraphInstance star();
GraphInstance binary_tree();
GraphInstance diamond_dag();
GraphInstance cycle();
GraphInstance disconnected_components();
GraphInstance start_source_sink();
GraphInstance max_depth_zero();

/// Sanitizer archetypes (seed 001, pinned spec section 7).
GraphInstance sanitizer_only_path();
GraphInstance sanitizer_one_of_two_paths();
GraphInstance sanitizer_would_be_sink();

/// Scale and resource archetypes.
GraphInstance frontier_exactly_max_queue();
GraphInstance frontier_max_queue_plus_one();
GraphInstance max_findings_overflow();
GraphInstance visited_at_buffer_limit();
GraphInstance visited_past_buffer_limit();

}  // namespace vyre::archetypes::graph_archetype
