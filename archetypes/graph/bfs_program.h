// graph.bfs as a vyre IR Program (seed 001): one invocation per source runs a
// level-by-level BFS over CSR, reports sinks as findings and stops at
// sanitizers. The algorithm and its extensions are described in BFS.md.
#pragma once

#include "spec/ir/program.h"

namespace vyre::archetypes::bfs {

/// The graph.bfs program; the same value on every call.
Program graph_bfs_program();

}  // namespace vyre::archetypes::bfs
