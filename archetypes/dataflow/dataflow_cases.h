// The graph archetypes run through the dataflow engine, as host-driven cases
// a certification run can put on any backend: the engine compiles its
// programs on the backend and dispatches once per level.
#pragma once

#include <string>
#include <vector>

#include "archetypes/dataflow/dataflow_input.h"
#include "backends/backend.h"
#include "reference/graph/finding.h"
#include "spec/ir/host_abi.h"
#include "spec/support/result.h"

namespace vyre::dataflow {

/// One case for the engine (block_mask transfer, sanitizers as metadata),
/// its roles from a rules file embedded at build time (embedded_files.h).
struct DataflowCase {
  /// "dataflow/<archetype>".
  std::string name;
  DataflowInput input;
  /// {"findings": the expected rows, canonical order, 4 words each}, written
  /// from the archetype's hand-computed verdict.
  BufferSet canonical_expected;

  /// Runs the engine on `backend`; the canonical outputs in the same form.
  Result<BufferSet> run(Backend& backend) const;
};

/// {"findings": `findings` sorted into canonical order, 4 words each}: the
/// form engine results and their expectations are compared in.
BufferSet canonical_findings(std::vector<graph::Finding> findings);

/// Every dispatching graph archetype as an engine case, in table order,
/// labelled by rules/bfs_labels.toml; then "dataflow/web_handler": the
/// example rules (examples/taint_rules.toml) on the hand-written call graph
/// examples/web_handler_graph.toml, expected from its hand-computed findings.
/// An error means a case is broken, an internal defect.
Result<std::vector<DataflowCase>> dataflow_cases();

}  // namespace vyre::dataflow
