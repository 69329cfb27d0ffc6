// The text format's central law over generated IR: parse(print(x)) == x, and
// printing is a fixed point, for thousands of arbitrary programs and cases.
#include <gtest/gtest.h>

#include "generators/program_gen.h"
#include "generators/property_check.h"
#include "spec/text/text_format.h"

namespace vyre {
namespace {

TEST(TextRoundTrip, EveryGeneratedProgramParsesBackToItself) {
  check_property(3000, [] {
    const Program program = *arbitrary_program();
    const std::string text = print_program(program);
    Result<Program> back = parse_program(text);
    if (!back.ok()) {
      RC_FAIL("printed program does not parse: " + back.error().message + " at " +
              std::to_string(back.error().loc.line) + ":" + std::to_string(back.error().loc.col));
    }
    RC_ASSERT(*back == program);
    RC_ASSERT(print_program(*back) == text);
  });
}

TEST(TextRoundTrip, EveryGeneratedCaseParsesBackToItself) {
  check_property(1000, [] {
    const TestCase test_case = *arbitrary_test_case();
    const std::string text = print_case(test_case);
    Result<TestCase> back = parse_case(text);
    if (!back.ok()) {
      RC_FAIL("printed case does not parse: " + back.error().message + " at " +
              std::to_string(back.error().loc.line) + ":" + std::to_string(back.error().loc.col));
    }
    RC_ASSERT(back->name == test_case.name);
    RC_ASSERT(back->program == test_case.program);
    RC_ASSERT(back->grid == test_case.grid);
    RC_ASSERT(back->inputs == test_case.inputs);
    RC_ASSERT(back->expected == test_case.expected);
    RC_ASSERT(print_case(*back) == text);
  });
}

}  // namespace
}  // namespace vyre
