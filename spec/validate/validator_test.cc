// The driver's promises: every independent error is collected, no error
// cascades into others, diagnostics come in program order and carry the
// offending node's location.
#include "spec/validate/validator.h"

#include <gtest/gtest.h>

#include "spec/validate/test_support.h"

namespace vyre::testing {
namespace {

using namespace vyre::build;
using A = BufferAccess;
using R = RuleId;
using T = DataType;

TEST(Validator, CollectsEveryIndependentError) {
  const Program p = program_of(
      {storage("a", 0, A::ReadWrite), storage("a", 1, A::ReadOnly), workgroup("w", T::U32, 0)},
      {let("x", load("nope", u32(0))), let("y", var("missing")), let("z", cast(T::Bytes, u32(1))),
       store("a", u32(0), add(boolean(true), u32(1))),
       loop("i", u32(0), u32(4), {assign("i", u32(0))}), let("q", local_id(7)), barrier()},
      {1, 0, 1});
  const std::vector<Diagnostic> found = validate(p);
  EXPECT_EQ(rules_of(found), (std::vector<RuleId>{R::V001, R::V024, R::V003, R::V004, R::V006,
                                                  R::V023, R::V021, R::V011, R::V007}));
}

TEST(Validator, ValidProgramHasNoDiagnostics) {
  const Program p = program_of(
      {storage("in", 0, A::ReadOnly), storage("out", 1, A::ReadWrite),
       storage("params", 2, A::Uniform, T::U32, 4), workgroup("tile", T::U32, 64)},
      {let("gid", invocation_id(0)), let("n", load("params", u32(0))),
       if_(lt(var("gid"), var("n")),
           {store("tile", local_id(0), load("in", var("gid"))), let("acc", u32(0)),
            loop("k", u32(0), u32(4), {assign("acc", add(var("acc"), var("k")))}),
            store("out", var("gid"), call("primitive.clamp", {var("acc"), u32(1), u32(9)}))}),
       barrier(), let("prev", compare_exchange("out", u32(0), u32(0), u32(1)))},
      {64, 1, 1});
  EXPECT_TRUE(validate(p).empty());
}

TEST(Validator, UnknownBufferDoesNotCascade) {
  // The Load's type is unknown: no V021 for the add, no V026 for the store.
  const Program p = simple({let("x", load("nope", u32(0))), let("y", add(var("x"), u32(1))),
                            store("out", u32(0), var("x"))});
  EXPECT_EQ(rules_of(validate(p)), std::vector<RuleId>{R::V004});
}

TEST(Validator, UndeclaredVariableDoesNotCascade) {
  const Program p = simple({let("y", add(var("ghost"), u32(1))), store("out", var("ghost"), u32(1)),
                            if_(var("ghost"), {})});
  EXPECT_EQ(rules_of(validate(p)), (std::vector<RuleId>{R::V006, R::V006, R::V006}));
}

TEST(Validator, BytesAndPlannedElementsDoNotCascade) {
  const Program p =
      program_of({storage("raw", 0, A::ReadOnly, T::Bytes), storage("f", 1, A::ReadOnly, T::F32),
                  storage("out", 2, A::ReadWrite)},
                 {store("out", u32(0), add(load("raw", u32(0)), load("f", u32(0))))});
  EXPECT_EQ(rules_of(validate(p)), (std::vector<RuleId>{R::V038, R::V013}));
}

TEST(Validator, MismatchedSelectArmsDoNotCascade) {
  const Program p = simple({let("x", select(u32(1), u32(1), boolean(true))),
                            store("out", u32(0), var("x")), let("y", add(var("x"), u32(1)))});
  EXPECT_EQ(rules_of(validate(p)), std::vector<RuleId>{R::V028});
}

TEST(Validator, MissingOperandDoesNotCascade) {
  const Program p =
      simple({store("out", u32(0), add(nullptr, nullptr)), if_(nullptr, {barrier()})});
  EXPECT_EQ(rules_of(validate(p)), (std::vector<RuleId>{R::V040, R::V040, R::V040}));
}

TEST(Validator, InvalidCastKeepsItsTargetType) {
  // V012 reports the cast; the value is still a vec4u32, so no V026 against a vec4u32 buffer.
  const Program p = program_of({storage("v", 0, A::ReadWrite, T::Vec4U32)},
                               {store("v", u32(0), cast(T::Vec4U32, cast(T::U64, u32(1))))});
  EXPECT_EQ(rules_of(validate(p)), std::vector<RuleId>{R::V012});
}

TEST(Validator, ShadowingDoesNotCascade) {
  // After a shadowing `let x` or loop variable (V008), which `x` a use meant
  // is unclear, so its type is unknown and nothing more is reported.
  EXPECT_EQ(
      rules_of(validate(simple(
          {let("x", u32(1)), block({let("x", boolean(true)), let("y", add(var("x"), u32(1)))})}))),
      std::vector<RuleId>{R::V008});
  EXPECT_EQ(
      rules_of(validate(simple(
          {let("i", boolean(true)), loop("i", u32(0), u32(4), {store("out", var("i"), u32(1))})}))),
      std::vector<RuleId>{R::V008});
}

TEST(Validator, V025AndV009HaveOneTextAndTwoIds) {
  const Program p = program_of({storage("ro", 0, A::ReadOnly), workgroup("wg", T::U32, 4)},
                               {let("a", atomic(AtomicOp::Add, "ro", u32(0), u32(1))),
                                let("b", atomic(AtomicOp::Add, "wg", u32(0), u32(1)))});
  const std::vector<Diagnostic> found = validate(p);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].rule, R::V009);
  EXPECT_EQ(found[1].rule, R::V025);
  EXPECT_EQ(found[0].message,
            "vyre IR validation: atomic on non-writable buffer `ro`. Fix: declare it with "
            "BufferAccess::ReadWrite.");
  EXPECT_EQ(found[1].message,
            "vyre IR validation: atomic on non-writable buffer `wg`. Fix: declare it with "
            "BufferAccess::ReadWrite.");
  EXPECT_NE(name_of(found[0].rule), name_of(found[1].rule));
}

