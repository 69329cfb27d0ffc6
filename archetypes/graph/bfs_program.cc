#include "archetypes/graph/bfs_program.h"

#include <string>

#include "archetypes/graph/bfs_layout.h"
#include "reference/graph/node_label.h"
#include "spec/ir/builder.h"

namespace vyre::archetypes::bfs {
namespace {

using namespace vyre::build;

std::string name(std::string_view s) {
  return std::string(s);
}

ExprPtr param(ParamWord word) {
  return load(name(kParams), u32(word));
}

/// The role byte of a node's label: (label >> 16) & 0xFF.
ExprPtr role_of(ExprPtr node) {
  return bit_and(shr(load(name(kNodeLabels), std::move(node)), u32(graph::kRoleShift)),
                 u32(graph::kRoleMask));
}

ExprPtr role_is(const std::string& role_var, graph::NodeRole role) {
  return eq(var(role_var), u32(static_cast<uint32_t>(role)));
}

/// Sink and source+sink report a finding.
ExprPtr reports(const std::string& role_var) {
  return or_(role_is(role_var, graph::NodeRole::Sink),
             role_is(role_var, graph::NodeRole::SourceSink));
}

/// Appends (start, sink, depth, sid) through an atomic slot on finding_count;
/// the counter keeps counting past max_findings, only slots below it are written.
Body emit_finding(const std::string& slot, ExprPtr sink, ExprPtr depth) {
  auto word = [&](uint32_t k) { return add(mul(var(slot), u32(4)), u32(k)); };
  return {
      let(slot, atomic(AtomicOp::Add, name(kFindingCount), u32(0), u32(1))),
      if_(lt(var(slot), var("max_findings")),
          {
              store(name(kFindings), word(0), var("start")),
              store(name(kFindings), word(1), std::move(sink)),
              store(name(kFindings), word(2), std::move(depth)),
              store(name(kFindings), word(3), var("sid")),
          }),
  };
}

/// Marks `node` visited in this source's bitmap; binds `prev_var` to the word
/// before the atomic Or and `bit_var` to the node's bit.
Body visit(const std::string& prev_var, const std::string& bit_var, ExprPtr node) {
  return {
      let(bit_var, shl(u32(1), bit_and(node, u32(31)))),
      let(prev_var, atomic(AtomicOp::Or, name(kVisitedSet),
                           add(var("visited_base"), shr(node, u32(5))), var(bit_var))),
  };
}

/// Handles one edge target found at `depth`: report a sink, then queue it for
/// the next level unless it is a sanitizer or sits at max_depth; a full level
/// counts the drop in queue_overflow instead.
Body discover_target() {
  Body body = visit("target_prev", "target_bit", var("target"));
  Body on_new = {let("target_role", role_of(var("target")))};
  on_new.push_back(
      if_(reports("target_role"), emit_finding("target_slot", var("target"), var("depth"))));
  on_new.push_back(if_(
      and_(ne(var("target_role"), u32(static_cast<uint32_t>(graph::NodeRole::Sanitizer))),
           var("expand_next")),
      {if_(lt(var("next_count"), u32(kMaxBfsQueue)),
           {
               store(name(kQueue), add(var("next_base"), var("next_count")), var("target")),
               assign("next_count", add(var("next_count"), u32(1))),
           },
           {let("overflow_prev", atomic(AtomicOp::Add, name(kQueueOverflow), u32(0), u32(1)))})}));
  body.push_back(
      if_(eq(bit_and(var("target_prev"), var("target_bit")), u32(0)), std::move(on_new)));
  return body;
}

/// One BFS level: expands the level_count nodes of the current level buffer
/// into the other one, then ends the invocation when nothing was queued.
Body expand_level() {
  Body per_edge = {let("target", load(name(kEdgeTargets), var("edge")))};
  for (Node& n : discover_target()) per_edge.push_back(std::move(n));
  Body per_node = {
      let("node", load(name(kQueue), add(var("current_base"), var("slot_i")))),
      loop("edge", load(name(kEdgeOffsets), var("node")),
           load(name(kEdgeOffsets), add(var("node"), u32(1))), std::move(per_edge)),
  };
  return {
      let("current_base",
          add(var("queue_base"), mul(bit_and(var("level"), u32(1)), u32(kMaxBfsQueue)))),
      let("next_base", add(var("queue_base"),
                           mul(bit_and(add(var("level"), u32(1)), u32(1)), u32(kMaxBfsQueue)))),
      let("depth", add(var("level"), u32(1))),
      let("expand_next", lt(var("depth"), var("max_depth"))),
      let("next_count", u32(0)),
      loop("slot_i", u32(0), var("level_count"), std::move(per_node)),
      assign("level_count", var("next_count")),
      if_(eq(var("level_count"), u32(0)), {ret()}),
  };
}

Body entry() {
  const auto sanitizer = u32(static_cast<uint32_t>(graph::NodeRole::Sanitizer));
  Body body = {
      let("sid", invocation_id(0)),
      // One invocation per source along x; workgroups past the first row on
      // y or z (a grid wider than needed) must not run a source twice.
      if_(or_(or_(ne(invocation_id(1), u32(0)), ne(invocation_id(2), u32(0))),
              ge(var("sid"), param(kParamNumSources))),
          {ret()}),
      let("num_nodes", param(kParamNumNodes)),
      let("max_findings", param(kParamMaxFindings)),
      let("max_depth", param(kParamMaxDepth)),
      let("words_per_source", param(kParamWordsPerSource)),
      let("visited_base", mul(var("sid"), var("words_per_source"))),
      let("queue_base", mul(var("sid"), u32(kQueueWordsPerSource))),
      let("start", load(name(kSourceNodes), var("sid"))),
      // Host validation rejects such sources; the guard keeps a bad dispatch inert.
      if_(ge(var("start"), var("num_nodes")), {ret()}),
      // Each invocation clears its own bitmap, so visited_set's initial bytes
      // do not matter and no other invocation ever touches these words.
      loop("clear_w", u32(0), var("words_per_source"),
           {store(name(kVisitedSet), add(var("visited_base"), var("clear_w")), u32(0))}),
  };
  for (Node& n : visit("start_prev", "start_bit", var("start"))) body.push_back(std::move(n));
  body.push_back(let("start_role", role_of(var("start"))));
  body.push_back(if_(reports("start_role"), emit_finding("start_slot", var("start"), u32(0))));
  body.push_back(store(name(kQueue), var("queue_base"), var("start")));
  body.push_back(let("level_count",
                     select(and_(ne(var("start_role"), sanitizer), gt(var("max_depth"), u32(0))),
                            u32(1), u32(0))));
  // Loop bounds are fixed at entry, so "while the frontier is not empty" is a
  // level loop that returns early; no BFS from one source is deeper than
  // num_nodes - 1 levels, which bounds the loop even for max_depth = 2^32 - 1.
  body.push_back(
      loop("level", u32(0),
           select(lt(var("max_depth"), var("num_nodes")), var("max_depth"), var("num_nodes")),
           expand_level()));
  return body;
}

Program build_program() {
  Program p;
  for (const BindingRow& row : kBindings) {
    p.buffers.push_back(storage(name(row.name), row.binding, row.access, row.element, row.count));
  }
  p.workgroup_size = {kWorkgroupSize, 1, 1};
  p.entry = entry();
  return p;
}

}  // namespace

Program graph_bfs_program() {
  static const Program program = build_program();
  return program;
}

}  // namespace vyre::archetypes::bfs
