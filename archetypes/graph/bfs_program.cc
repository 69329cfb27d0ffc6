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

/// The largest u32, which the step bound saturates at instead of wrapping.
constexpr uint32_t kU32Max = 0xFFFFFFFFu;

/// One edge step: examines out-edge `edge` of the node being expanded.
Body edge_step() {
  Body body = {let("target", load(name(kEdgeTargets), var("edge")))};
  for (Node& n : discover_target()) body.push_back(std::move(n));
  body.push_back(assign("edge", add(var("edge"), u32(1))));
  return body;
}

/// Ends the exhausted level: returns when it queued nothing, else makes the
/// next level current (the two queue halves swap roles) one edge deeper.
Body advance_level() {
  return {
      if_(eq(var("next_count"), u32(0)), {ret()}),
      let("finished_base", var("current_base")),
      assign("current_base", var("next_base")),
      assign("next_base", var("finished_base")),
      assign("depth", add(var("depth"), u32(1))),
      assign("expand_next", lt(var("depth"), var("max_depth"))),
      assign("level_count", var("next_count")),
      assign("next_count", u32(0)),
      assign("level_slot", u32(0)),
  };
}

/// One node step: takes the next node of the current level (advancing the
/// level first when the current one is exhausted) and sets its edge range.
Body node_step() {
  return {
      if_(eq(var("level_slot"), var("level_count")), advance_level()),
      let("node", load(name(kQueue), add(var("current_base"), var("level_slot")))),
      assign("edge", load(name(kEdgeOffsets), var("node"))),
      assign("edge_end", load(name(kEdgeOffsets), add(var("node"), u32(1)))),
      assign("level_slot", add(var("level_slot"), u32(1))),
  };
}

/// The traversal state before the first step (level 0 current, its edges
/// found at depth 1, no edge range open) and the step bound
/// num_edges + num_nodes + 1, saturated at 2^32 - 1.
Body traversal_state() {
  return {
      let("current_base", var("queue_base")),
      let("next_base", add(var("queue_base"), u32(kMaxBfsQueue))),
      let("depth", u32(1)),
      let("expand_next", lt(u32(1), var("max_depth"))),
      let("next_count", u32(0)),
      let("level_slot", u32(0)),
      let("edge", u32(0)),
      let("edge_end", u32(0)),
      // A valid CSR starts at offset 0, so its last offset is the edge count.
      let("num_edges", load(name(kEdgeOffsets), var("num_nodes"))),
      let("step_bound", add(var("num_edges"), var("num_nodes"))),
      assign("step_bound",
             select(lt(var("step_bound"), var("num_edges")), u32(kU32Max), var("step_bound"))),
      assign("step_bound", select(eq(var("step_bound"), u32(kU32Max)), u32(kU32Max),
                                  add(var("step_bound"), u32(1)))),
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
  for (Node& n : traversal_state()) body.push_back(std::move(n));
  // One flat step loop instead of level -> node -> edge loops: lavapipe ends
  // a batch of lanes after 65535 loop back-edges in all, and nested loops run
  // in lockstep cost the sum, over levels and node slots, of the slowest lane.
  // Each step examines one edge, takes one node or returns, so one bound,
  // the same for every lane and fixed at entry, covers every source (BFS.md,
  // "The step loop").
  body.push_back(loop("step", u32(0), var("step_bound"),
                      {if_(lt(var("edge"), var("edge_end")), edge_step(), node_step())}));
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
