// Host side of graph.bfs: checks a graph, source list and parameters against
// the program's arithmetic and a backend's limits BEFORE any dispatch, builds
// the input buffers and grid, and reads findings back in canonical order.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "reference/graph/csr_graph.h"
#include "reference/graph/finding.h"
#include "spec/ir/host_abi.h"
#include "spec/support/result.h"

namespace vyre::archetypes::bfs {

/// The caller-chosen parameters of one graph.bfs run.
struct BfsParams {
  /// Finding rows the findings buffer holds.
  uint32_t max_findings = 1024;
  /// Nodes at depth <= max_depth are reached.
  uint32_t max_depth = UINT32_MAX;
  bool operator==(const BfsParams&) const = default;
};

/// Everything one dispatch needs.
struct BfsDispatch {
  BufferSet inputs;
  Grid grid;
  uint32_t num_sources = 0;
  uint32_t num_nodes = 0;
  uint32_t words_per_source = 0;
  BfsParams params;
};

/// What a run produced, decoded.
struct BfsOutcome {
  /// The rows written (min(finding_count, max_findings)), canonical order.
  std::vector<graph::Finding> findings;
  /// Findings counted, written or not.
  uint32_t finding_count = 0;
  /// Nodes dropped from a full level (extension binding 9).
  uint32_t queue_overflow = 0;
  /// True when finding_count passed max_findings.
  bool truncated = false;
};

/// Validates everything and builds the inputs: a CSR or label that fails
/// validation, a source outside the graph, index arithmetic that would wrap
/// (num_sources * words_per_source, num_sources * queue words, max_findings * 4
/// past 2^32), and, when `limits` is given, any buffer past
/// max_storage_buffer_bytes or a grid past max_workgroup_count (a limit of 0
/// means "not reported" and is not checked). Errors are actionable.
Result<BfsDispatch> prepare_bfs(const graph::CsrGraph& graph, std::span<const uint32_t> sources,
                                const BfsParams& params, const Capabilities* limits = nullptr);

/// Decodes a run's outputs; an error when a buffer is missing or short.
Result<BfsOutcome> read_bfs_outputs(const BufferSet& outputs, const BfsDispatch& dispatch);

/// The canonical form of a run's outputs, for comparison across schedules and
/// backends: findings (written rows, sorted), finding_count, queue_overflow.
/// Scratch (visited_set, bfs_queue) and unwritten rows are left out.
Result<BufferSet> canonical_bfs_outputs(const BufferSet& outputs, const BfsDispatch& dispatch);

/// The canonical outputs a run must produce when the full finding set is
/// `expected` (any order) and `queue_overflow` nodes are dropped. Rows past
/// max_findings are kept, so compare_bfs_outputs can check membership.
BufferSet expected_bfs_outputs(std::vector<graph::Finding> expected, uint32_t queue_overflow);

/// Compares canonical expected (full set) and observed outputs with pinned
/// spec section 7's rule: counts equal, and when the count passes max_findings
/// the max_findings written rows are distinct members of the full set; else
/// the rows are equal. Returns the first difference, or nullopt.
std::optional<std::string> compare_bfs_outputs(const BufferSet& expected, const BufferSet& observed,
                                               uint32_t max_findings);

}  // namespace vyre::archetypes::bfs
