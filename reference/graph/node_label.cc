#include "reference/graph/node_label.h"

#include <array>
#include <cstdio>
#include <string>

namespace vyre::graph {
namespace {

struct RoleRow {
  NodeRole role;
  std::string_view name;
};

constexpr std::array kRoles = {
#define X(e, value, name, doc) RoleRow{NodeRole::e, name},
#include "reference/graph/node_roles.def"
#undef X
};

constexpr std::array kRoleValues = {
#define X(e, value, name, doc) NodeRole::e,
#include "reference/graph/node_roles.def"
#undef X
};

static_assert(kRoles.size() == kMaxRoleValue + 1, "role values must be 0..kMaxRoleValue, dense");

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", v);
  return buf;
}

}  // namespace

std::optional<NodeRole> role_from_bits(uint32_t bits) {
  if (bits > kMaxRoleValue) return std::nullopt;
  return kRoles[bits].role;
}

std::string_view name_of(NodeRole role) {
  return kRoles[static_cast<size_t>(role)].name;
}

std::span<const NodeRole> all_node_roles() {
  return kRoleValues;
}

Result<Ok> validate_labels(std::span<const uint32_t> labels) {
  for (size_t node = 0; node < labels.size(); ++node) {
    const uint32_t bits = role_bits(labels[node]);
    if (role_from_bits(bits)) continue;
    return Error{"graph label invalid: node_labels[" + std::to_string(node) +
                 "] = " + hex(labels[node]) + " has role " + std::to_string(bits) +
                 " in bits 16..23; valid roles are 0-4 (0 normal, 1 source, 2 sink, 3 "
                 "source+sink, 4 sanitizer) and 5-255 are reserved. Fix: set bits 16..23 of "
                 "that label to one of 0-4 (a sanitizer cannot also be a sink)."};
  }
  return Ok{};
}

}  // namespace vyre::graph
