#include "certify/gate/gate_file.h"

#include <toml++/toml.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "spec/support/toml_errors.h"

namespace vyre::certify {
namespace {

// The rules and graph files' error builder: one `KIND FILE:L:C: problem.
// Fix: fix.` form for every TOML file the suite reads.
using Reporter = dataflow::TomlErrors;

/// `node` as an integer in [low, high]; an error naming `key` otherwise.
Result<uint32_t> bounded(const Reporter& r, const toml::node& node, std::string_view key,
                         uint32_t low, uint32_t high) {
  const std::string range = "[" + std::to_string(low) + ", " + std::to_string(high) + "]";
  const auto v = node.value_exact<int64_t>();
  if (!v)
    return r.at(node.source(), "'" + std::string(key) + "' must be an integer",
                "write a whole number in " + range);
  if (*v < low || *v > high) {
    return r.at(node.source(),
                "'" + std::string(key) + "' = " + std::to_string(*v) + " is outside " + range,
                "use a value in " + range);
  }
  return static_cast<uint32_t>(*v);
}

/// `node` as a non-empty string; an error naming `key` otherwise.
Result<std::string> text(const Reporter& r, const toml::node& node, std::string_view key) {
  const auto v = node.value_exact<std::string>();
  if (!v)
    return r.at(node.source(), "'" + std::string(key) + "' must be a string", "quote the value");
  if (v->empty()) {
    return r.at(node.source(), "'" + std::string(key) + "' is empty",
                "give a value or leave the key out");
  }
  return *v;
}

Result<Ok> read_devices(const Reporter& r, const toml::node& node, GateFile& gate) {
  if (node.is_string()) {
    auto one = text(r, node, "devices");
    if (!one) return one.error();
    gate.devices = *one;
    return Ok{};
  }
  const toml::array* list = node.as_array();
  const std::string fix = "write devices = \"all\" or a list of indices or names, [0, 1]";
  if (!list) return r.at(node.source(), "'devices' must be \"all\" or a list", fix);
  if (list->empty()) return r.at(node.source(), "'devices' is an empty list", fix);
  std::string joined;
  for (size_t i = 0; i < list->size(); ++i) {
    const toml::node& item = (*list)[i];
    const std::string key = "devices[" + std::to_string(i) + "]";
    std::string device;
    if (item.is_integer()) {
      auto index = bounded(r, item, key, 0, 1023);
      if (!index) return index.error();
      device = std::to_string(*index);
    } else {
      auto name = text(r, item, key);
      if (!name) return name.error();
      if (name->find(',') != std::string::npos || *name == "all") {
        return r.at(item.source(), "'" + key + "' = \"" + *name + "\" is not one device",
                    "list device indices or names; write devices = \"all\" for every device");
      }
      device = *name;
    }
    joined += (joined.empty() ? "" : ",") + device;
  }
  gate.devices = joined;
  return Ok{};
}

Result<Ok> read_seed(const Reporter& r, const toml::node& node, GateFile& gate) {
  const std::string fix =
      "write seed = { policy = \"fixed\", value = N } or seed = { policy = \"date\" }";
  const toml::table* table = node.as_table();
  if (!table) return r.at(node.source(), "'seed' must be a table", fix);
  for (const auto& [key, value] : *table) {
    if (key.str() != "policy" && key.str() != "value") {
      return r.at(key.source(), "unknown key 'seed." + std::string(key.str()) + "'", fix);
    }
  }
  const toml::node* policy_node = table->get("policy");
  if (!policy_node) return r.at(node.source(), "'seed' has no 'policy'", fix);
  auto policy_name = text(r, *policy_node, "seed.policy");
  if (!policy_name) return policy_name.error();
  const std::optional<SeedPolicyKind> kind = seed_policy_named(*policy_name);
  if (!kind) {
    return r.at(policy_node->source(), "unknown seed policy \"" + *policy_name + "\"",
                "use \"fixed\" or \"date\"");
  }
  SeedPolicy policy{.kind = *kind};
  const toml::node* value = table->get("value");
  if (*kind == SeedPolicyKind::Date) {
    if (value) {
      return r.at(
          value->source(),
          "'seed.value' does not apply to policy \"date\" (the seed is the UTC date, YYYYMMDD)",
          "leave 'value' out, or use policy = \"fixed\"");
    }
  } else {
    if (!value) return r.at(node.source(), "policy \"fixed\" needs 'seed.value'", fix);
    const auto v = value->value_exact<int64_t>();
    if (!v || *v < 0) {
      return r.at(value->source(), "'seed.value' must be a non-negative integer",
                  "write a whole number");
    }
    policy.value = static_cast<uint64_t>(*v);
  }
  gate.seed = policy;
  return Ok{};
}

Result<Ok> read_known_failures(const Reporter& r, const toml::node& node, GateFile& gate) {
  const std::string fix =
      "write [[known_failure]] tables with case = \"ID\", reason = \"...\", link = \"...\" "
      "(optional)";
  const toml::array* rows = node.as_array();
  if (!rows) return r.at(node.source(), "'known_failure' must be an array of tables", fix);
  std::set<std::string> seen;
  for (size_t i = 0; i < rows->size(); ++i) {
    const std::string at = "known_failure[" + std::to_string(i) + "]";
    const toml::table* row = (*rows)[i].as_table();
    if (!row) return r.at((*rows)[i].source(), "'" + at + "' must be a table", fix);
    KnownFailure known;
    for (const auto& [key, value] : *row) {
      const std::string_view k = key.str();
      std::string* into = k == "case"     ? &known.case_id
                          : k == "reason" ? &known.reason
                          : k == "link"   ? &known.link
                                          : nullptr;
      if (!into)
        return r.at(key.source(), "unknown key '" + at + "." + std::string(k) + "'",
                    "use only case, reason and link");
      auto v = text(r, value, at + "." + std::string(k));
      if (!v) return v.error();
      *into = *v;
    }
    if (known.case_id.empty())
      return r.at(row->source(), "'" + at + "' has no 'case'",
                  "add case = \"L1/...\" (the id report.json gives)");
    if (known.reason.empty()) {
      return r.at(row->source(), "'" + at + "' (" + known.case_id + ") has no 'reason'",
                  "say why the case is expected to fail: a known failure needs a reason");
    }
    if (!seen.insert(known.case_id).second) {
      return r.at(row->source(), "case \"" + known.case_id + "\" is listed twice",
                  "list each known failure once");
    }
    gate.known_failures.push_back(std::move(known));
  }
  return Ok{};
}

/// One key of the gate file and how it is read.
struct Key {
  std::string_view name;
  Result<Ok> (*read)(const Reporter&, const toml::node&, GateFile&);
};

/// Reads a string key into a member of GateFile.
template <std::optional<std::string> GateFile::*member>
Result<Ok> read_text(const Reporter& r, const toml::node& node, GateFile& gate,
                     std::string_view key) {
  auto v = text(r, node, key);
  if (!v) return v.error();
  gate.*member = *v;
  return Ok{};
}

/// Reads an integer key in [low, high] into a member of GateFile.
template <std::optional<uint32_t> GateFile::*member, uint32_t low, uint32_t high>
Result<Ok> read_number(const Reporter& r, const toml::node& node, GateFile& gate,
                       std::string_view key) {
  auto v = bounded(r, node, key, low, high);
  if (!v) return v.error();
  gate.*member = *v;
  return Ok{};
}

Result<Ok> read_level(const Reporter& r, const toml::node& node, GateFile& gate) {
  auto name = text(r, node, "level");
  if (!name) return name.error();
  const std::optional<Level> level = level_named(*name);
  if (!level || name_of(*level) != *name) {
    return r.at(node.source(), "unknown level \"" + *name + "\"", "use one of L1, L2, L3, L4, L5");
  }
  gate.level = *level;
  return Ok{};
}

// The ranges are the command line's (cmd_certify.cc), so a gate file can set
// exactly what the options can.
constexpr std::array<Key, 12> kKeys = {{
    {"backend", [](const Reporter& r, const toml::node& n,
                   GateFile& g) { return read_text<&GateFile::backend>(r, n, g, "backend"); }},
    {"devices", read_devices},
    {"level", read_level},
    {"runs", [](const Reporter& r, const toml::node& n,
                GateFile& g) { return read_number<&GateFile::runs, 1, 100000>(r, n, g, "runs"); }},
    {"seed", read_seed},
    {"filter", [](const Reporter& r, const toml::node& n,
                  GateFile& g) { return read_text<&GateFile::filter>(r, n, g, "filter"); }},
    {"time_budget_s",
     [](const Reporter& r, const toml::node& n, GateFile& g) {
       return read_number<&GateFile::time_budget_s, 1, 604800>(r, n, g, "time_budget_s");
     }},
    {"case_budget_s",
     [](const Reporter& r, const toml::node& n, GateFile& g) {
       return read_number<&GateFile::case_budget_s, 0, 86400>(r, n, g, "case_budget_s");
     }},
    {"timeout_ms",
     [](const Reporter& r, const toml::node& n, GateFile& g) {
       return read_number<&GateFile::timeout_ms, 1, UINT32_MAX>(r, n, g, "timeout_ms");
     }},
    {"out", [](const Reporter& r, const toml::node& n,
               GateFile& g) { return read_text<&GateFile::out>(r, n, g, "out"); }},
    {"sign_key", [](const Reporter& r, const toml::node& n,
                    GateFile& g) { return read_text<&GateFile::sign_key>(r, n, g, "sign_key"); }},
    {"known_failure", read_known_failures},
}};

Result<GateFile> read_gate(const Reporter& r, const toml::table& root) {
  GateFile gate;
  for (const auto& [key, value] : root) {
    const Key* known = nullptr;
    for (const Key& k : kKeys) {
      if (k.name == key.str()) known = &k;
    }
    if (!known) {
      return r.at(key.source(), "unknown key '" + std::string(key.str()) + "'",
                  "use only backend, devices, level, runs, seed, filter, time_budget_s, "
                  "case_budget_s, timeout_ms, out, sign_key and [[known_failure]]");
    }
    if (auto read = known->read(r, value, gate); !read) return read.error();
  }
  return gate;
}

}  // namespace

Result<GateFile> parse_gate_file(std::string_view toml_text, std::string_view origin) {
  const Reporter reporter("gate file", origin);
  try {
    const toml::table root = toml::parse(toml_text, origin);
    return read_gate(reporter, root);
  } catch (const toml::parse_error& e) {
    return reporter.at(e.source(), "malformed TOML: " + std::string(e.description()),
                       "correct the syntax at that position");
  }
}

Result<GateFile> load_gate_file(const std::string& path) {
  // A folder opens as a stream that reads as empty, which would pass as a
  // gate file with no settings; a device or pipe might never end.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return Error{"gate file " + path +
                 ": is a folder, not a gate file. Fix: give the path of a TOML gate file."};
  }
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
    return Error{"gate file " + path +
                 ": is not a regular file. Fix: give the path of a TOML gate file."};
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"gate file " + path + ": cannot open the file. Fix: check the path."};
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) {
    return Error{"gate file " + path + ": cannot be read. Fix: check the file's permissions."};
  }
  return parse_gate_file(content.str(), path);
}

std::vector<GateOption> gate_options(const GateFile& gate) {
  std::vector<GateOption> options;
  const auto add = [&](std::string flag, const auto& value) {
    if (!value) return;
    if constexpr (std::is_same_v<std::decay_t<decltype(*value)>, std::string>) {
      options.push_back({std::move(flag), *value});
    } else {
      options.push_back({std::move(flag), std::to_string(*value)});
    }
  };
  add("--backend", gate.backend);
  add("--device", gate.devices);
  if (gate.level) options.push_back({"--level", std::string(name_of(*gate.level))});
  add("--runs", gate.runs);
  if (gate.seed) {
    options.push_back({"--seed-policy", std::string(name_of(gate.seed->kind))});
    if (gate.seed->kind == SeedPolicyKind::Fixed)
      options.push_back({"--seed", std::to_string(gate.seed->value)});
  }
  add("--filter", gate.filter);
  add("--time-budget-s", gate.time_budget_s);
  add("--case-budget-s", gate.case_budget_s);
  add("--timeout-ms", gate.timeout_ms);
  add("--out", gate.out);
  add("--sign-key", gate.sign_key);
  return options;
}

}  // namespace vyre::certify
