#include "archetypes/dataflow/dataflow_programs.h"

#include <string>

#include "archetypes/dataflow/dataflow_input.h"
#include "spec/ir/builder.h"

namespace vyre::dataflow {
namespace {

using namespace vyre::build;

std::string name(std::string_view s) {
  return std::string(s);
}

ExprPtr param(EngineParam word) {
  return load(name(kParams), u32(word));
}

/// The interface shared by both programs, by binding.
std::vector<BufferDecl> buffers() {
  constexpr auto RO = BufferAccess::ReadOnly;
  constexpr auto RW = BufferAccess::ReadWrite;
  return {
      storage(name(kOffsets), 0, RO),
      storage(name(kTargets), 1, RO),
      storage(name(kNodeData), 2, RO),
      storage(name(kNodeMetadata), 3, RO),
      storage(name(kSources), 4, RO),
      storage(name(kVisited), 5, RW),
      storage(name(kFrontier), 6, RO),
      storage(name(kNextFrontier), 7, RW),
      storage(name(kChanged), 8, RW, DataType::U32, 1),
      storage(name(kFindings), 9, RW),
      storage(name(kFindingCount), 10, RW, DataType::U32, 1),
      storage(name(kParams), 11, BufferAccess::Uniform, DataType::U32, kEngineParamCount),
  };
}

/// Appends (start, sink, depth, sid) at an atomically taken slot; the host
/// sized findings for every possible row, the guard only keeps stray writes out.
Body emit_finding(const std::string& slot, ExprPtr sink, ExprPtr depth) {
  auto word = [&](uint32_t k) { return add(mul(var(slot), u32(4)), u32(k)); };
  return {
      let(slot, atomic(AtomicOp::Add, name(kFindingCount), u32(0), u32(1))),
      if_(lt(var(slot), param(kMaxFindings)),
          {
              store(name(kFindings), word(0), var("start")),
              store(name(kFindings), word(1), std::move(sink)),
              store(name(kFindings), word(2), std::move(depth)),
              store(name(kFindings), word(3), var("sid")),
          }),
  };
}

ExprPtr is_sink(ExprPtr node) {
  return ne(bit_and(load(name(kNodeData), std::move(node)), u32(kSinkRoleBit)), u32(0));
}

Program make_seed() {
  Body body = {
      let("sid", invocation_id(0)),
      // Workgroups past the first row on y or z must not seed a source twice.
      if_(or_(or_(ne(invocation_id(1), u32(0)), ne(invocation_id(2), u32(0))),
              ge(var("sid"), param(kNumSources))),
          {ret()}),
      let("start", load(name(kSources), var("sid"))),
      if_(ge(var("start"), param(kNumNodes)), {ret()}),
      let("word", add(mul(var("sid"), param(kWordsPerSource)), shr(var("start"), u32(5)))),
      let("bit", shl(u32(1), bit_and(var("start"), u32(31)))),
      let("visited_prev", atomic(AtomicOp::Or, name(kVisited), var("word"), var("bit"))),
      let("frontier_prev", atomic(AtomicOp::Or, name(kNextFrontier), var("word"), var("bit"))),
  };
  body.push_back(if_(is_sink(var("start")), emit_finding("slot", var("start"), u32(0))));
  return Program{buffers(), {kEngineWorkgroupSize, 1, 1}, std::move(body)};
}

/// Expands frontier node `current` of source `sid`.
Body expand_node(const TransferFunction& transfer) {
  const TransferArgs args{var("start"), var("current"), var("target"),
                          load(name(kNodeMetadata), var("target"))};
  Body on_new = {
      let("next_prev",
          atomic(AtomicOp::Or, name(kNextFrontier), var("target_word"), var("target_bit"))),
      let("changed_prev", atomic(AtomicOp::Or, name(kChanged), u32(0), u32(1))),
  };
  on_new.push_back(
      if_(is_sink(var("target")), emit_finding("slot", var("target"), add(param(kLevel), u32(1)))));
  Body on_allowed = {
      let("target_word", add(var("source_base"), shr(var("target"), u32(5)))),
      let("target_bit", shl(u32(1), bit_and(var("target"), u32(31)))),
      let("visited_prev",
          atomic(AtomicOp::Or, name(kVisited), var("target_word"), var("target_bit"))),
      if_(eq(bit_and(var("visited_prev"), var("target_bit")), u32(0)), std::move(on_new)),
  };
  Body per_edge = {
      let("target", load(name(kTargets), var("edge"))),
      if_(ne(transfer.ir(args), u32(0)), std::move(on_allowed)),
  };
  return {
      let("current", add(mul(var("word_index"), u32(32)), var("bit_index"))),
      loop("edge", load(name(kOffsets), var("current")),
           load(name(kOffsets), add(var("current"), u32(1))), std::move(per_edge)),
  };
}

Program make_level(const TransferFunction& transfer) {
  Body body = {
      let("word_index", invocation_id(0)),
      let("sid", invocation_id(1)),
      if_(or_(or_(ge(var("word_index"), param(kWordsPerSource)),
                  ge(var("sid"), param(kNumSources))),
              ne(invocation_id(2), u32(0))),
          {ret()}),
      let("source_base", mul(var("sid"), param(kWordsPerSource))),
      let("frontier_word", load(name(kFrontier), add(var("source_base"), var("word_index")))),
      if_(eq(var("frontier_word"), u32(0)), {ret()}),
      let("start", load(name(kSources), var("sid"))),
      loop("bit_index", u32(0), u32(32),
           {if_(ne(bit_and(shr(var("frontier_word"), var("bit_index")), u32(1)), u32(0)),
                expand_node(transfer))}),
  };
  return Program{buffers(), {kEngineWorkgroupSize, 1, 1}, std::move(body)};
}

}  // namespace

Program seed_program() {
  return make_seed();
}

Program level_program(const TransferFunction& transfer) {
  return make_level(transfer);
}

}  // namespace vyre::dataflow
