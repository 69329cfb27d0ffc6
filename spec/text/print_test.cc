// The printer against text written by hand: layout, when names are quoted,
// and the canonical buffer data forms.
#include <gtest/gtest.h>

#include "spec/ir/builder.h"
#include "spec/text/text_format.h"

namespace vyre {
namespace {

using namespace build;

TEST(PrintProgram, LayoutOfEveryStatement) {
  Program p{
      {storage("in", 0, BufferAccess::ReadOnly),
       storage("out", 5, BufferAccess::ReadWrite, DataType::U64, 3),
       workgroup("tile", DataType::Bool, 8),
       BufferDecl{"odd", 2, BufferAccess::Workgroup, DataType::U32, 0, {}}},
      {8, 4, 2},
      {let("x", u32(1)), assign("x", i32(-7)), store("out", u32(0), var("x")),
       if_(var("x"), {ret()}), if_(boolean(false), {}, {barrier()}),
       loop("j", u32(0), buflen("in"), {block({})}), block({block({let("y", local_id(9))})})}};
  EXPECT_EQ(print_program(p),
            "program {\n"
            "  workgroup_size(8, 4, 2)\n"
            "  buffer in: u32 read_only @0\n"
            "  buffer out: u64 read_write @5 [3]\n"
            "  buffer tile: bool workgroup [8]\n"
            "  buffer odd: u32 workgroup @2\n"
            "  let x = 1\n"
            "  x = -7i\n"
            "  out[0] = x\n"
            "  if x {\n"
            "    return\n"
            "  }\n"
            "  if false {} else {\n"
            "    barrier\n"
            "  }\n"
            "  for j in 0 .. buflen(in) {\n"
            "    {}\n"
            "  }\n"
            "  {\n"
            "    {\n"
            "      let y = local_id.9\n"
            "    }\n"
            "  }\n"
            "}\n");
}

TEST(PrintProgram, ExpressionsAreCalls) {
  Program p{{},
            {1, 1, 1},
            {let("a", select(eq(var("p"), u32(0x10000)), cast(DataType::Vec2U32, i32(INT32_MIN)),
                             call("primitive.clamp", {u32(1), u32(2), u32(3)}))),
             let("b", compare_exchange("buf", invocation_id(1), workgroup_id(2), u32(4))),
             let("c", atomic(AtomicOp::Xor, "buf", u32(0), unary(UnOp::Clz, u32(9))))}};
  EXPECT_EQ(print_program(p),
            "program {\n"
            "  workgroup_size(1, 1, 1)\n"
            "  let a = select(eq(p, 65536), cast<vec2u32>(-2147483648i), "
            "call primitive.clamp(1, 2, 3))\n"
            "  let b = atomic_compare_exchange(buf[invocation_id.y], workgroup_id.z, 4)\n"
            "  let c = atomic_xor(buf[0], clz(9))\n"
            "}\n");
}

TEST(PrintProgram, QuotesNamesOnlyWhenTheyWouldNotReadBack) {
  struct Row {
    std::string name;
    std::string printed;
  };
  const Row rows[] = {
      {"x1", "x1"},
      {"_", "_"},
      {"u32", "u32"},
      {"read_only", "read_only"},
      {"hex", "hex"},
      {"", "\"\""},
      {"1x", "\"1x\""},
      {"a b", "\"a b\""},
      {"if", "\"if\""},
      {"true", "\"true\""},
      {"add", "\"add\""},
      {"popcount", "\"popcount\""},
      {"atomic_add", "\"atomic_add\""},
      {"expect", "expect"},
      {"input", "input"},
      {"in", "in"},
      {"program", "program"},
      {"reference", "reference"},
      {"else", "\"else\""},
      {"buffer", "\"buffer\""},
      {"workgroup_size", "\"workgroup_size\""},
      {"a.b", "\"a.b\""},
      {"q\"\\\n\t", "\"q\\\"\\\\\\n\\t\""},
      {std::string("\x00\x1f\x7f\x80\xff", 5), "\"\\x00\\x1f\\x7f\\x80\\xff\""},
  };
  for (const Row& row : rows) {
    Program p{{}, {1, 1, 1}, {let(row.name, var(row.name))}};
    EXPECT_EQ(print_program(p), "program {\n  workgroup_size(1, 1, 1)\n  let " + row.printed +
                                    " = " + row.printed + "\n}\n")
        << row.name;
  }
}

TEST(PrintProgram, QuotesOpIdsOnlyWhenNotDottedIdentifiers) {
  struct Row {
    const char* id;
    const char* printed;
  };
  const Row rows[] = {
      {"primitive.min", "primitive.min"},
      {"f", "f"},
      {"if.add", "if.add"},
      {"a..b", "\"a..b\""},
      {".a", "\".a\""},
      {"a.", "\"a.\""},
      {"", "\"\""},
      {"a.1", "\"a.1\""},
      {"a b", "\"a b\""},
  };
  for (const Row& row : rows) {
    Program p{{}, {1, 1, 1}, {let("v", call(row.id, {}))}};
    EXPECT_EQ(print_program(p), "program {\n  workgroup_size(1, 1, 1)\n  let v = call " +
                                    std::string(row.printed) + "()\n}\n")
        << row.id;
  }
}

TEST(PrintProgram, NullExpressionsShowAsAHole) {
  Program p{{}, {1, 1, 1}, {let("v", add(nullptr, u32(1)))}};
  EXPECT_EQ(print_program(p),
            "program {\n  workgroup_size(1, 1, 1)\n  let v = add(<null>, 1)\n}\n");
  EXPECT_FALSE(parse_program(print_program(p)).ok());
}

TestCase case_with_input(ByteBuffer bytes) {
  TestCase tc;
  tc.name = "c";
  tc.inputs["b"] = std::move(bytes);
  return tc;
}

TEST(PrintCase, CanonicalDataForms) {
  struct Row {
    ByteBuffer bytes;
    const char* printed;
  };
  const Row rows[] = {
      {{}, "hex \"\""},
      {{0}, "zeros 1"},
      {ByteBuffer(12, 0), "zeros 12"},
      {{0xAB, 0xAB, 0xAB}, "fill 3 0xAB"},
      {{1, 1, 1, 1}, "fill 4 0x01"},
      {{1, 2, 3}, "hex \"010203\""},
      {{1, 0, 0, 0, 0xFF, 0xFF, 0, 0}, "u32 [1, 65535]"},
      {{0, 0, 1, 0, 0xFF, 0xFF, 0xFF, 0xFF}, "u32 [0x10000, 0xFFFFFFFF]"},
      {{1, 0, 0, 0, 0}, "hex \"0100000000\""},
  };
  for (const Row& row : rows) {
    EXPECT_EQ(print_case(case_with_input(row.bytes)),
              "case \"c\" {\n"
              "  program {\n"
              "    workgroup_size(1, 1, 1)\n"
              "  }\n"
              "  dispatch(1, 1, 1)\n"
              "  input b: " +
                  std::string(row.printed) +
                  "\n"
                  "  expect reference\n"
                  "}\n");
  }
}

TEST(PrintCase, LongListsWrapEightValuesPerLine) {
  ByteBuffer bytes;
  for (uint8_t v = 1; v <= 9; ++v) bytes.insert(bytes.end(), {v, 0, 0, 0});
  TestCase tc = case_with_input(bytes);
  tc.expected = BufferSet{{"out", {2, 0, 0, 0}}, {"a", {}}};
  EXPECT_EQ(print_case(tc),
            "case \"c\" {\n"
            "  program {\n"
            "    workgroup_size(1, 1, 1)\n"
            "  }\n"
            "  dispatch(1, 1, 1)\n"
            "  input b: u32 [\n"
            "    1, 2, 3, 4, 5, 6, 7, 8,\n"
            "    9\n"
            "  ]\n"
            "  expect a: hex \"\"\n"
            "  expect out: u32 [2]\n"
            "}\n");
}

}  // namespace
}  // namespace vyre
