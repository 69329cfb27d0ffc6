// RapidCheck generators of graph_gen.h's samples, for properties in tests:
// they draw the same GraphRecipe that draw_graph_recipe draws from a Prng and
// build it with build_graph_sample, so each shape has one implementation,
// and every number of a recipe shrinks on its own.
#pragma once

#include <rapidcheck.h>

#include "generators/graph_gen.h"

namespace vyre::gen {

/// Graphs of one shape with random roles (normal most often), 0-8 sources
/// (repeats allowed) and a max_depth that is unbounded or 0-8. Four samples
/// in five are steered to hold a finding: at least one source, and a node
/// that source reaches within max_depth made a sink.
rc::Gen<GraphSample> graph_sample(GraphShape shape);

/// Any shape.
rc::Gen<GraphSample> any_graph_sample();

}  // namespace vyre::gen
