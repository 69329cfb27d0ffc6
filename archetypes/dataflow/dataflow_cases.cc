#include "archetypes/dataflow/dataflow_cases.h"

#include "archetypes/dataflow/dataflow_engine.h"
#include "archetypes/dataflow/embedded_files.h"
#include "archetypes/dataflow/graph_toml.h"
#include "archetypes/dataflow/rules_toml.h"
#include "archetypes/dataflow/transfer_function.h"
#include "archetypes/graph/archetype_table.h"
#include "reference/graph/node_label.h"
#include "spec/ir/host_words.h"

namespace vyre::dataflow {
namespace {

/// Rules that label graph.bfs archetypes: kind id = the label's role.
constexpr std::string_view kBfsLabelRules = "rules/bfs_labels.toml";
/// The example community rules and the web handler graph they run on.
constexpr std::string_view kTaintRules = "examples/taint_rules.toml";
constexpr std::string_view kWebHandlerGraph = "examples/web_handler_graph.toml";

/// "archetypes/dataflow/<path>", the repo path errors name.
std::string repo_path(std::string_view path) {
  return "archetypes/dataflow/" + std::string(path);
}

/// The embedded text of `path`, or an internal error.
Result<std::string_view> embedded(std::string_view path) {
  auto text = embedded_file(path);
  if (!text) return Error{"internal error: " + repo_path(path) + " is not embedded"};
  return *text;
}

/// Rules the suite's cases use: parsed from the embedded file, and run with
/// the transfer function dataflow_suite_case runs (block_mask, mask 1).
Result<Rules> embedded_rules(std::string_view path) {
  auto text = embedded(path);
  if (!text) return text.error();
  auto rules = parse_rules(*text, repo_path(path));
  if (!rules) return Error{"internal error: " + rules.error().message};
  const auto mask = rules->transfer_params.find("mask");
  if (rules->transfer_function != "block_mask" ||
      (mask != rules->transfer_params.end() && mask->second != kSanitizerMetadataBit)) {
    return Error{"internal error: " + repo_path(path) +
                 " must use block_mask with mask 1, the transfer the suite's engine cases run"};
  }
  return rules;
}

/// Every dispatching graph archetype, labelled by kBfsLabelRules; sources and
/// depth bound are the archetype's own.
Result<Ok> add_archetype_cases(std::vector<DataflowCase>& out) {
  auto rules = embedded_rules(kBfsLabelRules);
  if (!rules) return rules.error();
  for (const archetypes::GraphArchetype& row : archetypes::graph_archetypes()) {
    archetypes::GraphInstance instance = row.build();
    if (instance.expected_error) continue;
    std::vector<uint32_t> kinds;
    for (uint32_t label : instance.graph.node_data) kinds.push_back(graph::role_bits(label));
    auto input = apply_rules(*rules, instance.graph, kinds);
    if (!input) {
      return Error{"internal error: graph archetype " + std::string(row.name) +
                   " has no engine input: " + input.error().message};
    }
    input->sources = instance.sources;
    input->max_depth = instance.params.max_depth;
    DataflowCase c;
    c.name = "dataflow/" + std::string(row.name);
    c.input = std::move(input).value();
    c.canonical_expected = canonical_findings(instance.engine_expected.value_or(instance.expected));
    out.push_back(std::move(c));
  }
  return Ok{};
}

/// The example rules on the web handler graph, expected from the findings
/// the graph file lists (computed by hand in its comments).
Result<Ok> add_web_handler_case(std::vector<DataflowCase>& out) {
  auto rules = embedded_rules(kTaintRules);
  if (!rules) return rules.error();
  auto text = embedded(kWebHandlerGraph);
  if (!text) return text.error();
  auto file = parse_graph_file(*text, repo_path(kWebHandlerGraph));
  if (!file) return Error{"internal error: " + file.error().message};
  if (!file->expect)
    return Error{"internal error: " + repo_path(kWebHandlerGraph) + " lacks expect"};
  auto input = apply_rules(*rules, file->graph, file->node_kinds);
  if (!input) return Error{"internal error: web handler: " + input.error().message};
  auto expected = expected_findings(*file->expect, *input);
  if (!expected) return Error{"internal error: web handler: " + expected.error().message};
  DataflowCase c;
  c.name = "dataflow/web_handler";
  c.input = std::move(input).value();
  c.canonical_expected = canonical_findings(std::move(expected).value());
  out.push_back(std::move(c));
  return Ok{};
}

}  // namespace

BufferSet canonical_findings(std::vector<graph::Finding> findings) {
  graph::sort_canonical(findings);
  return {{"findings", to_bytes(graph::findings_to_words(findings))}};
}

Result<BufferSet> DataflowCase::run(Backend& backend) const {
  auto transfer = make_transfer("block_mask");
  if (!transfer) return transfer.error();
  auto engine = DataflowEngine::create(backend, std::move(transfer).value());
  if (!engine) return Error{engine.error().message};
  auto result = engine->run(input);
  if (!result) return Error{result.error().message};
  return canonical_findings(std::move(result->findings));
}

Result<std::vector<DataflowCase>> dataflow_cases() {
  std::vector<DataflowCase> out;
  if (auto ok = add_archetype_cases(out); !ok) return ok.error();
  if (auto ok = add_web_handler_case(out); !ok) return ok.error();
  return out;
}

}  // namespace vyre::dataflow
