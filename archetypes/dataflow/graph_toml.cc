#include "archetypes/dataflow/graph_toml.h"

#include <toml++/toml.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "spec/support/toml_errors.h"

namespace vyre::dataflow {
namespace {

using Reporter = TomlErrors;

const toml::array* as_array(const toml::node& node) {
  return node.as_array();
}

Result<std::vector<uint32_t>> read_nodes(const Reporter& r, const toml::node& node) {
  const toml::array* arr = as_array(node);
  if (!arr) return r.at(node.source(), "'nodes' must be an array", "write nodes = [kind id, ...]");
  std::vector<uint32_t> kinds;
  for (size_t i = 0; i < arr->size(); ++i) {
    auto id = r.u32((*arr)[i], "'nodes[" + std::to_string(i) + "]'");
    if (!id) return id.error();
    kinds.push_back(*id);
  }
  if (kinds.empty()) return r.at(node.source(), "'nodes' is empty", "list one kind id per node");
  return kinds;
}

Result<std::vector<graph::Edge>> read_edges(const Reporter& r, const toml::node& node,
                                            uint32_t nodes) {
  const toml::array* arr = as_array(node);
  if (!arr)
    return r.at(node.source(), "'edges' must be an array", "write edges = [[from, to], ...]");
  std::vector<graph::Edge> edges;
  for (size_t i = 0; i < arr->size(); ++i) {
    const std::string key = "edges[" + std::to_string(i) + "]";
    const toml::array* pair = as_array((*arr)[i]);
    if (!pair || pair->size() != 2) {
      return r.at((*arr)[i].source(), "'" + key + "' must be a pair [from, to]",
                  "write two node ids");
    }
    uint32_t ends[2];
    for (size_t k = 0; k < 2; ++k) {
      const std::string end = key + "[" + std::to_string(k) + "]";
      auto id = r.u32((*pair)[k], "'" + end + "'");
      if (!id) return id.error();
      if (*id >= nodes) {
        return r.at((*pair)[k].source(),
                    "'" + end + "' names node " + std::to_string(*id) + " of a graph of " +
                        std::to_string(nodes) + " nodes",
                    "use node ids below the length of 'nodes'");
      }
      ends[k] = *id;
    }
    edges.push_back({ends[0], ends[1]});
  }
  return edges;
}

Result<std::vector<ExpectedFinding>> read_expect(const Reporter& r, const toml::node& node) {
  const toml::array* arr = as_array(node);
  if (!arr) {
    return r.at(node.source(), "'expect' must be an array of tables",
                "write [[expect]] source = S, sink = K, depth = D");
  }
  std::vector<ExpectedFinding> out;
  for (size_t i = 0; i < arr->size(); ++i) {
    const std::string key = "expect[" + std::to_string(i) + "]";
    const toml::table* row = (*arr)[i].as_table();
    if (!row) return r.at((*arr)[i].source(), "'" + key + "' must be a table", "write [[expect]]");
    ExpectedFinding f;
    for (const auto& [name, value] : *row) {
      uint32_t* into = name.str() == "source"  ? &f.source
                       : name.str() == "sink"  ? &f.sink
                       : name.str() == "depth" ? &f.depth
                                               : nullptr;
      const std::string full = key + "." + std::string(name.str());
      if (!into) {
        return r.at(value.source(), "unknown key '" + full + "'", "use source, sink and depth");
      }
      auto v = r.u32(value, "'" + full + "'");
      if (!v) return v.error();
      *into = *v;
    }
    for (std::string_view need : {"source", "sink", "depth"}) {
      if (!row->contains(need)) {
        return r.at((*arr)[i].source(), "'" + key + "' lacks '" + std::string(need) + "'",
                    "give source, sink and depth");
      }
    }
    out.push_back(f);
  }
  return out;
}

Result<GraphFile> read_graph(const Reporter& r, const toml::table& root) {
  for (const auto& [key, value] : root) {
    const std::string_view k = key.str();
    if (k != "nodes" && k != "edges" && k != "expect") {
      return r.at(value.source(), "unknown key '" + std::string(k) + "'",
                  "use only nodes, edges and expect (see RULES_TOML.md)");
    }
  }
  const toml::node* nodes = root.get("nodes");
  if (!nodes) return r.at(root.source(), "missing key 'nodes'", "add nodes = [kind id, ...]");
  GraphFile file;
  auto kinds = read_nodes(r, *nodes);
  if (!kinds) return kinds.error();
  file.node_kinds = std::move(kinds).value();
  const auto count = static_cast<uint32_t>(file.node_kinds.size());
  std::vector<graph::Edge> edges;
  if (const toml::node* e = root.get("edges")) {
    auto read_ok = read_edges(r, *e, count);
    if (!read_ok) return read_ok.error();
    edges = std::move(read_ok).value();
  }
  auto csr = graph::to_csr(count, edges);
  if (!csr)
    return r.at(root.source(), "the graph is malformed: " + csr.error().message, "fix the edges");
  file.graph = std::move(csr).value();
  if (const toml::node* expect = root.get("expect")) {
    auto rows = read_expect(r, *expect);
    if (!rows) return rows.error();
    file.expect = std::move(rows).value();
  }
  return file;
}

}  // namespace

Result<GraphFile> parse_graph_file(std::string_view toml_text, std::string_view origin) {
  const Reporter reporter("dataflow graph", origin);
  try {
    const toml::table root = toml::parse(toml_text, origin);
    return read_graph(reporter, root);
  } catch (const toml::parse_error& e) {
    return reporter.at(e.source(), "malformed TOML: " + std::string(e.description()),
                       "correct the syntax at that position");
  }
}

Result<GraphFile> load_graph_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"dataflow graph " + path + ": cannot open the file. Fix: check the path."};
  std::ostringstream text;
  text << in.rdbuf();
  return parse_graph_file(text.str(), path);
}

Result<std::vector<graph::Finding>> expected_findings(const std::vector<ExpectedFinding>& expect,
                                                      const DataflowInput& input) {
  std::vector<graph::Finding> out;
  for (const ExpectedFinding& f : expect) {
    const auto it = std::find(input.sources.begin(), input.sources.end(), f.source);
    if (it == input.sources.end()) {
      return Error{"expected finding from node " + std::to_string(f.source) +
                   ", which the rules do not make a source. Fix: expect findings from source "
                   "nodes only."};
    }
    const auto idx = static_cast<uint32_t>(it - input.sources.begin());
    out.push_back({f.source, f.sink, f.depth, idx});
  }
  graph::sort_canonical(out);
  return out;
}

}  // namespace vyre::dataflow
