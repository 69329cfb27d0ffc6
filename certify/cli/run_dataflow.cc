// `vyre-certify run --rules RULES.toml --graph GRAPH.toml [--backend NAME]
// [--device D] [--timeout-ms MS]`: one dataflow engine run on a hand-written
// graph (archetypes/dataflow/RULES_TOML.md): the rules label the graph's
// nodes, the engine runs on the backend, its findings are printed and
// compared with the graph file's `expect` list, or, without one, with the
// engine's CPU twin (dataflow_oracle).
// Exit codes: 0 the findings match, 1 they differ or the run failed, 2 bad
// usage, an unreadable or malformed file (file:line:col and the key), or no
// usable backend.
#include "certify/cli/run_dataflow.h"

#include <cstdio>

#include "archetypes/dataflow/dataflow_engine.h"
#include "archetypes/dataflow/dataflow_oracle.h"
#include "archetypes/dataflow/graph_toml.h"
#include "archetypes/dataflow/rules_toml.h"
#include "certify/cli/backend_choice.h"
#include "certify/cli/command.h"

namespace vyre::cli {
namespace {

constexpr std::string_view kDataflowUsage =
    "vyre-certify run --rules RULES.toml --graph GRAPH.toml [--backend NAME] [--device D]\n"
    "                    [--timeout-ms MS]\n"
    "  Runs the dataflow engine on GRAPH labelled by RULES (archetypes/dataflow/RULES_TOML.md);\n"
    "  compares with GRAPH's `expect` findings, else with the engine's CPU twin.";

struct DataflowFlags {
  std::string rules;
  std::string graph;
  BackendChoice backend;
};

std::optional<std::string> parse_flags(std::span<const std::string> args, DataflowFlags& flags) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (i + 1 >= args.size()) return a + " needs a value (or is not an option of this form)";
    const std::string& value = args[++i];
    if (a == "--rules" || a == "--graph") {
      std::string& into = a == "--rules" ? flags.rules : flags.graph;
      if (!into.empty()) return a + " given twice; give it once";
      into = value;
    } else if (a == "--backend" || a == "--device" || a == "--timeout-ms") {
      std::optional<std::string> error;
      take_backend_option(a, value, flags.backend, error);
      if (error) return error;
    } else {
      return "unknown option " + a + " with --rules";
    }
  }
  if (flags.rules.empty() || flags.graph.empty()) return "--rules and --graph are both needed";
  if (flags.backend.backend.empty()) flags.backend.backend = "reference";
  return check_backend_choice(flags.backend);
}

void print_findings(const char* title, const std::vector<graph::Finding>& findings) {
  std::printf("%s: %zu\n", title, findings.size());
  for (const graph::Finding& f : findings) {
    std::printf("  source %u -> sink %u, depth %u (source_idx %u)\n", f.source_node, f.sink_node,
                f.depth, f.source_idx);
  }
}

}  // namespace

int run_dataflow(std::span<const std::string> args) {
  DataflowFlags flags;
  if (auto problem = parse_flags(args, flags)) {
    return usage_error("vyre-certify run", *problem, kDataflowUsage);
  }
  auto rules = dataflow::load_rules(flags.rules);
  if (!rules) {
    std::fprintf(stderr, "%s\n", rules.error().message.c_str());
    return kExitUsage;
  }
  auto file = dataflow::load_graph_file(flags.graph);
  if (!file) {
    std::fprintf(stderr, "%s\n", file.error().message.c_str());
    return kExitUsage;
  }
  auto input = dataflow::apply_rules(*rules, file->graph, file->node_kinds);
  auto transfer = dataflow::transfer_of(*rules);
  if (!input || !transfer) {
    std::fprintf(stderr, "%s: %s\n", flags.graph.c_str(),
                 (!input ? input.error() : transfer.error()).message.c_str());
    return kExitUsage;
  }
  std::vector<graph::Finding> expected;
  const char* judged_by = "the graph file's expect";
  if (file->expect) {
    auto rows = dataflow::expected_findings(*file->expect, *input);
    if (!rows) {
      std::fprintf(stderr, "%s: %s\n", flags.graph.c_str(), rows.error().message.c_str());
      return kExitUsage;
    }
    expected = std::move(rows).value();
  } else {
    judged_by = "the engine's CPU twin";
    auto twin = dataflow::dataflow_oracle(*input, *transfer);
    if (!twin) {
      std::fprintf(stderr, "%s: %s\n", flags.graph.c_str(), twin.error().message.c_str());
      return kExitUsage;
    }
    expected = std::move(twin).value();
  }
  auto opened = open_usable_backend(flags.backend);
  if (!opened) {
    std::fprintf(stderr, "vyre-certify run: %s\n", opened.error().message.c_str());
    return kExitUsage;
  }
  std::printf("dataflow \"%s\" on %s: %u nodes, %zu sources, transfer %s, backend %s\n",
              rules->name.c_str(), flags.graph.c_str(), input->graph.node_count,
              input->sources.size(), transfer->name.c_str(), flags.backend.backend.c_str());
  auto engine = dataflow::DataflowEngine::create(*opened->backend, *transfer);
  if (!engine) {
    std::printf("RUN FAILED: %s\n", engine.error().message.c_str());
    return kExitFail;
  }
  auto result = engine->run(*input);
  if (!result) {
    std::printf("RUN FAILED: %s\n", result.error().message.c_str());
    return kExitFail;
  }
  std::vector<graph::Finding> found = std::move(result->findings);
  graph::sort_canonical(found);
  print_findings("findings", found);
  if (found == expected) {
    std::printf("expectation: PASS (findings match %s)\n", judged_by);
    return kExitOk;
  }
  std::printf("expectation: FAIL, the findings differ from %s\n", judged_by);
  print_findings("expected", expected);
  return kExitFail;
}

}  // namespace vyre::cli
