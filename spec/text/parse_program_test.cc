// parse_program against IR written by hand with the builder: every form of
// GRAMMAR.md, source locations, and the accepted ranges of numbers.
#include <gtest/gtest.h>

#include "spec/ir/builder.h"
#include "spec/text/text_format.h"

namespace vyre {
namespace {

using namespace build;

Program parsed(std::string_view text) {
  Result<Program> result = parse_program(text);
  EXPECT_TRUE(result.ok()) << result.error().message << " at " << result.error().loc.line << ":"
                           << result.error().loc.col << "\n"
                           << text;
  return result.ok() ? std::move(result).value() : Program{};
}

/// The expression of `let v = <text>` in an otherwise empty program.
ExprPtr parsed_expr(std::string_view text) {
  Program p = parsed("program { let v = " + std::string(text) + " }");
  if (p.entry.size() != 1 || !p.entry[0].as<node::Let>()) return nullptr;
  return p.entry[0].as<node::Let>()->value;
}

TEST(ParseProgram, SuggestedSyntaxOfTheBrief) {
  Program p = parsed(R"(
    program {
      workgroup_size(64, 1, 1)
      buffer input: u32 read_only @0          # binding 0, count 0 (host-sized)
      buffer params: u32 uniform @2 [4]       # declared count 4
      buffer tile: u32 workgroup [64]         # workgroup buffers have no binding
      let i = invocation_id.x
      if lt(i, buflen(input)) {
        out[i] = add(input[i], 1)
      } else {
        return
      }
      for j in 0 .. 4 { x = add(x, j) }
      { let y = 1 }
      barrier
    })");
  Program expected{{storage("input", 0, BufferAccess::ReadOnly),
                    storage("params", 2, BufferAccess::Uniform, DataType::U32, 4),
                    workgroup("tile", DataType::U32, 64)},
                   {64, 1, 1},
                   {let("i", invocation_id(0)),
                    if_(lt(var("i"), buflen("input")),
                        {store("out", var("i"), add(load("input", var("i")), u32(1)))}, {ret()}),
                    loop("j", u32(0), u32(4), {assign("x", add(var("x"), var("j")))}),
                    block({let("y", u32(1))}), barrier()}};
  EXPECT_EQ(p, expected);
}

TEST(ParseProgram, WorkgroupSizeDefaultsToOnes) {
  Program p = parsed("program {}");
  EXPECT_EQ(p.workgroup_size, (std::array<uint32_t, 3>{1, 1, 1}));
  EXPECT_TRUE(p.buffers.empty());
  EXPECT_TRUE(p.entry.empty());
}

TEST(ParseProgram, EveryExpressionForm) {
  struct Row {
    const char* text;
    ExprPtr expected;
  };
  const Row rows[] = {
      {"0", u32(0)},
      {"4294967295", u32(0xFFFFFFFF)},
      {"0xfFfFfFfF", u32(0xFFFFFFFF)},
      {"007", u32(7)},
      {"5i", i32(5)},
      {"-3i", i32(-3)},
      {"-0i", i32(0)},
      {"2147483647i", i32(2147483647)},
      {"-2147483648i", i32(INT32_MIN)},
      {"0x7FFFFFFFi", i32(0x7FFFFFFF)},
      {"true", boolean(true)},
      {"false", boolean(false)},
      {"x", var("x")},
      {"\"if\"", var("if")},
      {"\"\"", var("")},
      {"u32", var("u32")},
      {"buf[1]", load("buf", u32(1))},
      {"\"a b\"[x]", load("a b", var("x"))},
      {"buflen(buf)", buflen("buf")},
      {"buflen(\"add\")", buflen("add")},
      {"invocation_id.x", invocation_id(0)},
      {"workgroup_id.y", workgroup_id(1)},
      {"local_id.z", local_id(2)},
      {"local_id.0", local_id(0)},
      {"invocation_id.7", invocation_id(7)},
      {"workgroup_id.4294967295", workgroup_id(0xFFFFFFFF)},
      {"add(1, 2)", add(u32(1), u32(2))},
      {"or(and(1, 0), ge(2, 3))", or_(and_(u32(1), u32(0)), ge(u32(2), u32(3)))},
      {"popcount(x)", unary(UnOp::Popcount, var("x"))},
      {"reverse_bits(negate(1))", unary(UnOp::ReverseBits, unary(UnOp::Negate, u32(1)))},
      {"select(c, 1, 2)", select(var("c"), u32(1), u32(2))},
      {"cast<u64>(x)", cast(DataType::U64, var("x"))},
      {"cast<f32>(x)", cast(DataType::F32, var("x"))},
      {"call primitive.min(a, b)", call("primitive.min", {var("a"), var("b")})},
      {"call f()", call("f", {})},
      {"call \"odd id\"(1)", call("odd id", {u32(1)})},
      {"call a.b.c(1, 2, 3, 4)", call("a.b.c", {u32(1), u32(2), u32(3), u32(4)})},
      {"atomic_add(buf[i], v)", atomic(AtomicOp::Add, "buf", var("i"), var("v"))},
      {"atomic_exchange(buf[0], 1)", atomic(AtomicOp::Exchange, "buf", u32(0), u32(1))},
      {"atomic_compare_exchange(buf[i], e, v)",
       compare_exchange("buf", var("i"), var("e"), var("v"))},
      // The two shapes V029 rejects must still be representable.
      {"atomic_compare_exchange(buf[i], v)",
       atomic(AtomicOp::CompareExchange, "buf", var("i"), var("v"))},
      {"atomic_min(buf[i], e, v)",
       make(expr::Atomic{AtomicOp::Min, "buf", var("i"), var("e"), var("v")})},
  };
  for (const Row& row : rows) {
    ExprPtr got = parsed_expr(row.text);
    EXPECT_TRUE(equal(got, row.expected)) << row.text;
  }
}

TEST(ParseProgram, EveryBinaryAndUnaryOperatorByItsTableName) {
  for (BinOp op : all_bin_ops()) {
    std::string text = std::string(name_of(op)) + "(1, 2)";
    EXPECT_TRUE(equal(parsed_expr(text), binary(op, u32(1), u32(2)))) << text;
  }
  for (UnOp op : all_un_ops()) {
    std::string text = std::string(name_of(op)) + "(3)";
    EXPECT_TRUE(equal(parsed_expr(text), unary(op, u32(3)))) << text;
  }
  for (AtomicOp op : all_atomic_ops()) {
    std::string text = std::string(name_of(op)) + "(b[1], 2)";
    EXPECT_TRUE(equal(parsed_expr(text), atomic(op, "b", u32(1), u32(2)))) << text;
  }
}

TEST(ParseProgram, EveryTypeAndAccessInDeclarations) {
  for (DataType t : all_data_types()) {
    for (BufferAccess a : all_accesses()) {
      std::string text = "program { buffer b: " + std::string(name_of(t)) + " " +
                         std::string(name_of(a)) + " @3 [5] }";
      Program p = parsed(text);
      ASSERT_EQ(p.buffers.size(), 1u) << text;
      EXPECT_EQ(p.buffers[0], (BufferDecl{"b", 3, a, t, 5, {}})) << text;
    }
  }
}

TEST(ParseProgram, WorkgroupBuffersMayOmitTheBinding) {
  Program p = parsed("program { buffer t: u32 workgroup buffer s: u32 workgroup @4 [2] }");
  ASSERT_EQ(p.buffers.size(), 2u);
  EXPECT_EQ(p.buffers[0], (BufferDecl{"t", 0, BufferAccess::Workgroup, DataType::U32, 0, {}}));
  EXPECT_EQ(p.buffers[1], (BufferDecl{"s", 4, BufferAccess::Workgroup, DataType::U32, 2, {}}));
}

TEST(ParseProgram, ElseIsOptionalAndEmptyBodiesAreKept) {
  Program p = parsed("program { if 1 {} if 2 {} else {} for i in 0 .. 1 {} {} }");
  Program expected{
      {},
      {1, 1, 1},
      {if_(u32(1), {}), if_(u32(2), {}, {}), loop("i", u32(0), u32(1), {}), block({})}};
  EXPECT_EQ(p, expected);
}

TEST(ParseProgram, RecordsLineAndColumnOfEachNode) {
  Program p = parsed("program {\n  buffer b: u32 read_only @0\n  let x =\n    add(1,  y)\n}\n");
  EXPECT_EQ(p.buffers[0].loc.line, 2u);
  EXPECT_EQ(p.buffers[0].loc.col, 3u);
  const Node& let_node = p.entry.at(0);
  EXPECT_EQ(let_node.loc.line, 3u);
  EXPECT_EQ(let_node.loc.col, 3u);
  const Expr& sum = *let_node.as<node::Let>()->value;
  EXPECT_EQ(sum.loc.line, 4u);
  EXPECT_EQ(sum.loc.col, 5u);
  const Expr& y = *sum.as<expr::Binary>()->right;
  EXPECT_EQ(y.loc.line, 4u);
  EXPECT_EQ(y.loc.col, 13u);
}

TEST(ParseProgram, CommentsWhitespaceAndCarriageReturnsAreIgnored) {
  Program a = parsed("program{let x=1 barrier}");
  Program b = parsed("# head\r\nprogram # after\r\n{\tlet x = 1 # one\r\n\r\n barrier }# tail");
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.entry.size(), 2u);
}

TEST(ParseProgram, StringEscapesInNames) {
  Program p = parsed(R"(program { let "\x00\"\\\n\t\x7f\xFFé" = 1 })");
  ASSERT_EQ(p.entry.size(), 1u);
  EXPECT_EQ(p.entry[0].as<node::Let>()->name, std::string("\0\"\\\n\t\x7f\xff\xc3\xa9", 9));
}