TEST(Validator, AtomicOnReadOnlyBytesBufferReportsAccessAndElement) {
  const Program p = program_of({storage("raw", 0, A::ReadOnly, T::Bytes)},
                               {let("a", atomic(AtomicOp::Add, "raw", u32(0), u32(1)))});
  EXPECT_EQ(rules_of(validate(p)), (std::vector<RuleId>{R::V009, R::V013}));
}

TEST(Validator, DiagnosticsComeInProgramOrderAcrossFamilies) {
  // The type checker runs after the buffer-access family, yet the V021 of the
  // first statement comes before the V004 of the second.
  const Program p = simple({let("a", add(i32(1), u32(2))), let("b", load("nope", u32(0)))});
  EXPECT_EQ(rules_of(validate(p)), (std::vector<RuleId>{R::V021, R::V004}));
}

TEST(Validator, DiagnosticsCarryTheOffendingNodesLocation) {
  Program p = simple({});
  p.buffers.push_back(BufferDecl{"in", 5, A::ReadOnly, T::U32, 0, SourceLoc{2, 3}});
  ExprPtr bad_operand = make(expr::LitI32{1}, SourceLoc{7, 21});
  p.entry.push_back(stmt(node::Let{"x", add(bad_operand, u32(1))}, SourceLoc{7, 3}));
  p.entry.push_back(stmt(node::Store{"in", u32(0), u32(1)}, SourceLoc{8, 3}));
  const std::vector<Diagnostic> found = validate(p);
  ASSERT_EQ(rules_of(found), (std::vector<RuleId>{R::V001, R::V021, R::V005}));
  EXPECT_EQ(found[0].loc.line, 2u);
  EXPECT_EQ(found[0].loc.col, 3u);
  EXPECT_EQ(found[1].loc.line, 7u);
  EXPECT_EQ(found[1].loc.col, 21u);
  EXPECT_EQ(found[2].loc.line, 8u);
  EXPECT_EQ(found[2].loc.col, 3u);
}

TEST(Validator, EachZeroWorkgroupAxisIsReported) {
  const std::vector<Diagnostic> found = validate(program_of(in_out(), {}, {0, 1, 0}));
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].message,
            "vyre IR validation: workgroup_size[0] is 0. Fix: all workgroup dimensions must be >= "
            "1.");
  EXPECT_EQ(found[1].message,
            "vyre IR validation: workgroup_size[2] is 0. Fix: all workgroup dimensions must be >= "
            "1.");
}

TEST(Validator, WorkgroupSizeDiagnosticsPointAtWorkgroupSize) {
  Program p = program_of(in_out(), {}, {1, 0, 0});
  p.workgroup_size_loc = SourceLoc{3, 5};
  const std::vector<Diagnostic> found = validate(p);
  ASSERT_EQ(rules_of(found), (std::vector<RuleId>{R::V003, R::V003}));
  for (const Diagnostic& d : found) {
    EXPECT_EQ(d.loc.line, 3u);
    EXPECT_EQ(d.loc.col, 5u);
  }
}

