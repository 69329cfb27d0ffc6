// libFuzzer target: arbitrary bytes as a program and as a test case. Whatever
// parses is validated (which must not crash on any IR) and must survive the
// round trip print -> parse -> equal -> print-identical. Every parse error
// must carry a 1-based location. Any violation aborts, which libFuzzer
// reports with the input that caused it.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "spec/text/text_format.h"
#include "spec/validate/validator.h"

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_parse_validate: %s\n%s\n", what, detail.c_str());
  std::abort();
}

void check_error_location(const vyre::Error& error) {
  if (error.loc.line == 0 || error.loc.col == 0)
    fail("parse error without a location", error.message);
  if (error.message.empty()) fail("parse error without a message", "");
}

void check_program(const vyre::Program& program) {
  (void)vyre::validate(program);
  std::string text = vyre::print_program(program);
  vyre::Result<vyre::Program> back = vyre::parse_program(text);
  if (!back.ok()) fail("printed program does not parse", back.error().message + "\n" + text);
  if (!(*back == program)) fail("printed program parses to a different program", text);
  if (vyre::print_program(*back) != text) fail("printing is not a fixed point", text);
}

void check_case(const vyre::TestCase& test_case) {
  (void)vyre::validate(test_case.program);
  std::string text = vyre::print_case(test_case);
  vyre::Result<vyre::TestCase> back = vyre::parse_case(text);
  if (!back.ok()) fail("printed case does not parse", back.error().message + "\n" + text);
  if (back->name != test_case.name || !(back->program == test_case.program) ||
      back->grid != test_case.grid || back->inputs != test_case.inputs ||
      back->expected != test_case.expected) {
    fail("printed case parses to a different case", text);
  }
  if (vyre::print_case(*back) != text) fail("printing is not a fixed point", text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  vyre::Result<vyre::Program> program = vyre::parse_program(text);
  if (program.ok()) {
    check_program(*program);
  } else {
    check_error_location(program.error());
  }
  vyre::Result<vyre::TestCase> test_case = vyre::parse_case(text);
  if (test_case.ok()) {
    check_case(*test_case);
  } else {
    check_error_location(test_case.error());
  }
  return 0;
}
