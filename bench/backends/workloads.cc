// The benchmark workloads.
#include "bench/backends/workloads.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "archetypes/graph/bfs_dispatch.h"
#include "archetypes/graph/bfs_program.h"
#include "generators/rmat.h"
#include "reference/graph/node_label.h"
#include "spec/ir/builder.h"

namespace vyre::bench {
namespace {

using namespace vyre::build;

ByteBuffer counting_words(uint32_t count) {
  ByteBuffer bytes(size_t{count} * 4);
  for (uint32_t i = 0; i < count; ++i) {
    for (uint32_t b = 0; b < 4; ++b) bytes[i * 4 + b] = static_cast<uint8_t>(i >> (8 * b));
  }
  return bytes;
}

/// out[i] = in[i] * 3 + 1 over `invocations` invocations, 64 per workgroup.
Workload elementwise(std::string name, uint32_t invocations) {
  const ExprPtr i = invocation_id(0);
  Program p{
      {storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
      {64, 1, 1},
      {if_(lt(i, buflen("out")), {store("out", i, add(mul(load("in", i), u32(3)), u32(1)))})}};
  return {std::move(name),
          std::move(p),
          {{"in", counting_words(invocations)}, {"out", ByteBuffer(size_t{invocations} * 4)}},
          Grid{{(invocations + 63) / 64, 1, 1}}};
}

/// One invocation storing one word: what a dispatch costs beyond the work.
Workload tiny() {
  Program p{
      {storage("out", 0, BufferAccess::ReadWrite)}, {1, 1, 1}, {store("out", u32(0), u32(7))}};
  return {"tiny", std::move(p), {{"out", ByteBuffer(4)}}, Grid{}};
}

/// graph.bfs on an R-MAT graph of 2^scale nodes (edge factor 8) from
/// `sources` sources, with room for every finding. Past 4096 nodes a level
/// can overflow MAX_BFS_QUEUE; those drops are counted, as the program must.
Workload rmat_bfs(uint32_t scale, uint32_t sources) {
  constexpr uint64_t kSeed = 1;
  const graph::CsrGraph g = gen::rmat_graph({scale, 8, kSeed});
  const std::vector<uint32_t> starts = gen::rmat_sources(g, sources, kSeed);
  uint32_t sinks = 0;
  for (uint32_t label : g.node_data) {
    auto role = graph::role_from_bits(graph::role_bits(label));
    sinks += role && graph::reports_finding(*role) ? 1 : 0;
  }
  auto d = archetypes::bfs::prepare_bfs(g, starts, {std::max(1u, sinks * sources), UINT32_MAX});
  if (!d) {
    std::fprintf(stderr, "rmat_bfs: %s\n", d.error().message.c_str());
    std::exit(2);
  }
  return {"graph_bfs_rmat" + std::to_string(scale) + "_" + std::to_string(sources) + "src",
          archetypes::bfs::graph_bfs_program(), std::move(d->inputs), d->grid};
}

}  // namespace

std::vector<Workload> benchmark_workloads() {
  return {elementwise("elementwise_1M", 1u << 20), tiny(), rmat_bfs(16, 256)};
}

}  // namespace vyre::bench