TEST(ParseProgram, RecordsWhereProgramAndWorkgroupSizeAreWritten) {
  const Program p = parsed(
      "# comment\n  program {\n  buffer a: u32 read_only @0\n    "
      "workgroup_size(2, 1, 1)\n}");
  EXPECT_EQ(p.loc.line, 2u);
  EXPECT_EQ(p.loc.col, 3u);
  EXPECT_EQ(p.workgroup_size_loc.line, 4u);
  EXPECT_EQ(p.workgroup_size_loc.col, 5u);
  EXPECT_FALSE(parsed("program { }").workgroup_size_loc.known());
}

TEST(ParseProgram, SkipsAUtf8ByteOrderMarkAtTheStartOnly) {
  const Program with_mark = parsed("\xEF\xBB\xBFprogram { let x = 1 }");
  EXPECT_EQ(with_mark, parsed("program { let x = 1 }"));
  EXPECT_EQ(with_mark.entry[0].loc.col, 11u);  // columns as an editor shows them
  const Result<Program> inside = parse_program("program { \xEF\xBB\xBF }");
  ASSERT_FALSE(inside.ok());
  EXPECT_EQ(inside.error().loc.col, 11u);
  const Result<Program> twice = parse_program("\xEF\xBB\xBF\xEF\xBB\xBFprogram { }");
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().loc.col, 1u);
}

}  // namespace
}  // namespace vyre
