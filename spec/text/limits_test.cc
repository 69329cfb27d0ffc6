// Bad or huge input of any kind ends in an Error or a parse, never a crash, a
// stack overflow or unbounded time: the size cap, the nesting cap at its exact
// boundary, a million statements, and random bytes.
#include <gtest/gtest.h>

#include <random>

#include "spec/ir/builder.h"
#include "spec/text/text_format.h"

namespace vyre {
namespace {

using namespace build;

std::string repeat(std::string_view piece, size_t times) {
  std::string out;
  out.reserve(piece.size() * times);
  for (size_t i = 0; i < times; ++i) out += piece;
  return out;
}

/// A program whose body is `depth` blocks, one inside the other.
std::string nested_blocks(size_t depth) {
  return "program { " + repeat("{", depth) + repeat("}", depth) + " }";
}

/// A program `let v = negate(negate(...(1)...))` with `depth` expressions.
std::string nested_expression(size_t depth) {
  return "program { let v = " + repeat("negate(", depth - 1) + "1" + repeat(")", depth - 1) + " }";
}

TEST(TextLimits, TextPastTheSizeCapFailsAtOnce) {
  // A valid start and then 64 MiB of blanks: a parser that read it would end
  // with another error (an unclosed program, far past line 1); only the size
  // check, before any reading, names the cap at line 1. (No clock: a bound on
  // wall time fails on a loaded machine.)
  std::string big = "program {" + std::string(64u << 20, ' ');
  Result<Program> program = parse_program(big);
  Result<TestCase> test_case = parse_case(big);
  ASSERT_FALSE(program.ok());
  EXPECT_NE(program.error().message.find("32 MiB"), std::string::npos) << program.error().message;
  EXPECT_EQ(program.error().loc.line, 1u);
  ASSERT_FALSE(test_case.ok());
  EXPECT_NE(test_case.error().message.find("32 MiB"), std::string::npos);
}

TEST(TextLimits, TextJustUnderTheCapIsRead) {
  std::string text = "program {}";
  text.resize(kMaxTextBytes, ' ');
  EXPECT_TRUE(parse_program(text).ok());
}

TEST(TextLimits, NestingIsAcceptedUpToTheCapAndRefusedPastIt) {
  EXPECT_TRUE(parse_program(nested_blocks(kMaxTextNesting)).ok());
  Result<Program> blocks = parse_program(nested_blocks(kMaxTextNesting + 1));
  ASSERT_FALSE(blocks.ok());
  EXPECT_NE(blocks.error().message.find("nesting deeper than 512"), std::string::npos);
  EXPECT_EQ(blocks.error().loc.col, 11u + kMaxTextNesting);

  EXPECT_TRUE(parse_program(nested_expression(kMaxTextNesting)).ok());
  Result<Program> exprs = parse_program(nested_expression(kMaxTextNesting + 1));
  ASSERT_FALSE(exprs.ok());
  EXPECT_NE(exprs.error().message.find("nesting deeper than 512"), std::string::npos);
}

TEST(TextLimits, StatementAndExpressionNestingShareTheCap) {
  std::string text = "program { " + repeat("{", 300) + "let v = " + repeat("negate(", 211) + "1" +
                     repeat(")", 211) + repeat("}", 300) + " }";
  EXPECT_TRUE(parse_program(text).ok());
  std::string deeper = "program { " + repeat("{", 300) + "let v = " + repeat("negate(", 212) + "1" +
                       repeat(")", 212) + repeat("}", 300) + " }";
  EXPECT_FALSE(parse_program(deeper).ok());
}

TEST(TextLimits, ProgramsPastTheValidatorsLimitsStillParse) {
  // V018 caps statement nesting at 64 and V030 expression depth at 128; the
  // parser must hand such programs to the validator rather than refuse them.
  std::string ifs = "program { " + repeat("if 1 { ", 200) + repeat("} ", 200) + "}";
  EXPECT_TRUE(parse_program(ifs).ok());
  EXPECT_TRUE(parse_program(nested_expression(300)).ok());
}

TEST(TextLimits, HundredThousandDeepNestingIsAnErrorNotACrash) {
  EXPECT_FALSE(parse_program(nested_blocks(100000)).ok());
  EXPECT_FALSE(parse_program(nested_expression(100000)).ok());
  EXPECT_FALSE(parse_program("program { let v = " + repeat("b[", 100000)).ok());
  EXPECT_FALSE(parse_case(repeat("case \"c\" { program { ", 100000)).ok());
}

TEST(TextLimits, AMillionStatementsParseAndPrint) {
  std::string text = "program {\n" + repeat("barrier\n", 1000000) + "}";
  Result<Program> p = parse_program(text);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->entry.size(), 1000000u);
  EXPECT_EQ(p->entry.back().loc.line, 1000001u);
  std::string printed = print_program(*p);
  EXPECT_GT(printed.size(), text.size());
}

/// `program { let x = call f(1,1,...,1) }` with `args` arguments: args + 2 nodes.
std::string wide_call(size_t args) {
  return "program { let x = call f(" + repeat("1,", args - 1) + "1) }";
}

TEST(TextLimits, NodesAreAcceptedUpToTheCapAndRefusedPastIt) {
  // The let, the call and its arguments: exactly kMaxTextNodes parses.
  Result<Program> at_cap = parse_program(wide_call(kMaxTextNodes - 2));
  ASSERT_TRUE(at_cap.ok()) << at_cap.error().message;
  Result<Program> past = parse_program(wide_call(kMaxTextNodes - 1));
  ASSERT_FALSE(past.ok());
  EXPECT_NE(past.error().message.find("more than 1000000 statements and expressions"),
            std::string::npos)
      << past.error().message;
  // At the last argument: `program { let x = call f(` is 25 columns, and
  // argument k starts at column 26 + 2 (k - 1).
  EXPECT_EQ(past.error().loc.line, 1u);
  EXPECT_EQ(past.error().loc.col, 26u + 2u * (kMaxTextNodes - 2));
}

TEST(TextLimits, ThirtyTwoMegabytesOfTinyExpressionsStopEarly) {
  // 16 million arguments fit in 32 MiB; the parser must stop at the cap (the
  // 999999th argument, column 2000022) rather than build them all.
  std::string text = "program { let x = call f(" + repeat("1,", 16u << 20);
  text.resize(kMaxTextBytes - 3, '1');
  text += ") }";
  Result<Program> p = parse_program(text);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().loc.col, 2000022u);
}

