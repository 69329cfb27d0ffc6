#include "generators/rmat.h"

#include <algorithm>

#include "generators/prng.h"
#include "reference/graph/node_label.h"

namespace vyre::gen {
namespace {

/// Uniform in [0, 1) with 53 bits.
double unit(Prng& rng) {
  return static_cast<double>(rng.next_u64() >> 11) * 0x1.0p-53;
}

/// Uniform in [0, bound), bound > 0.
uint32_t below(Prng& rng, uint32_t bound) {
  return static_cast<uint32_t>(rng.below(bound));
}

constexpr double kA = 0.57, kB = 0.19, kC = 0.19;

}  // namespace

std::vector<graph::Edge> rmat_edges(const RmatSpec& spec) {
  const uint32_t nodes = uint32_t{1} << spec.scale;
  Prng rng(spec.seed);
  std::vector<uint32_t> permutation(nodes);
  for (uint32_t i = 0; i < nodes; ++i) permutation[i] = i;
  for (uint32_t i = nodes - 1; i > 0; --i)
    std::swap(permutation[i], permutation[below(rng, i + 1)]);
  std::vector<graph::Edge> edges(uint64_t{spec.edge_factor} * nodes);
  for (graph::Edge& e : edges) {
    uint32_t from = 0, to = 0;
    // One quadrant choice per bit of the node ids, most significant first.
    for (uint32_t bit = spec.scale; bit-- > 0;) {
      const double r = unit(rng);
      const bool lower = r >= kA + kB;  // quadrants c and d: source bit set
      const bool right = (r >= kA && r < kA + kB) || r >= kA + kB + kC;  // b and d
      from |= uint32_t{lower} << bit;
      to |= uint32_t{right} << bit;
    }
    e = {permutation[from], permutation[to]};
  }
  return edges;
}

graph::CsrGraph rmat_graph(const RmatSpec& spec) {
  graph::CsrGraph g = *graph::to_csr(uint32_t{1} << spec.scale, rmat_edges(spec));
  Prng rng(spec.seed ^ 0xA5A5A5A5ull);
  for (uint32_t& label : g.node_data) {
    const uint32_t roll = below(rng, 128);
    if (roll < 2) label = graph::make_label(graph::NodeRole::Sink);
    if (roll == 2) label = graph::make_label(graph::NodeRole::Sanitizer);
  }
  return g;
}

std::vector<uint32_t> rmat_sources(const graph::CsrGraph& graph, uint32_t count, uint64_t seed) {
  std::vector<uint32_t> candidates;
  for (uint32_t n = 0; n < graph.node_count; ++n) {
    const auto role = graph::role_bits(graph.node_data[n]);
    if (!graph.neighbors(n).empty() && role != static_cast<uint32_t>(graph::NodeRole::Sanitizer)) {
      candidates.push_back(n);
    }
  }
  Prng rng(seed);
  const uint32_t take = std::min<uint32_t>(count, static_cast<uint32_t>(candidates.size()));
  for (uint32_t i = 0; i < take; ++i) {
    std::swap(candidates[i],
              candidates[i + below(rng, static_cast<uint32_t>(candidates.size()) - i)]);
  }
  candidates.resize(take);
  return candidates;
}

}  // namespace vyre::gen
