// The test case production: name, program, grid, input bytes and
// expectations, with the buffer data forms of GRAMMAR.md.
#include <array>
#include <limits>

#include "spec/ir/host_words.h"
#include "spec/text/names.h"
#include "spec/text/parser.h"
#include "spec/text/syntax_error.h"
#include "spec/text/text_format.h"

namespace vyre::text {
namespace {

/// What the `expect` lines of a case have said so far.
enum class Expecting : unsigned char { Unsaid, Reference, Nothing, Buffers };

constexpr std::string_view kDataForms =
    "a buffer data form (`u32 [...]`, `i32 [...]`, `u64 [...]`, `hex \"...\"`, `zeros N` or "
    "`fill N BYTE`)";

/// A buffer name as messages show it: quoted with escapes, at most 40 bytes.
std::string shown_name(const std::string& name) {
  std::string shown;
  append_string_literal(shown, name.substr(0, 40));
  return shown;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

TestCase Parser::test_case() {
  expect_keyword(Keyword::Case, "(a test case starts with `case \"name\" {`)");
  TestCase tc;
  tc.name =
      expect(TokenKind::String, "after `case` (the case name, as in `case \"add_one\"`)").value;
  SourceLoc open = expect(TokenKind::LBrace, "after the case name").loc;
  bool have_program = false;
  bool have_dispatch = false;
  bool have_compare = false;
  bool have_batch = false;
  bool have_encoding = false;
  Expecting expecting = Expecting::Unsaid;
  BufferSet expected;
  while (!at(TokenKind::RBrace)) {
    SourceLoc loc = current().loc;
    if (at_keyword(Keyword::Program)) {
      if (have_program) fail_at(loc, "the case has two programs; keep one");
      have_program = true;
      tc.program = program();
    } else if (at_keyword(Keyword::Dispatch)) {
      take();
      if (have_dispatch) fail_at(loc, "`dispatch` is given twice; keep one");
      have_dispatch = true;
      tc.grid.workgroups = triple("dispatch");
    } else if (at_keyword(Keyword::Input)) {
      take();
      std::string buffer = name("after `input`");
      expect(TokenKind::Colon, "after the input's buffer name");
      if (!tc.inputs.emplace(buffer, buffer_data("input")).second) {
        fail_at(loc, "input " + shown_name(buffer) + " is given twice; keep one");
      }
    } else if (at_keyword(Keyword::Expect)) {
      take();
      // `expect reference: ...` names a buffer called "reference".
      Expecting form = Expecting::Buffers;
      if (lookahead().kind != TokenKind::Colon) {
        if (at_keyword(Keyword::Reference)) form = Expecting::Reference;
        if (at_keyword(Keyword::Nothing)) form = Expecting::Nothing;
      }
      if (expecting != Expecting::Unsaid &&
          (form != Expecting::Buffers || expecting != Expecting::Buffers)) {
        fail_at(loc,
                "`expect reference` and `expect nothing` stand alone: a case has one of them or "
                "any number of `expect NAME: ...` lines");
      }
      expecting = form;
      if (form != Expecting::Buffers) {
        take();
        continue;
      }
      std::string buffer = name("after `expect` (or `reference`, or `nothing`)");
      expect(TokenKind::Colon, "after the expected buffer's name");
      if (!expected.emplace(buffer, buffer_data("expectation")).second) {
        fail_at(loc, "expectation for " + shown_name(buffer) + " is given twice; keep one");
      }
    } else if (at_keyword(Keyword::Compare)) {
      take();
      if (have_compare) fail_at(loc, "`compare` is given twice; keep one");
      have_compare = true;
      tc.comparison = comparison();
    } else if (at_keyword(Keyword::Batch)) {
      take();
      if (have_batch) fail_at(loc, "`batch` is given twice; keep one");
      have_batch = true;
      const std::string context = "in `batch(runs, submissions, failed run)`";
      expect(TokenKind::LParen, context);
      std::array<uint32_t, 3> batch{};
      for (size_t i = 0; i < batch.size(); ++i) {
        if (i > 0) expect(TokenKind::Comma, context);
        batch[i] = u32_number(context);
      }
      expect(TokenKind::RParen, context);
      if (batch[0] == 0) fail_at(loc, "`batch` needs at least 1 run");
      if (batch[1] == 0 || batch[1] > batch[0]) {
        fail_at(loc, "`batch` spreads its runs over 1 to runs submissions");
      }
      if (batch[2] > batch[0]) fail_at(loc, "`batch`'s failed run is past its runs");
      tc.batch = BatchDispatch{batch[0], batch[1], batch[2]};
    } else if (at_keyword(Keyword::Encoding)) {
      take();
      if (have_encoding) fail_at(loc, "`encoding` is given twice; keep one");
      have_encoding = true;
      const std::string word =
          expect(TokenKind::String, "after `encoding` (as in `encoding \"spirv-opt-O\"`)").value;
      const std::optional<Encoding> encoding = encoding_named(word);
      if (!encoding) {
        fail_at(loc, "unknown encoding " + shown_name(word) + "; the encodings are " +
                         std::string(encoding_names()));
      }
      tc.encoding = *encoding;
    } else if (at(TokenKind::End)) {
      fail_expected("`}`", "to close the case opened at " + std::to_string(open.line) + ":" +
                               std::to_string(open.col));
    } else {
      fail_expected(
          "`program`, `dispatch`, `batch`, `encoding`, `input`, `expect`, `compare` or `}`",
          "in a case");
    }
  }
  SourceLoc close = take().loc;
  if (!have_program) fail_at(close, "the case has no `program { ... }`; add one");
  if (!have_dispatch) {
    fail_at(close, "the case has no `dispatch(x, y, z)`; the grid is never inferred, so add one");
  }
  if (expecting == Expecting::Unsaid) {
    fail_at(close,
            "the case has no expectation; add `expect reference`, `expect nothing` or "
            "`expect NAME: ...` lines");
  }
  if (expecting != Expecting::Reference) tc.expected = std::move(expected);
  if (tc.comparison != Comparison::Bytes && !tc.expected) {
    fail_at(close, "`compare " + std::string(name_of(tc.comparison)) +
                       "` judges against the case's own expectation, so `expect reference` "
                       "cannot stand with it; write the expected buffers");
  }
  return tc;
}

Comparison Parser::comparison() {
  constexpr std::string_view kKnown = "`bytes` or `graph.bfs`";
  Token first = expect(TokenKind::Ident, "after `compare` (" + std::string(kKnown) + ")");
  std::string word(first.text);
  while (at(TokenKind::Dot)) {
    take();
    word += '.';
    word += expect(TokenKind::Ident, "after `.` in the comparison's name").text;
  }
  for (Comparison c : {Comparison::Bytes, Comparison::GraphBfs}) {
    if (word == name_of(c)) return c;
  }
  fail_at(first.loc, "unknown comparison " + shown_name(word) + "; known: " + std::string(kKnown));
}

ByteBuffer Parser::buffer_data(std::string_view owner) {
  std::string context = "for the " + std::string(owner);
  if (!at(TokenKind::Ident)) fail_expected(kDataForms, context);
  std::string_view form = current().text;
  SourceLoc loc = current().loc;
  if (form == "u32" || form == "i32" || form == "u64") {
    DataType element = *data_type_named(form);
    take();
    return number_list(element, owner);
  }
  if (form == "hex") {
    take();
    return hex_bytes();
  }
  if (form == "zeros" || form == "fill") {
    take();
    uint32_t size = u32_number("as a byte count");
    uint32_t byte = 0;
    if (form == "fill") {
      Token token = expect(TokenKind::Int, "as the fill byte (as in `fill 16 0xAB`)");
      byte = u32_value(token, "as the fill byte");
      if (byte > 0xFF) fail_at(token.loc, "the fill byte must be 0 to 255 (0xFF)");
    }
    charge_data(size, loc);
    return ByteBuffer(size, static_cast<uint8_t>(byte));
  }
  fail_expected(kDataForms, context);
}

ByteBuffer Parser::number_list(DataType element, std::string_view owner) {
  std::string context =
      "in the " + std::string(name_of(element)) + " list of the " + std::string(owner);
  expect(TokenKind::LBracket, context);
  size_t width = element == DataType::U64 ? 8 : 4;
  ByteBuffer bytes;
  while (!at(TokenKind::RBracket)) {
    if (!bytes.empty()) expect(TokenKind::Comma, "or `]` " + context);
    Token token = expect(TokenKind::Int, context);
    charge_data(width, token.loc);
    std::string shown(token.text.substr(0, 40));
    if (token.i32_suffix) {
      fail_at(token.loc, "`" + shown +
                             "` has an `i` suffix; list values take none, the list's "
                             "type says what they are");
    }
    uint64_t value = token.magnitude;
    if (element == DataType::I32) {
      uint64_t limit = uint64_t{std::numeric_limits<int32_t>::max()} + (token.negative ? 1 : 0);
      if (token.too_big || token.magnitude > limit) {
        fail_at(token.loc, "`" + shown + "` is out of range for i32 (-2147483648 to 2147483647)");
      }
      value = token.negative ? (0 - token.magnitude) & 0xFFFFFFFFu : token.magnitude;
    } else if (token.negative || token.too_big ||
               (element == DataType::U32 && token.magnitude > 0xFFFFFFFFu)) {
      fail_at(token.loc,
              "`" + shown + "` is out of range for " + std::string(name_of(element)) + " (0 to " +
                  (element == DataType::U32 ? "4294967295" : "18446744073709551615") + ")");
    }
    append_le(bytes, value, width);
  }
  take();
  return bytes;
}

ByteBuffer Parser::hex_bytes() {
  Token token = expect(TokenKind::String, "after `hex` (as in `hex \"00ff10\"`)");
  const std::string& digits = token.value;
  if (digits.size() % 2 != 0) {
    fail_at(token.loc, "the hex string has an odd number of digits; write two per byte");
  }
  charge_data(digits.size() / 2, token.loc);
  ByteBuffer bytes;
  bytes.reserve(digits.size() / 2);
  for (size_t i = 0; i < digits.size(); i += 2) {
    int hi = hex_digit(digits[i]);
    int lo = hex_digit(digits[i + 1]);
    if (hi < 0 || lo < 0) {
      fail_at(token.loc, "the hex string holds a character that is not a hex digit (at digit " +
                             std::to_string(hi < 0 ? i + 1 : i + 2) + ")");
    }
    bytes.push_back(static_cast<uint8_t>(hi * 16 + lo));
  }
  return bytes;
}

void Parser::charge_data(size_t bytes, SourceLoc loc) {
  if (bytes > kMaxCaseDataBytes - data_bytes_) {
    fail_at(loc, "the case describes more than 64 MiB of buffer data, the text format's limit");
  }
  data_bytes_ += bytes;
}

}  // namespace vyre::text
