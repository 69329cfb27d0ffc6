#include "generators/graph_gen_rc.h"

#include <utility>

namespace vyre::gen {
namespace {

using graph::NodeRole;

/// Roles by role_of_roll; rolls shrink towards 0, which is Normal.
rc::Gen<NodeRole> role_gen() {
  return rc::gen::map(rc::gen::inRange<uint32_t>(0, kRoleRolls), role_of_roll);
}

rc::Gen<uint32_t> max_depth_gen() {
  return rc::gen::weightedOneOf<uint32_t>(
      {{3, rc::gen::just<uint32_t>(UINT32_MAX)}, {2, rc::gen::inRange<uint32_t>(0, 9)}});
}

/// The same distribution draw_graph_recipe documents, in RapidCheck's terms.
rc::Gen<GraphRecipe> recipe_gen(uint32_t max_nodes) {
  return rc::gen::build<GraphRecipe>(
      rc::gen::set(&GraphRecipe::nodes, rc::gen::inRange<uint32_t>(1, max_nodes + 1)),
      rc::gen::set(&GraphRecipe::raw_edges,
                   rc::gen::container<std::vector<std::pair<uint32_t, uint32_t>>>(rc::gen::pair(
                       rc::gen::arbitrary<uint32_t>(), rc::gen::arbitrary<uint32_t>()))),
      rc::gen::set(&GraphRecipe::roles, rc::gen::container<std::vector<NodeRole>>(role_gen())),
      rc::gen::set(&GraphRecipe::raw_sources,
                   rc::gen::resize(8, rc::gen::container<std::vector<uint32_t>>(
                                          rc::gen::arbitrary<uint32_t>()))),
      rc::gen::set(&GraphRecipe::max_depth, max_depth_gen()),
      // Most samples hold a finding; shrinking goes towards planting one.
      rc::gen::set(&GraphRecipe::plant, rc::gen::weightedElement<bool>({{4, true}, {1, false}})),
      rc::gen::set(&GraphRecipe::raw_sink, rc::gen::arbitrary<uint32_t>()));
}

}  // namespace

rc::Gen<GraphSample> graph_sample(GraphShape shape) {
  return rc::gen::map(recipe_gen(max_nodes_of(shape)),
                      [shape](const GraphRecipe& r) { return build_graph_sample(shape, r); });
}

rc::Gen<GraphSample> any_graph_sample() {
  const std::span<const GraphShape> shapes = all_graph_shapes();
  return rc::gen::mapcat(rc::gen::elementOf(std::vector<GraphShape>(shapes.begin(), shapes.end())),
                         [](GraphShape shape) { return graph_sample(shape); });
}

}  // namespace vyre::gen
