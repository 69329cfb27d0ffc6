#include "archetypes/dataflow/rules_toml.h"

#include "spec/support/diagnostic_text.h"
#include "spec/support/toml_errors.h"

#include <toml++/toml.h>
#include <fstream>
#include <set>
#include <sstream>

namespace vyre::dataflow {
namespace {

using Reporter = TomlErrors;

Result<Ok> only_keys(const Reporter& r, const toml::table& table, std::string_view where,
                     std::initializer_list<std::string_view> allowed) {
  for (const auto& [key, node] : table) {
    bool known = false;
    for (std::string_view a : allowed) known = known || key.str() == a;
    if (known) continue;
    std::string list;
    for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    return r.at(node.source(),
                "unknown key '" + std::string(key.str()) + "' in " + std::string(where),
                "use only " + list + " there (see RULES_TOML.md)");
  }
  return Ok{};
}

Result<std::vector<std::string>> as_strings(const Reporter& r, const toml::node& node,
                                            const std::string& what) {
  const toml::array* arr = node.as_array();
  if (!arr) {
    return r.at(node.source(), what + " must be an array of strings", "write [\"name\", ...]");
  }
  std::vector<std::string> out;
  for (const toml::node& item : *arr) {
    const auto s = item.value_exact<std::string>();
    if (!s) return r.at(item.source(), what + " holds a non-string", "quote every entry");
    out.push_back(*s);
  }
  return out;
}

Result<Ok> read_kinds(const Reporter& r, const toml::node& node, Rules& rules) {
  const toml::table* kinds = node.as_table();
  if (!kinds) return r.at(node.source(), "'kinds' must be a table", "write [kinds] name = id");
  std::map<uint32_t, std::string> by_id;
  for (const auto& [key, value] : *kinds) {
    auto id = r.u32(value, "kinds." + std::string(key.str()));
    if (!id) return id.error();
    const std::string name(key.str());
    if (auto [it, fresh] = by_id.emplace(*id, name); !fresh) {
      return r.at(value.source(),
                  "kinds '" + it->second + "' and '" + name + "' share id " + std::to_string(*id),
                  "give every kind its own id");
    }
    rules.kinds.emplace(name, *id);
  }
  if (rules.kinds.empty()) {
    return r.at(node.source(), "'kinds' is empty", "name at least the source and sink kinds");
  }
  return Ok{};
}

Result<Ok> read_roles(const Reporter& r, const toml::node& node, Rules& rules) {
  const toml::table* roles = node.as_table();
  if (!roles) return r.at(node.source(), "'roles' must be a table", "write [roles]");
  if (auto ok = only_keys(r, *roles, "[roles]", {"sources", "sinks", "sanitizers"}); !ok) {
    return ok.error();
  }
  struct Field {
    std::string_view key;
    std::vector<std::string>* into;
    bool required;
  };
  for (const Field& f : {Field{"sources", &rules.sources, true}, Field{"sinks", &rules.sinks, true},
                         Field{"sanitizers", &rules.sanitizers, false}}) {
    const toml::node* value = roles->get(f.key);
    if (!value) {
      if (!f.required) continue;
      return r.at(node.source(), "[roles] lacks '" + std::string(f.key) + "'",
                  "add " + std::string(f.key) + " = [\"kind\", ...]");
    }
    auto names = as_strings(r, *value, "roles." + std::string(f.key));
    if (!names) return names.error();
    if (f.required && names->empty()) {
      return r.at(value->source(), "roles." + std::string(f.key) + " is empty",
                  "name at least one kind");
    }
    // Sources and sinks name kinds exactly; sanitizers are patterns.
    for (const std::string& name : *names) {
      const bool pattern = f.key == "sanitizers";
      bool matched = false;
      for (const auto& [kind, id] : rules.kinds) {
        matched = matched || (pattern ? glob_match(name, kind) : name == kind);
      }
      if (matched) continue;
      return r.at(value->source(),
                  "roles." + std::string(f.key) + " names '" + name + "', " +
                      (pattern ? "a pattern that matches no kind" : "which is not a kind"),
                  "declare it under [kinds] or correct the spelling");
    }
    *f.into = std::move(names).value();
  }
  return Ok{};
}

/// make_transfer words its errors "<problem>. Fix: <fix>."; this re-anchors
/// one at the TOML node that caused it.
Error transfer_error(const Reporter& r, const toml::node& node, const Error& e) {
  const std::string& m = e.message;
  const size_t cut = m.find(". Fix: ");
  return r.at(node.source(), m.substr(0, cut), m.substr(cut + 7, m.size() - cut - 8));
}

Result<Ok> read_transfer(const Reporter& r, const toml::node& node, Rules& rules) {
  const toml::table* transfer = node.as_table();
  if (!transfer) return r.at(node.source(), "'transfer' must be a table", "write [transfer]");
  const toml::node* function = transfer->get("function");
  if (!function || !function->value_exact<std::string>()) {
    return r.at(node.source(), "[transfer] lacks a string 'function'",
                "add function = \"block_mask\" (or another built-in)");
  }
  rules.transfer_function = *function->value_exact<std::string>();
  if (auto t = make_transfer(rules.transfer_function); !t) {
    return transfer_error(r, *function, t.error());
  }
  for (const auto& [key, value] : *transfer) {
    if (key.str() == "function") continue;
    auto v = r.u32(value, "transfer." + std::string(key.str()));
    if (!v) return v.error();
    const TransferParams one = {{std::string(key.str()), *v}};
    if (auto t = make_transfer(rules.transfer_function, one); !t) {
      return transfer_error(r, value, t.error());
    }
    rules.transfer_params.emplace(std::string(key.str()), *v);
  }
  return Ok{};
}

Result<Rules> read_rules(const Reporter& r, const toml::table& root) {
  if (auto ok = only_keys(r, root, "the top level",
                          {"schema", "name", "max_depth", "kinds", "roles", "transfer"});
      !ok) {
    return ok.error();
  }
  Rules rules;
  const toml::node* schema = root.get("schema");
  if (!schema) return r.whole("missing 'schema'", "add schema = 1 at the top");
  if (schema->value_exact<int64_t>() != kRulesSchema) {
    return r.at(schema->source(), "unsupported 'schema'", "this reader accepts schema = 1");
  }
  const toml::node* name = root.get("name");
  if (!name || !name->value_exact<std::string>()) {
    return r.whole("missing string 'name'", "add name = \"your-rule-set\"");
  }
  rules.name = *name->value_exact<std::string>();
  if (const toml::node* depth = root.get("max_depth")) {
    auto d = r.u32(*depth, "max_depth");
    if (!d) return d.error();
    rules.max_depth = *d;
  }
  const toml::node* kinds = root.get("kinds");
  if (!kinds) return r.whole("missing [kinds]", "declare the label vocabulary under [kinds]");
  if (auto ok = read_kinds(r, *kinds, rules); !ok) return ok.error();
  const toml::node* roles = root.get("roles");
  if (!roles) return r.whole("missing [roles]", "add [roles] with sources and sinks");
  if (auto ok = read_roles(r, *roles, rules); !ok) return ok.error();
  if (const toml::node* transfer = root.get("transfer")) {
    if (auto ok = read_transfer(r, *transfer, rules); !ok) return ok.error();
  }
  if (!rules.sanitizers.empty() &&
      !blocks_sanitizers(rules.transfer_function, rules.transfer_params)) {
    return r.at(roles->as_table()->get("sanitizers")->source(),
                "roles.sanitizers are listed but transfer function '" + rules.transfer_function +
                    "' with these parameters ignores them",
                "use function = \"block_mask\" with bit 0 in mask, or drop the sanitizers");
  }
  return rules;
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view name) {
  // Iterative matcher with one backtrack point per '*': linear on any input.
  size_t p = 0, n = 0, star = std::string_view::npos, resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[n])) {
      ++p;
      ++n;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

Result<Rules> parse_rules(std::string_view toml_text, std::string_view origin) {
  const Reporter reporter("dataflow rules", origin);
  try {
    const toml::table root = toml::parse(toml_text, origin);
    return read_rules(reporter, root);
  } catch (const toml::parse_error& e) {
    return reporter.at(e.source(), "malformed TOML: " + std::string(e.description()),
                       "correct the syntax at that position");
  } catch (const std::exception& e) {
    return reporter.whole(std::string("could not read the rules: ") + e.what(),
                          "check the file is valid UTF-8 TOML");
  }
}

Result<Rules> load_rules(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Error{"dataflow rules " + path + ": cannot open the file. Fix: check the path."};
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_rules(text.str(), path);
}

Result<DataflowInput> apply_rules(const Rules& rules, const graph::CsrGraph& graph,
                                  std::span<const uint32_t> node_kinds) {
  // The loop below indexes node_data and node_kinds by node id, so the graph
  // must hold every invariant before any of it is read.
  if (auto ok = graph.validate(); !ok) {
    return Error{"dataflow rules " + rules.name +
                 ": the graph is malformed: " + ok.error().message};
  }
  if (node_kinds.size() != graph.node_count) {
    return Error{"dataflow rules " + rules.name + ": " + std::to_string(node_kinds.size()) +
                 " node kinds for a graph of " + std::to_string(graph.node_count) +
                 " nodes. Fix: give one kind id per node."};
  }
  auto ids_of = [&](const std::vector<std::string>& names, bool patterns) {
    std::set<uint32_t> ids;
    for (const auto& [kind, id] : rules.kinds) {
      for (const std::string& n : names) {
        if (patterns ? glob_match(n, kind) : n == kind) ids.insert(id);
      }
    }
    return ids;
  };
  const std::set<uint32_t> source_ids = ids_of(rules.sources, false);
  const std::set<uint32_t> sink_ids = ids_of(rules.sinks, false);
  const std::set<uint32_t> sanitizer_ids = ids_of(rules.sanitizers, true);
  DataflowInput in;
  in.graph = graph;
  in.max_depth = rules.max_depth;
  in.node_metadata.assign(graph.node_count, 0);
  for (uint32_t n = 0; n < graph.node_count; ++n) {
    const uint32_t kind = node_kinds[n];
    const bool source = source_ids.contains(kind);
    in.graph.node_data[n] = (source ? 1u : 0u) | (sink_ids.contains(kind) ? kSinkRoleBit : 0u);
    in.node_metadata[n] = sanitizer_ids.contains(kind) ? kSanitizerMetadataBit : 0;
    if (source) in.sources.push_back(n);
  }
  return in;
}

Result<TransferFunction> transfer_of(const Rules& rules) {
  return make_transfer(rules.transfer_function, rules.transfer_params);
}

}  // namespace vyre::dataflow