TEST(TextLimits, UnterminatedConstructsAtEndOfInput) {
  const char* const texts[] = {
      "program",
      "program {",
      "program { let",
      "program { let x",
      "program { let x =",
      "program { let x = add(",
      "program { let x = add(1",
      "program { let x = add(1,",
      "program { b[",
      "program { b[1] =",
      "program { if",
      "program { for i in 0 ..",
      "program { let x = \"",
      "program { let x = \"\\",
      "program { let x = cast<",
      "program { buffer",
      "program { buffer b:",
      "program { #",
      "case",
      "case \"",
      "case \"c\" {",
      "case \"c\" { input b: u32 [1,",
      "case \"c\" { input b: hex \"0",
      "case \"c\" { dispatch(1,",
  };
  for (const char* text : texts) {
    Result<Program> p = parse_program(text);
    Result<TestCase> c = parse_case(text);
    EXPECT_FALSE(p.ok()) << text;
    EXPECT_FALSE(c.ok()) << text;
    if (!p.ok()) {
      EXPECT_GE(p.error().loc.line, 1u) << text;
    }
    if (!c.ok()) {
      EXPECT_GE(c.error().loc.line, 1u) << text;
    }
  }
}

TEST(TextLimits, RandomBytesAreRejectedWithALocation) {
  std::mt19937 rng(20260401);
  for (int round = 0; round < 2000; ++round) {
    std::string bytes(rng() % 256, '\0');
    for (char& c : bytes) c = static_cast<char>(rng() & 0xFF);
    if (round % 2 == 0) bytes = "program { " + bytes;
    Result<Program> p = parse_program(bytes);
    Result<TestCase> c = parse_case(bytes);
    if (!p.ok()) {
      EXPECT_GE(p.error().loc.line, 1u);
    }
    if (!c.ok()) {
      EXPECT_GE(c.error().loc.line, 1u);
    }
  }
}

TEST(TextLimits, PrintingNeverRecursesSoDeepCodeBuiltProgramsPrint) {
  // Deeper than the parser allows: only code builds this, and printing it for
  // a repro must still work.
  constexpr int kDepth = 20000;
  // Built with moves only: an initializer list would copy, and copying a
  // Node deep-copies (recursively) everything under it.
  ExprPtr e = u32(1);
  Body body;
  body.push_back(let("v", u32(0)));
  for (int i = 0; i < kDepth; ++i) {
    e = unary(UnOp::Negate, e);
    Body outer;
    outer.push_back(block(std::move(body)));
    body = std::move(outer);
  }
  Program p;
  p.entry.push_back(let("x", e));
  p.entry.push_back(block(std::move(body)));
  std::string text = print_program(p);
  EXPECT_NE(text.find(repeat("negate(", kDepth) + "1" + repeat(")", kDepth)), std::string::npos);
  Result<Program> back = parse_program(text);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.error().message.find("nesting"), std::string::npos);
  // Unwind the chains iteratively; recursive destruction this deep is what
  // the nesting cap exists to prevent.
  while (true) {
    const auto* neg = e->as<expr::Unary>();
    if (neg == nullptr) break;
    ExprPtr next = neg->operand;
    p.entry[0] = let("x", next);
    e = next;
  }
  while (auto* block_node = std::get_if<node::Block>(&p.entry[1].kind)) {
    if (block_node->body.empty()) break;
    Node inner = std::move(block_node->body[0]);
    p.entry[1] = std::move(inner);
  }
}

}  // namespace
}  // namespace vyre
