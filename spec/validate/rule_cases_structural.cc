// Negative and positive cases for the structural rules. The expected messages
// are copied by hand from seed 004 (V001-V025) and RULES.md (V026 upward).
#include "spec/validate/rule_cases.h"
#include "spec/validate/test_support.h"

namespace vyre::testing {

using namespace vyre::build;
using A = BufferAccess;
using M = MessageId;
using R = RuleId;

namespace {

Body unary_chain_let(size_t depth) {
  ExprPtr e = u32(1);
  for (size_t i = 1; i < depth; ++i) e = unary(UnOp::BitNot, e);
  return {let("x", e)};
}

std::shared_ptr<const OpRegistry> chain_registry(size_t length) {
  return std::make_shared<const OpRegistry>(call_chain(length));
}

}  // namespace

std::vector<RuleCase> structural_rule_cases() {
  std::vector<RuleCase> c;
  c.push_back({"V001_DuplicateBufferName", R::V001, M::DuplicateBufferName,
               program_of({storage("a", 0, A::ReadWrite), storage("a", 1, A::ReadOnly)}, {}),
               "vyre IR validation: duplicate buffer name `a`. Fix: each buffer must have a unique "
               "name.",
               program_of({storage("a", 0, A::ReadWrite), storage("b", 1, A::ReadOnly)}, {})});
  c.push_back({"V002_DuplicateBinding", R::V002, M::DuplicateBinding,
               program_of({storage("a", 3, A::ReadWrite), storage("b", 3, A::ReadOnly)}, {}),
               "vyre IR validation: duplicate binding slot 3 (buffer `b`). Fix: each buffer must "
               "have a unique binding.",
               // Workgroup buffers take no slot, so sharing binding 0 is fine.
               program_of({storage("a", 0, A::ReadWrite), workgroup("b", DataType::U32, 4)}, {})});
  c.push_back({"V003_WorkgroupSizeZero", R::V003, M::WorkgroupSizeZero,
               program_of(in_out(), {}, {4, 0, 1}),
               "vyre IR validation: workgroup_size[1] is 0. Fix: all workgroup dimensions must be "
               ">= 1.",
               program_of(in_out(), {}, {4, 1, 1})});
  c.push_back({"V004_LoadUnknownBuffer", R::V004, M::LoadUnknownBuffer,
               simple({let("x", load("nope", u32(0)))}),
               "vyre IR validation: load from unknown buffer `nope`. Fix: declare it in "
               "Program::buffers.",
               simple({let("x", load("in", u32(0)))})});
  c.push_back({"V004_BufLenUnknownBuffer", R::V004, M::BufLenUnknownBuffer,
               simple({let("x", buflen("nope"))}),
               "vyre IR validation: buflen of unknown buffer `nope`. Fix: declare it in "
               "Program::buffers.",
               simple({let("x", buflen("in"))})});
  c.push_back({"V004_AtomicUnknownBuffer", R::V004, M::AtomicUnknownBuffer,
               simple({let("x", atomic(AtomicOp::Add, "nope", u32(0), u32(1)))}),
               "vyre IR validation: atomic on unknown buffer `nope`. Fix: declare it in "
               "Program::buffers.",
               simple({let("x", atomic(AtomicOp::Add, "out", u32(0), u32(1)))})});
  c.push_back({"V004_StoreUnknownBuffer", R::V004, M::StoreUnknownBuffer,
               simple({store("nope", u32(0), u32(1))}),
               "vyre IR validation: store to unknown buffer `nope`. Fix: declare it in "
               "Program::buffers.",
               simple({store("out", u32(0), u32(1))})});
  c.push_back({"V005_StoreNotWritable", R::V005, M::StoreNotWritable,
               simple({store("in", u32(0), u32(1))}),
               "vyre IR validation: store to non-writable buffer `in`. Fix: declare it with "
               "BufferAccess::ReadWrite or BufferAccess::Workgroup.",
               program_of({storage("in", 0, A::ReadOnly), workgroup("shared", DataType::U32, 8)},
                          {store("shared", u32(0), u32(1))})});
  c.push_back(
      {"V005_StoreToUniform", R::V005, M::StoreNotWritable,
       program_of({storage("params", 0, A::Uniform)}, {store("params", u32(0), u32(1))}),
       "vyre IR validation: store to non-writable buffer `params`. Fix: declare it with "
       "BufferAccess::ReadWrite or BufferAccess::Workgroup.",
       program_of({storage("params", 0, A::ReadWrite)}, {store("params", u32(0), u32(1))})});
  c.push_back({"V006_UndeclaredVariable", R::V006, M::UndeclaredVariable,
               // `x` went out of scope with its block.
               simple({block({let("x", u32(1))}), let("y", var("x"))}),
               "vyre IR validation: reference to undeclared variable `x`. Fix: add `let x = ...;` "
               "before this use.",
               simple({let("x", u32(1)), block({let("y", var("x"))})})});
  c.push_back({"V006_AssignUndeclaredVariable", R::V006, M::AssignUndeclaredVariable,
               simple({if_(u32(1), {let("x", u32(1))}), assign("x", u32(2))}),
               "vyre IR validation: assignment to undeclared variable `x`. Fix: add `let x = ...;` "
               "before this assignment.",
               simple({let("x", u32(1)), if_(u32(1), {assign("x", u32(2))})})});
  c.push_back({"V007_AxisOutOfRange", R::V007, M::AxisOutOfRange, simple({let("x", local_id(3))}),
               "vyre IR validation: invocation/workgroup ID axis 3 out of range. Fix: use 0 (x), 1 "
               "(y), or 2 (z).",
               simple({let("x", local_id(2))})});
  c.push_back({"V007_InvocationIdAxis", R::V007, M::AxisOutOfRange,
               simple({let("x", invocation_id(4294967295u))}),
               "vyre IR validation: invocation/workgroup ID axis 4294967295 out of range. Fix: use "
               "0 (x), 1 (y), or 2 (z).",
               simple({let("x", invocation_id(0))})});
  c.push_back({"V008_DuplicateLocal", R::V008, M::DuplicateLocal,
               simple({let("x", u32(1)), block({let("x", u32(2))})}),
               "vyre IR validation: duplicate local binding `x`. Fix: choose a unique local name; "
               "shadowing is not allowed.",
               // Sibling scopes may reuse a name: neither is live in the other.
               simple({block({let("x", u32(1))}), block({let("x", u32(2))})})});
  c.push_back({"V008_LoopVariableShadows", R::V008, M::DuplicateLocal,
               simple({let("i", u32(0)), loop("i", u32(0), u32(4), {})}),
               "vyre IR validation: duplicate local binding `i`. Fix: choose a unique local name; "
               "shadowing is not allowed.",
               simple({loop("i", u32(0), u32(4), {}), let("i", u32(0))})});
  c.push_back({"V009_AtomicNotReadWrite", R::V009, M::AtomicNotReadWrite,
               simple({let("x", atomic(AtomicOp::Add, "in", u32(0), u32(1)))}),
               "vyre IR validation: atomic on non-writable buffer `in`. Fix: declare it with "
               "BufferAccess::ReadWrite.",
               simple({let("x", atomic(AtomicOp::Add, "out", u32(0), u32(1)))})});
  c.push_back({"V010_DivergentBarrier", R::V010, M::DivergentBarrier,
               simple({if_(lt(local_id(0), u32(1)), {barrier()})}),
               "vyre IR validation: barrier may be reached by only part of a workgroup. Fix: move "
               "the barrier to uniform control flow.",
               simple({if_(lt(workgroup_id(0), u32(1)), {barrier()})})});
  c.push_back({"V011_AssignLoopVariable", R::V011, M::AssignLoopVariable,
               simple({loop("i", u32(0), u32(4), {assign("i", u32(1))})}),
               "vyre IR validation: assignment to loop variable `i`. Fix: loop variables are "
               "immutable.",
               simple({let("x", u32(0)), loop("i", u32(0), u32(4), {assign("x", var("i"))})})});
  c.push_back({"V016_UnknownOp", R::V016, M::UnknownOp,
               simple({let("x", call("primitive.nope", {u32(1)}))}),
               "vyre IR validation: V016: unknown op `primitive.nope`. Fix: use a registered op id "
               "or add the op to core::ops::*.",
               simple({let("x", call("primitive.popcount", {u32(1)}))})});
  c.push_back({"V017_CallDepthExceeded", R::V017, M::CallDepthExceeded,
               simple({let("x", call("chain.0", {u32(1)}))}),
               "vyre IR validation: V017: call depth exceeds maximum of 32. Fix: reduce call "
               "nesting or mutually recursive operations.",
               simple({let("x", call("chain.8", {u32(1)}))}), chain_registry(40)});
  c.push_back({"V018_NestingDepthExceeded", R::V018, M::NestingDepthExceeded,
               simple(nested_blocks(65)),
               "vyre IR validation: V018: program nesting depth 65 exceeds max 64. Fix: flatten "
               "nested If/Loop/Block structures or split the program before lowering.",
               simple(nested_blocks(64))});
  c.push_back({"V019_NodeCountExceeded", R::V019, M::NodeCountExceeded,
               simple({let("x", expression_of_size(100000))}),
               "vyre IR validation: V019: program has more than 100000 statement nodes. Fix: split "
               "the program into smaller kernels or run an optimization pass before lowering.",
               simple({let("x", expression_of_size(99999))})});
  c.push_back({"V020_NonInlinableCall", R::V020, M::NonInlinableCall,
               simple({let("x", call("graph.bfs", {}))}),
               "vyre IR validation: V020: call to non-inlinable op `graph.bfs` is rejected by "
               "validation. Fix: lower this operation through its dedicated backend path or "
               "rewrite the caller with explicit IR.",
               simple({let("x", call("primitive.min", {u32(1), u32(2)}))})});
  c.push_back({"V024_WorkgroupCountZero", R::V024, M::WorkgroupCountZero,
               program_of({workgroup("shared", DataType::U32, 0)}, {}),
               "vyre IR validation: workgroup buffer `shared` has count 0. Fix: declare a positive "
               "element count.",
               program_of({workgroup("shared", DataType::U32, 1)}, {})});
  c.push_back({"V025_AtomicOnWorkgroup", R::V025, M::AtomicOnWorkgroup,
               program_of({workgroup("shared", DataType::U32, 8)},
                          {let("x", atomic(AtomicOp::Add, "shared", u32(0), u32(1)))}),
               "vyre IR validation: atomic on non-writable buffer `shared`. Fix: declare it with "
               "BufferAccess::ReadWrite.",
               program_of({storage("shared", 0, A::ReadWrite)},
                          {let("x", atomic(AtomicOp::Add, "shared", u32(0), u32(1)))})});
  c.push_back(
      {"V029_CompareExchangeWithoutExpected", R::V029, M::CompareExchangeWithoutExpected,
       simple({let("x",
                   make(expr::Atomic{AtomicOp::CompareExchange, "out", u32(0), nullptr, u32(1)}))}),
       "vyre IR validation: atomic_compare_exchange on buffer `out` has no `expected` operand. "
       "Fix: give it the value to compare the old element against.",
       simple({let("x", compare_exchange("out", u32(0), u32(0), u32(1)))})});
  c.push_back(
      {"V029_ExpectedOnOtherAtomic", R::V029, M::ExpectedOnOtherAtomic,
       simple({let("x", make(expr::Atomic{AtomicOp::Add, "out", u32(0), u32(0), u32(1)}))}),
       "vyre IR validation: `atomic_add` on buffer `out` has an `expected` operand, which only "
       "atomic_compare_exchange takes. Fix: remove the operand or use atomic_compare_exchange.",
       simple({let("x", atomic(AtomicOp::Add, "out", u32(0), u32(1)))})});
  c.push_back({"V030_ExpressionDepthExceeded", R::V030, M::ExpressionDepthExceeded,
               simple(unary_chain_let(129)),
               "vyre IR validation: expression depth 129 exceeds max 128. Fix: bind subexpressions "
               "to locals with `let` to flatten the expression.",
               simple(unary_chain_let(128))});
  c.push_back({"V031_UnreachableAfterReturn", R::V031, M::UnreachableAfterReturn,
               simple({if_(u32(1), {ret(), store("out", u32(0), u32(1))})}),
               "vyre IR validation: statement after `return` is unreachable. Fix: remove it or "
               "move the `return` to the end of its body.",
               simple({if_(u32(1), {store("out", u32(0), u32(1)), ret()})})});
  c.push_back({"V034_CallArity", R::V034, M::CallArity,
               simple({let("x", call("primitive.add", {u32(1)}))}),
               "vyre IR validation: call to `primitive.add` passes 1 argument but the op takes 2 "
               "arguments. Fix: pass exactly 2 arguments.",
               simple({let("x", call("primitive.add", {u32(1), u32(2)}))})});
  c.push_back({"V038_PlannedBufferElement", R::V038, M::PlannedBufferElement,
               program_of({storage("f", 0, A::ReadOnly, DataType::F32)}, {}),
               "vyre IR validation: buffer `f` uses planned element type `f32`, which is "
               "specified but not usable yet. Fix: use a stable type (u32, i32, u64, vec2u32, "
               "vec4u32, bool or bytes).",
               program_of({storage("f", 0, A::ReadOnly, DataType::U32)}, {})});
  c.push_back({"V039_UniformBufferTooLarge", R::V039, M::UniformBufferTooLarge,
               program_of({storage("params", 0, A::Uniform, DataType::U32, 16385)}, {}),
               "vyre IR validation: uniform buffer `params` declares 65540 bytes, more than the "
               "65536 allowed. Fix: keep it within 64 KiB or declare it with "
               "BufferAccess::ReadOnly.",
               program_of({storage("params", 0, A::Uniform, DataType::U32, 16384)}, {})});
  c.push_back({"V040_MissingStatementOperand", R::V040, M::MissingOperand,
               simple({store("out", nullptr, u32(1))}),
               "vyre IR validation: `store` has no `index` expression. Fix: give every required "
               "operand an expression.",
               simple({store("out", u32(0), u32(1))})});
  c.push_back({"V040_MissingExpressionOperand", R::V040, M::MissingOperand,
               simple({let("x", add(nullptr, u32(1)))}),
               "vyre IR validation: `binop` has no `left` expression. Fix: give every required "
               "operand an expression.",
               simple({let("x", add(u32(0), u32(1)))})});
  return c;
}

}  // namespace vyre::testing