TEST(Validator, NodeCountPointsAtTheStatementThatCrossesTheLimit) {
  // Each `let` is 2 nodes: the 50000th brings the count to exactly 100000,
  // the 50001st (at line 50002) past it.
  Program p = simple({});
  p.loc = SourceLoc{1, 1};
  for (uint32_t i = 1; i <= 50005; ++i) {
    p.entry.push_back(stmt(node::Let{"x" + std::to_string(i), u32(1)}, SourceLoc{i + 1, 3}));
  }
  const std::vector<Diagnostic> found = validate(p);
  ASSERT_EQ(rules_of(found), std::vector<RuleId>{R::V019});
  EXPECT_EQ(found[0].loc.line, 50002u);
  EXPECT_EQ(found[0].loc.col, 3u);
  // Built in code, the statements have no location: the program's is used.
  Program unlocated = simple(Body(100001, barrier()));
  unlocated.loc = SourceLoc{2, 7};
  const std::vector<Diagnostic> at_program = validate(unlocated);
  ASSERT_EQ(rules_of(at_program), std::vector<RuleId>{R::V019});
  EXPECT_EQ(at_program[0].loc.line, 2u);
  EXPECT_EQ(at_program[0].loc.col, 7u);
}

TEST(Validator, NamesAreShownWithTheTextFormatsEscapes) {
  // A newline, NUL, terminal escape or invalid UTF-8 byte in a name must not
  // split, cut or colour the diagnostic line: the name is spelled as the text
  // format writes it (spec/text/GRAMMAR.md, Names).
  const std::string name("ev\0il\n\x1b[31m\xff", 12);
  const Program p = simple({let("y", var(name)), let("z", var("plain")), let("if", var("if"))});
  const std::vector<Diagnostic> found = validate(p);
  ASSERT_EQ(rules_of(found), (std::vector<RuleId>{R::V006, R::V006, R::V006}));
  EXPECT_EQ(
      found[0].message,
      "vyre IR validation: reference to undeclared variable `\"ev\\x00il\\n\\x1b[31m\\xff\"`. "
      "Fix: add `let \"ev\\x00il\\n\\x1b[31m\\xff\" = ...;` before this use.");
  EXPECT_EQ(found[1].message,
            "vyre IR validation: reference to undeclared variable `plain`. Fix: add `let plain = "
            "...;` before this use.");
  // A reserved word is quoted, as `let` needs it to be.
  EXPECT_EQ(found[2].message,
            "vyre IR validation: reference to undeclared variable `\"if\"`. Fix: add `let \"if\" = "
            "...;` before this use.");
}

TEST(Validator, OpIdsAreShownWithTheTextFormatsEscapes) {
  const std::vector<Diagnostic> found = validate(simple({let("x", call("no\nsuch", {}))}));
  ASSERT_EQ(rules_of(found), std::vector<RuleId>{R::V016});
  EXPECT_EQ(found[0].message,
            "vyre IR validation: V016: unknown op `\"no\\nsuch\"`. Fix: use a registered op id or "
            "add the op to core::ops::*.");
}

TEST(Validator, CallArityCountsReadAsEnglish) {
  const std::vector<Diagnostic> found =
      validate(simple({let("x", call("primitive.popcount", {u32(1), u32(2)})),
                       let("y", call("primitive.popcount", {}))}));
  ASSERT_EQ(rules_of(found), (std::vector<RuleId>{R::V034, R::V034}));
  EXPECT_EQ(found[0].message,
            "vyre IR validation: call to `primitive.popcount` passes 2 arguments but the op takes "
            "1 argument. Fix: pass exactly 1 argument.");
  EXPECT_EQ(found[1].message,
            "vyre IR validation: call to `primitive.popcount` passes 0 arguments but the op takes "
            "1 argument. Fix: pass exactly 1 argument.");
}

TEST(Validator, SharedSubexpressionIsCheckedAtEachUse) {
  const ExprPtr bad = load("nope", u32(0));
  const Program p = simple({let("a", bad), let("b", bad)});
  EXPECT_EQ(rules_of(validate(p)), (std::vector<RuleId>{R::V004, R::V004}));
}

TEST(Validator, ManyBuffersAndAccessesStayFast) {
  // Buffer lookups are hashed: 20000 buffers x 20000 loads would take minutes
  // with a linear search.
  std::vector<BufferDecl> buffers;
  Body body;
  for (uint32_t i = 0; i < 20000; ++i) {
    buffers.push_back(storage("b" + std::to_string(i), i, A::ReadOnly));
    body.push_back(let("x" + std::to_string(i), load("b" + std::to_string(i), u32(0))));
  }
  EXPECT_TRUE(validate(program_of(std::move(buffers), std::move(body))).empty());
}

}  // namespace
}  // namespace vyre::testing
