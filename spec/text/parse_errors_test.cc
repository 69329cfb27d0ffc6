// Every way a program or case text can be wrong gives an Error at the right
// line:col whose message says what was expected and what was found.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "spec/text/text_format.h"

namespace vyre {
namespace {

struct ErrorRow {
  std::string text;
  uint32_t line;
  uint32_t col;
  std::vector<std::string> says;
};

template <typename T>
void expect_error(const Result<T>& result, const ErrorRow& row) {
  ASSERT_FALSE(result.ok()) << row.text;
  const Error& error = result.error();
  EXPECT_EQ(error.loc.line, row.line) << row.text << "\n" << error.message;
  EXPECT_EQ(error.loc.col, row.col) << row.text << "\n" << error.message;
  for (const std::string& part : row.says) {
    EXPECT_NE(error.message.find(part), std::string::npos)
        << "message of " << row.text << "\nis: " << error.message << "\nlacks: " << part;
  }
}

TEST(ParseErrors, Programs) {
  const std::vector<ErrorRow> rows = {
      {"", 1, 1, {"expected `program`", "found end of input"}},
      {"   \n  # only a comment\n", 3, 1, {"expected `program`", "found end of input"}},
      {"case \"x\" {}", 1, 1, {"expected `program`", "found `case`"}},
      {"program", 1, 8, {"expected `{` after `program`", "found end of input"}},
      {"program {", 1, 10, {"expected `}` to close the program opened at 1:9"}},
      {"program { let x = add(1, 2 }",
       1,
       28,
       {"expected `,` or `)` to close the argument list of `add`", "found `}`"}},
      {"program { let x = add(1) }", 1, 22, {"`add` takes 2 arguments, found 1"}},
      {"program { let x = popcount(1, 2) }", 1, 27, {"`popcount` takes 1 argument, found 2"}},
      {"program { let x = select() }", 1, 25, {"`select` takes 3 arguments, found 0"}},
      {"program { let x = atomic_add(b[0]) }", 1, 29, {"takes 2 or 3 arguments, found 1"}},
      {"program { let x = atomic_add(x, 1) }",
       1,
       30,
       {"first argument of `atomic_add` must be a buffer element such as `buf[i]`"}},
      {"program { let x = 4294967296 }", 1, 19, {"u32 literal `4294967296` is out of range"}},
      {"program { let x = 0x100000000 }", 1, 19, {"out of range", "4294967295"}},
      {"program { let x = 99999999999999999999999 }", 1, 19, {"out of range"}},
      {"program { let x = -1 }", 1, 19, {"needs the `i` suffix", "`-1i`"}},
      {"program { let x = 2147483648i }", 1, 19, {"i32 literal `2147483648i` is out of range"}},
      {"program { let x = -2147483649i }", 1, 19, {"out of range", "-2147483648i"}},
      {"program { let x = 5u }", 1, 19, {"malformed number `5u`"}},
      {"program { let x = 0x }", 1, 19, {"malformed number `0x`"}},
      {"program { let x = 12abc }", 1, 19, {"malformed number `12abc`"}},
      {"program { let x = 1 - 2 }", 1, 21, {"unexpected `-`"}},
      {"program { let if = 1 }", 1, 15, {"`if` is a reserved word", "\"if\""}},
      {"program { let add = 1 }", 1, 15, {"`add` is a reserved word"}},
      {"program { let x = let }", 1, 19, {"`let` is a reserved word and cannot start"}},
      {"program { x }", 1, 13, {"expected `=` (an assignment) or `[` (a store)", "found `}`"}},
      {"program { b[0] 1 }", 1, 16, {"expected `=` in a store", "found `1`"}},
      {"program { let x 1 }", 1, 17, {"expected `=`", "found `1`"}},
      {"program { let x = }", 1, 19, {"expected an expression as the value of `let`", "`}`"}},
      {"program {\n  let x = 1\n  let y = )\n}", 3, 11, {"expected an expression", "`)`"}},
      {"program { let s = \"abc }", 1, 19, {"unterminated string"}},
      {"program { let s = \"ab\ncd\" }", 1, 19, {"unterminated string"}},
      {"program { let \"\\q\" = 1 }", 1, 16, {"unknown escape"}},
      {"program { let \"\\x4\" = 1 }", 1, 16, {"two hex digits"}},
      {"program { let \"a\x01\" = 1 }", 1, 17, {"control byte 0x01", "\\x escape"}},
      {std::string("program {\0}", 11), 1, 10, {"unexpected byte 0x00"}},
      {"program { \xff }", 1, 11, {"unexpected byte 0xFF"}},
      {"program { ; }", 1, 11, {"unexpected `;`"}},
      {"program { buffer a: foo read_only @0 }", 1, 21, {"unknown type `foo`", "u32, i32"}},
      {"program { buffer a: u32 readonly @0 }",
       1,
       25,
       {"unknown buffer access `readonly`", "read_only, read_write, uniform, workgroup"}},
      {"program { buffer a: u32 read_only }", 1, 35, {"expected `@` and a binding slot"}},
      {"program { buffer a: u32 read_only @-1 }", 1, 36, {"`-1`", "must be a u32"}},
      {"program { buffer a: u32 read_only @0 [5 }", 1, 41, {"expected `]`"}},
      {"program { buffer a u32 read_only @0 }", 1, 20, {"expected `:`", "found `u32`"}},
      {"program { let x = 1 buffer b: u32 read_only @0 }", 1, 21, {"declarations come first"}},
      {"program { workgroup_size(1, 1) }",
       1,
       30,
       {"expected `,` in `workgroup_size(x, y, z)`", "found `)`"}},
      {"program { workgroup_size(1, 1, 1) workgroup_size(1, 1, 1) }", 1, 35, {"given twice"}},
      {"program { let x = cast<u33>(1) }", 1, 24, {"unknown type `u33`"}},
      {"program { let x = cast(1) }", 1, 23, {"expected `<` after `cast`"}},
      {"program { let x = cast<u32(1) }", 1, 27, {"expected `>`"}},
      {"program { let x = invocation_id.w }",
       1,
       33,
       {"expected an axis (x, y, z or a number) after `invocation_id.`, found `w`"}},
      // A quoted op id is shown escaped, so the message stays one printable line.
      {"program { let x = call \"a\\nb\\x1b\"(1 }",
       1,
       37,
       {"to close the argument list of `\"a\\nb\\x1b\"`, found `}`"}},
      {"program { let x = invocation_id }", 1, 33, {"expected `.` after `invocation_id`"}},
      {"program { let x = local_id.-1 }", 1, 28, {"must be a u32"}},
      {"program { let x = buflen(1) }", 1, 26, {"expected a name as the buffer of `buflen`"}},
      {"program { let x = call (1) }", 1, 24, {"expected a name after `call`"}},
      {"program { let x = call a.(1) }", 1, 26, {"expected a name after `.` in an op id"}},
      {"program { let x = b[1 }", 1, 23, {"expected `]` to close the index of a load"}},
      {"program {} program {}", 1, 12, {"expected end of input after the program's closing `}`"}},
      {"program { let x = 1 } }", 1, 23, {"expected end of input"}},
      {"program { for j in 0 4 {} }", 1, 22, {"expected `..`"}},
      {"program { for j 0 .. 4 {} }", 1, 17, {"expected `in`"}},
      {"program { for j in 0 .. 4 }", 1, 27, {"expected `{` to open the body of `for`"}},
      {"program { if 1 { }", 1, 19, {"expected `}` to close the program opened at 1:9"}},
      {"program { if 1 { let x = 1 ", 1, 28, {"to close the body of `if` opened at 1:16"}},
      {"program { if 1 {} else 2 }", 1, 24, {"expected `{` to open the body of `else`"}},
      {"program { else {} }", 1, 11, {"expected a statement", "found `else`"}},
      {"program { ) }", 1, 11, {"expected a statement", "found `)`"}},
      {"program { let x = \"" + std::string(100, 'a') + " }", 1, 19, {"unterminated"}},
      {"program { let x = add(" + std::string(50, 'z') + "; }", 1, 73, {"unexpected `;`"}},
  };
  for (const ErrorRow& row : rows) expect_error(parse_program(row.text), row);
}

TEST(ParseErrors, LongTokensAreShortenedInMessages) {
  std::string name(5000, 'q');
  Result<Program> r = parse_program("program { " + name + " }");
  ASSERT_FALSE(r.ok());
  EXPECT_LT(r.error().message.size(), 300u) << r.error().message;
}

const char* const kProgram = "program { buffer out: u32 read_write @0 }";

std::string case_text(std::string_view clauses) {
  return "case \"c\" {\n  " + std::string(kProgram) + "\n  " + std::string(clauses) + "\n}";
}

/// A case error and the text the error must point at: the last occurrence
/// of `at` in the case, which must sit on one line.
struct CaseErrorRow {
  std::string text;
  std::string at;
  std::vector<std::string> says;
};

ErrorRow located(const CaseErrorRow& row) {
  size_t offset = row.text.rfind(row.at);
  EXPECT_NE(offset, std::string::npos) << row.at;
  size_t line_start = row.text.rfind('\n', offset);
  line_start = line_start == std::string::npos ? 0 : line_start + 1;
  auto line =
      static_cast<uint32_t>(1 + std::count(row.text.begin(), row.text.begin() + offset, '\n'));
  return {row.text, line, static_cast<uint32_t>(offset - line_start + 1), row.says};
}

TEST(ParseErrors, Cases) {
  const std::string two_programs = case_text("dispatch(1, 1, 1) program {} expect reference");
  const std::vector<CaseErrorRow> rows = {
      {"", "", {"expected `case`", "found end of input"}},
      {"case add_one {}", "add_one", {"expected a string after `case`", "found `add_one`"}},
      {"case \"c\" { dispatch(1, 1, 1) expect reference }", "}", {"no `program"}},
      {case_text("expect reference"), "}", {"no `dispatch(x, y, z)`", "never inferred"}},
      {case_text("dispatch(1, 1, 1)"), "}", {"no expectation", "`expect reference`"}},
      {case_text("dispatch(1, 1, 1) dispatch(2, 2, 2) expect reference"),
       "dispatch(2",
       {"`dispatch` is given twice"}},
      {case_text("dispatch(1, 1, -1) expect reference"), "-1", {"must be a u32"}},
      {two_programs, "program {}", {"two programs"}},
      {case_text("dispatch(1, 1, 1) expect reference expect out: zeros 4"),
       "expect out",
       {"stand alone"}},
      {case_text("dispatch(1, 1, 1) expect out: zeros 4 expect nothing"),
       "expect nothing",
       {"stand alone"}},
      {case_text("dispatch(1, 1, 1) expect out: zeros 4 expect out: zeros 8"),
       "expect out: zeros 8",
       {"expectation for \"out\" is given twice"}},
      {case_text("dispatch(1, 1, 1) input a: zeros 1 input a: zeros 2 expect nothing"),
       "input a: zeros 2",
       {"input \"a\" is given twice"}},
      {case_text("dispatch(1, 1, 1) input a zeros 1 expect nothing"),
       "zeros",
       {"expected `:` after the input's buffer name", "found `zeros`"}},
      {case_text("dispatch(1, 1, 1) input a: 5 expect nothing"),
       "5",
       {"expected a buffer data form", "`zeros N`", "found `5`"}},
      {case_text("dispatch(1, 1, 1) input a: floats [1] expect nothing"),
       "floats",
       {"expected a buffer data form", "found `floats`"}},
      {case_text("dispatch(1, 1, 1) input a: fill 4 256 expect nothing"),
       "256",
       {"fill byte must be 0 to 255"}},
      {case_text("dispatch(1, 1, 1) input a: fill 4 expect nothing"),
       "expect",
       {"expected a number as the fill byte", "found `expect`"}},
      {case_text("dispatch(1, 1, 1) input a: zeros 70000000 expect nothing"),
       "zeros 7",
       {"more than 64 MiB"}},
      {case_text("dispatch(1, 1, 1) input a: zeros 40000000 input b: zeros 40000001 "
                 "expect nothing"),
       "zeros 40000001",
       {"more than 64 MiB"}},
      {case_text("dispatch(1, 1, 1) input a: u32 [1] expect a: hex \"" + std::string(71, 'a') +
                 "\""),
       "\"aaa",
       {"odd number"}},
      {case_text("dispatch(1, 1, 1) input a: hex \"abc\" expect nothing"), "\"abc", {"odd number"}},
      {case_text("dispatch(1, 1, 1) input a: hex \"zz\" expect nothing"),
       "\"zz",
       {"not a hex digit (at digit 1)"}},
      {case_text("dispatch(1, 1, 1) input a: hex \"0z\" expect nothing"),
       "\"0z",
       {"not a hex digit (at digit 2)"}},
      {case_text("dispatch(1, 1, 1) input a: hex 12 expect nothing"),
       "12",
       {"expected a string after `hex`"}},
      {case_text("dispatch(1, 1, 1) input a: u32 [-1] expect nothing"),
       "-1",
       {"`-1` is out of range for u32"}},
      {case_text("dispatch(1, 1, 1) input a: u32 [4294967296] expect nothing"),
       "4294967296",
       {"out of range for u32"}},
      {case_text("dispatch(1, 1, 1) input a: i32 [2147483648] expect nothing"),
       "2147483648",
       {"out of range for i32"}},
      {case_text("dispatch(1, 1, 1) input a: i32 [-2147483649] expect nothing"),
       "-2147483649",
       {"out of range for i32"}},
      {case_text("dispatch(1, 1, 1) input a: u64 [18446744073709551616] expect nothing"),
       "18446744073709551616",
       {"out of range for u64"}},
      {case_text("dispatch(1, 1, 1) input a: i32 [5i] expect nothing"),
       "5i",
       {"`i` suffix", "list values take none"}},
      {case_text("dispatch(1, 1, 1) input a: u32 [1 2] expect nothing"),
       "2]",
       {"expected `,` or `]`", "found `2`"}},
      {case_text("dispatch(1, 1, 1) input a: u32 [1, ] expect nothing"),
       "] expect",
       {"expected a number", "found `]`"}},
      {case_text("dispatch(1, 1, 1) input a: u32 1 expect nothing"), "1 expect", {"expected `[`"}},
      {case_text("dispatch(1, 1, 1) bogus"),
       "bogus",
       {"expected `program`, `dispatch`, `batch`, `encoding`, `input`, `expect`, `compare` or `}` "
        "in a case",
        "found `bogus`"}},
      {case_text("dispatch(1, 1, 1) compare graph.dfs expect nothing"),
       "graph.dfs",
       {"unknown comparison \"graph.dfs\"", "`bytes` or `graph.bfs`"}},
      {case_text("dispatch(1, 1, 1) compare bytes compare bytes expect nothing"),
       "compare bytes expect",
       {"`compare` is given twice"}},
      {case_text("dispatch(1, 1, 1) compare graph. expect nothing"),
       "graph. expect",
       {"unknown comparison \"graph.expect\""}},
      {case_text("dispatch(1, 1, 1) compare 1 expect nothing"),
       "1 expect",
       {"after `compare` (`bytes` or `graph.bfs`)"}},
      {case_text("dispatch(1, 1, 1) compare graph.bfs expect reference"),
       "}",
       {"`compare graph.bfs` judges against the case's own expectation"}},
      {case_text("dispatch(1, 1, 1) expect if: zeros 4"), "if", {"`if` is a reserved word"}},
      {"case \"c\" { program {} dispatch(1, 1, 1)", "", {"close the case opened at 1:10"}},
      {case_text("dispatch(1, 1, 1) expect nothing") + " extra",
       "extra",
       {"expected end of input after the case's closing `}`"}},
  };
  for (const CaseErrorRow& row : rows) {
    ErrorRow expected = located(row);
    if (row.at.empty()) {
      // Errors at the end of input point just past the last character.
      expected.line = 1 + static_cast<uint32_t>(std::count(row.text.begin(), row.text.end(), '\n'));
      expected.col = static_cast<uint32_t>(row.text.size() - row.text.rfind('\n'));
      if (row.text.find('\n') == std::string::npos)
        expected.col = static_cast<uint32_t>(row.text.size() + 1);
    }
    expect_error(parse_case(row.text), expected);
  }
}

TEST(ParseErrors, ExpectReferenceAsABufferNameNeedsNoQuotes) {
  Result<TestCase> tc = parse_case(case_text("dispatch(1, 1, 1) expect reference: zeros 4"));
  ASSERT_TRUE(tc.ok()) << tc.error().message;
  ASSERT_TRUE(tc->expected.has_value());
  EXPECT_EQ(tc->expected->count("reference"), 1u);
}

}  // namespace
}  // namespace vyre
