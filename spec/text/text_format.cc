// The public entry points of the parser: the size limit, and the boundary
// where a SyntaxError (or running out of memory) becomes an Error value.
#include "spec/text/text_format.h"

#include <new>

#include "spec/text/parser.h"
#include "spec/text/syntax_error.h"

namespace vyre {
namespace {

constexpr std::string_view kUtf8ByteOrderMark = "\xEF\xBB\xBF";

template <typename T, typename Production>
Result<T> parse_whole(std::string_view text, Production production) {
  if (text.size() > kMaxTextBytes) {
    return Error{"the text is " + std::to_string(text.size()) +
                     " bytes, past the text format's limit of " + std::to_string(kMaxTextBytes) +
                     " bytes (32 MiB); split it",
                 {1, 1}};
  }
  // A UTF-8 byte order mark, which some editors write, is not part of the
  // text (GRAMMAR.md); skipping it keeps line 1's columns as editors show them.
  if (text.starts_with(kUtf8ByteOrderMark)) text.remove_prefix(kUtf8ByteOrderMark.size());
  try {
    text::Parser parser(text);
    T value = production(parser);
    return value;
  } catch (const text::SyntaxError& e) {
    return e.error;
  } catch (const std::bad_alloc&) {
    return Error{"out of memory while parsing the text", {1, 1}};
  }
}

}  // namespace

Result<Program> parse_program(std::string_view text) {
  return parse_whole<Program>(text, [](text::Parser& p) {
    Program program = p.program();
    p.end_of_input("after the program's closing `}`");
    return program;
  });
}

Result<TestCase> parse_case(std::string_view text) {
  return parse_whole<TestCase>(text, [](text::Parser& p) {
    TestCase test_case = p.test_case();
    p.end_of_input("after the case's closing `}`");
    return test_case;
  });
}

}  // namespace vyre
