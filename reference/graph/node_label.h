// Node labels of graph.bfs: the role sits in bits 16..23 of each label word,
// the other bits are free domain metadata (seed 001, pinned spec section 7).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "spec/support/result.h"

namespace vyre::graph {

/// What a node does to a traversal that reaches it.
enum class NodeRole : uint8_t {
#define X(e, value, name, doc) e = value,
#include "reference/graph/node_roles.def"
#undef X
};

/// Bit position and width of the role inside a label word.
inline constexpr uint32_t kRoleShift = 16;
inline constexpr uint32_t kRoleMask = 0xFF;
/// Largest role value that is not reserved.
inline constexpr uint32_t kMaxRoleValue = 4;

/// The raw role byte of a label, reserved values included.
constexpr uint32_t role_bits(uint32_t label) {
  return (label >> kRoleShift) & kRoleMask;
}

/// The role a raw role byte stands for; nullopt for the reserved values 5-255.
std::optional<NodeRole> role_from_bits(uint32_t bits);

/// A label word carrying `role` and 16 bits of domain metadata.
constexpr uint32_t make_label(NodeRole role, uint16_t metadata = 0) {
  return (static_cast<uint32_t>(role) << kRoleShift) | metadata;
}

/// True for the roles that make a reached node a finding (sink, source+sink).
constexpr bool reports_finding(NodeRole role) {
  return role == NodeRole::Sink || role == NodeRole::SourceSink;
}

/// True for the roles whose outgoing edges are followed (every role but sanitizer).
constexpr bool expands(NodeRole role) {
  return role != NodeRole::Sanitizer;
}

/// "normal", "source", "sink", "source+sink", "sanitizer".
std::string_view name_of(NodeRole role);

/// Every role, in table order.
std::span<const NodeRole> all_node_roles();

/// Checks that every label carries a defined role; the error names the first
/// offending node, its label, the role found and the valid roles.
Result<Ok> validate_labels(std::span<const uint32_t> labels);

}  // namespace vyre::graph
