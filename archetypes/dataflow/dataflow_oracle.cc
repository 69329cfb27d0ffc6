#include "archetypes/dataflow/dataflow_oracle.h"

#include <deque>

namespace vyre::dataflow {

Result<std::vector<graph::Finding>> dataflow_oracle(const DataflowInput& input,
                                                    const TransferFunction& transfer) {
  if (auto ok = validate_input(input); !ok) return ok.error();
  const graph::CsrGraph& g = input.graph;
  auto metadata = [&](uint32_t node) {
    return input.node_metadata.empty() ? 0u : input.node_metadata[node];
  };
  std::vector<graph::Finding> out;
  std::vector<uint32_t> depth_of(g.node_count);
  std::vector<bool> seen(g.node_count);
  for (uint32_t idx = 0; idx < input.sources.size(); ++idx) {
    const uint32_t start = input.sources[idx];
    std::fill(seen.begin(), seen.end(), false);
    std::deque<uint32_t> queue = {start};
    seen[start] = true;
    depth_of[start] = 0;
    if (g.node_data[start] & kSinkRoleBit) out.push_back({start, start, 0, idx});
    while (!queue.empty()) {
      const uint32_t node = queue.front();
      queue.pop_front();
      if (depth_of[node] >= input.max_depth) continue;
      for (uint32_t target : g.neighbors(node)) {
        if (seen[target] || transfer.cpu(start, node, target, metadata(target)) == 0) continue;
        seen[target] = true;
        depth_of[target] = depth_of[node] + 1;
        if (g.node_data[target] & kSinkRoleBit) {
          out.push_back({start, target, depth_of[target], idx});
        }
        queue.push_back(target);
      }
    }
  }
  graph::sort_canonical(out);
  return out;
}

}  // namespace vyre::dataflow
