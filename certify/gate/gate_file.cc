#include "certify/gate/gate_file.h"

#include <toml++/toml.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "certify/gate/certify_option_table.h"
#include "certify/gate/seed_policy.h"
#include "certify/suite/level.h"
#include "spec/support/toml_errors.h"

namespace vyre::certify {
namespace {

// The rules and graph files' error builder: one `KIND FILE:L:C: problem.
// Fix: fix.` form for every TOML file the suite reads.
using Reporter = dataflow::TomlErrors;

/// `node` as an integer in [low, high]; an error naming `key` otherwise.
Result<uint64_t> bounded(const Reporter& r, const toml::node& node, std::string_view key,
                         uint64_t low, uint64_t high) {
  const std::string range = "[" + std::to_string(low) + ", " + std::to_string(high) + "]";
  const auto v = node.value_exact<int64_t>();
  if (!v)
    return r.at(node.source(), "'" + std::string(key) + "' must be an integer",
                "write a whole number in " + range);
  if (*v < 0 || static_cast<uint64_t>(*v) < low || static_cast<uint64_t>(*v) > high) {
    return r.at(node.source(),
                "'" + std::string(key) + "' = " + std::to_string(*v) + " is outside " + range,
                "use a value in " + range);
  }
  return static_cast<uint64_t>(*v);
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

/// The `devices` key as the --device value: "all", one device or a comma list.
Result<std::string> read_devices(const Reporter& r, const toml::node& node) {
  if (node.is_string()) return text(r, node, "devices");
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
  return joined;
}

/// The `seed` table as --seed-policy and, for policy "fixed", --seed.
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
  gate.options.push_back({"--seed-policy", std::string(name_of(*kind))});
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
    gate.options.push_back({"--seed", std::to_string(*v)});
  }
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

/// The `level` key as the --level value, spelled exactly as a level is.
Result<std::string> read_level(const Reporter& r, const toml::node& node) {
  auto name = text(r, node, "level");
  if (!name) return name.error();
  const std::optional<Level> level = level_named(*name);
  if (!level || name_of(*level) != *name) {
    return r.at(node.source(), "unknown level \"" + *name + "\"", "use one of L1, L2, L3, L4, L5");
  }
  return name;
}

/// The value of `option`'s gate key `node`, checked against the option's
/// kind and range, as the command line would give it.
Result<std::string> read_option_value(const Reporter& r, const CertifyOption& option,
                                      const toml::node& node) {
  switch (option.kind) {
    case OptionKind::Number: {
      auto v = bounded(r, node, option.gate_key, option.low, option.high);
      if (!v) return v.error();
      return std::to_string(*v);
    }
    case OptionKind::Level:
      return read_level(r, node);
    case OptionKind::Devices:
      return read_devices(r, node);
    case OptionKind::Text:
      return text(r, node, option.gate_key);
    case OptionKind::Switch:
    case OptionKind::SeedPolicy:
    case OptionKind::Spec:
      break;
  }
  return Error{"internal error: the gate key '" + std::string(option.gate_key) +
               "' has a kind of value the gate file cannot read"};
}

constexpr std::string_view kKnownFailureKey = "known_failure";

Result<GateFile> read_gate(const Reporter& r, const toml::table& root) {
  for (const auto& [key, value] : root) {
    if (key.str() != kKnownFailureKey && !find_gate_key(key.str())) {
      return r.at(key.source(), "unknown key '" + std::string(key.str()) + "'",
                  "use only " + gate_key_list() + " and [[known_failure]]");
    }
  }
  GateFile gate;
  for (const CertifyOption& option : kCertifyOptions) {
    if (option.gate_key.empty()) continue;
    const toml::node* node = root.get(option.gate_key);
    if (!node) continue;
    if (option.kind == OptionKind::SeedPolicy) {
      if (auto read = read_seed(r, *node, gate); !read) return read.error();
      continue;
    }
    auto value = read_option_value(r, option, *node);
    if (!value) return value.error();
    gate.options.push_back({std::string(option.flag), std::move(value).value()});
  }
  if (const toml::node* known = root.get(kKnownFailureKey)) {
    if (auto read = read_known_failures(r, *known, gate); !read) return read.error();
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

}  // namespace vyre::certify
