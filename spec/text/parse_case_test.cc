// parse_case against TestCase values written by hand: clauses in any order,
// every buffer data form decoded to little-endian bytes, and the three kinds
// of expectation.
#include <gtest/gtest.h>

#include "spec/ir/builder.h"
#include "spec/text/text_format.h"

namespace vyre {
namespace {

using namespace build;

TestCase parsed_case(std::string_view text) {
  Result<TestCase> result = parse_case(text);
  EXPECT_TRUE(result.ok()) << result.error().message << " at " << result.error().loc.line << ":"
                           << result.error().loc.col << "\n"
                           << text;
  return result.ok() ? std::move(result).value() : TestCase{};
}

TEST(ParseCase, TheBriefsExample) {
  TestCase tc = parsed_case(R"(
    case "add_one" {
      program {
        workgroup_size(64, 1, 1)
        buffer input: u32 read_only @0
        buffer out: u32 read_write @1
        let i = invocation_id.x
        if lt(i, buflen(input)) {
          out[i] = add(input[i], 1)
        }
      }
      dispatch(4, 1, 1)
      input input: u32 [1, 2, 3, 0xFFFFFFFF]
      input out: zeros 16                 # 16 zero bytes
      input blob: hex "00ff10"            # raw bytes, any length
      input poison: fill 16 0xAB          # 16 bytes of 0xAB
      expect out: u32 [2, 3, 4, 0]
    })");
  EXPECT_EQ(tc.name, "add_one");
  Program program{
      {storage("input", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
      {64, 1, 1},
      {let("i", invocation_id(0)),
       if_(lt(var("i"), buflen("input")),
           {store("out", var("i"), add(load("input", var("i")), u32(1)))})}};
  EXPECT_EQ(tc.program, program);
  EXPECT_EQ(tc.grid, (Grid{{4, 1, 1}}));
  BufferSet inputs = {
      {"input", {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF}},
      {"out", ByteBuffer(16, 0)},
      {"blob", {0x00, 0xFF, 0x10}},
      {"poison", ByteBuffer(16, 0xAB)},
  };
  EXPECT_EQ(tc.inputs, inputs);
  ASSERT_TRUE(tc.expected.has_value());
  EXPECT_EQ(*tc.expected, (BufferSet{{"out", {2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0}}}));
}

TEST(ParseCase, DataFormsDecodeLittleEndian) {
  struct Row {
    const char* data;
    ByteBuffer bytes;
  };
  const Row rows[] = {
      {"u32 []", {}},
      {"u32 [0x04030201]", {1, 2, 3, 4}},
      {"u32 [1,\n 65536]", {1, 0, 0, 0, 0, 0, 1, 0}},
      {"i32 [-1]", {0xFF, 0xFF, 0xFF, 0xFF}},
      {"i32 [-2147483648, 2147483647]", {0, 0, 0, 0x80, 0xFF, 0xFF, 0xFF, 0x7F}},
      {"i32 [0x10]", {0x10, 0, 0, 0}},
      {"u64 [0x0807060504030201]", {1, 2, 3, 4, 5, 6, 7, 8}},
      {"u64 [18446744073709551615]", ByteBuffer(8, 0xFF)},
      {"hex \"\"", {}},
      {"hex \"aBcD\"", {0xAB, 0xCD}},
      {"zeros 0", {}},
      {"zeros 3", {0, 0, 0}},
      {"fill 2 0xab", {0xAB, 0xAB}},
      {"fill 1 7", {7}},
  };
  for (const Row& row : rows) {
    std::string text =
        "case \"c\" { program {} dispatch(1, 1, 1) input b: " + std::string(row.data) +
        " expect nothing }";
    TestCase tc = parsed_case(text);
    EXPECT_EQ(tc.inputs["b"], row.bytes) << row.data;
  }
}

TEST(ParseCase, ExpectReferenceAndNothing) {
  TestCase reference = parsed_case("case \"r\" { program {} dispatch(1, 1, 1) expect reference }");
  EXPECT_FALSE(reference.expected.has_value());
  TestCase nothing = parsed_case("case \"n\" { program {} dispatch(1, 1, 1) expect nothing }");
  ASSERT_TRUE(nothing.expected.has_value());
  EXPECT_TRUE(nothing.expected->empty());
}

TEST(ParseCase, CompareClauseNamesTheComparison) {
  TestCase plain = parsed_case("case \"p\" { program {} dispatch(1, 1, 1) expect nothing }");
  EXPECT_EQ(plain.comparison, Comparison::Bytes);
  TestCase bytes =
      parsed_case("case \"b\" { program {} dispatch(1, 1, 1) compare bytes expect nothing }");
  EXPECT_EQ(bytes.comparison, Comparison::Bytes);
  TestCase bfs = parsed_case(
      "case \"g\" { compare graph . bfs program {} dispatch(1, 1, 1) expect out: zeros 4 }");
  EXPECT_EQ(bfs.comparison, Comparison::GraphBfs);
  // Printed only when it is not the default, and read back the same.
  EXPECT_EQ(print_case(plain).find("compare"), std::string::npos);
  const std::string printed = print_case(bfs);
  EXPECT_NE(printed.find("  compare graph.bfs\n"), std::string::npos) << printed;
  EXPECT_EQ(parsed_case(printed).comparison, Comparison::GraphBfs);
}

TEST(ParseCase, ClausesInAnyOrderAndQuotedBufferNames) {
  TestCase tc = parsed_case(
      "case \"\\x00 odd \\\"name\\\"\" {\n"
      "  expect \"reference\": hex \"01\"\n"
      "  input \"a b\": fill 2 1\n"
      "  dispatch(7, 8, 9)\n"
      "  program { workgroup_size(2, 3, 4) }\n"
      "  expect x: zeros 1\n"
      "}\n");
  EXPECT_EQ(tc.name, std::string("\0 odd \"name\"", 12));
  EXPECT_EQ(tc.grid, (Grid{{7, 8, 9}}));
  EXPECT_EQ(tc.program.workgroup_size, (std::array<uint32_t, 3>{2, 3, 4}));
  EXPECT_EQ(tc.inputs, (BufferSet{{"a b", {1, 1}}}));
  EXPECT_EQ(tc.expected, (BufferSet{{"reference", {1}}, {"x", {0}}}));
}

TEST(ParseCase, BatchClauseSaysHowTheFailureWasDispatched) {
  constexpr std::string_view kCase = R"(
    case "batched" {
      program {
        buffer out: u32 read_write @0
      }
      dispatch(1, 1, 1)
      batch(100, 4, 38)
      input out: zeros 4
      expect reference
    })";
  TestCase tc = parsed_case(kCase);
  ASSERT_TRUE(tc.batch.has_value());
  EXPECT_EQ(*tc.batch, (BatchDispatch{100, 4, 38}));
  // Printed, and read back the same.
  const std::string printed = print_case(tc);
  EXPECT_NE(printed.find("  batch(100, 4, 38)"), std::string::npos) << printed;
  EXPECT_EQ(parsed_case(printed).batch, tc.batch);
  // Without the clause, one dispatch.
  EXPECT_FALSE(parsed_case(R"(case "one" { program { buffer out: u32 read_write @0 }
    dispatch(1, 1, 1) expect reference })")
                   .batch.has_value());
}

TEST(ParseCase, EncodingClauseNamesTheLowering) {
  constexpr std::string_view kCase = R"(
    case "optimized" {
      program {
        buffer out: u32 read_write @0
      }
      dispatch(1, 1, 1)
      encoding "spirv-opt-Os"
      input out: zeros 4
      expect reference
    })";
  TestCase tc = parsed_case(kCase);
  EXPECT_EQ(tc.encoding, Encoding::SpirvOptSize);
  const std::string printed = print_case(tc);
  EXPECT_NE(printed.find("  encoding \"spirv-opt-Os\"\n"), std::string::npos) << printed;
  EXPECT_EQ(parsed_case(printed).encoding, Encoding::SpirvOptSize);
  // Without the clause, the lowering as emitted, which prints no clause.
  TestCase plain = parsed_case(R"(case "one" { program { buffer out: u32 read_write @0 }
    dispatch(1, 1, 1) expect reference })");
  EXPECT_EQ(plain.encoding, Encoding::AsEmitted);
  EXPECT_EQ(print_case(plain).find("encoding"), std::string::npos);
  for (const auto& [clause, why] :
       {std::pair<const char*, const char*>{
            "encoding \"O3\"",
            "unknown encoding \"O3\"; the encodings are as-emitted, spirv-opt-O"},
        {"encoding \"cl-opt-disable\" encoding \"cl-opt-disable\"", "`encoding` is given twice"},
        {"encoding spirv", "after `encoding`"}}) {
    const std::string text = std::string(R"(case "b" { program { buffer out: u32 read_write @0 }
      dispatch(1, 1, 1) )") + clause +
                             " expect reference }";
    Result<TestCase> parsed = parse_case(text);
    ASSERT_FALSE(parsed.ok()) << clause;
    EXPECT_NE(parsed.error().message.find(why), std::string::npos)
        << clause << ": " << parsed.error().message;
  }
}

TEST(ParseCase, BatchClauseRejectsImpossibleBatches) {
  const std::pair<const char*, const char*> bad[] = {
      {"batch(0, 1, 0)", "at least 1 run"},
      {"batch(10, 0, 0)", "1 to runs submissions"},
      {"batch(10, 11, 0)", "1 to runs submissions"},
      {"batch(10, 2, 11)", "past its runs"},
      {"batch(10, 2)", "in `batch(runs, submissions, failed run)`"},
      {"batch(10, 2, 1) batch(10, 2, 1)", "`batch` is given twice"},
  };
  for (const auto& [clause, why] : bad) {
    const std::string text = std::string(R"(case "b" { program { buffer out: u32 read_write @0 }
      dispatch(1, 1, 1) )") + clause +
                             " expect reference }";
    Result<TestCase> parsed = parse_case(text);
    ASSERT_FALSE(parsed.ok()) << clause;
    EXPECT_NE(parsed.error().message.find(why), std::string::npos)
        << clause << ": " << parsed.error().message;
  }
}

}  // namespace
}  // namespace vyre
