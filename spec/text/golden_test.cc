// Golden files: every tests/text/NAME.vyre prints exactly as the hand-checked
// tests/text/NAME.expected, which is itself a fixed point of parse-then-print.
// The example programs in spec/examples/ must parse and round-trip too.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "spec/text/text_format.h"

namespace vyre {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Parses a program or a case (by its first word) and prints it back.
Result<std::string> reprint(const std::string& text) {
  if (text.find("case") < text.find("program")) {
    Result<TestCase> tc = parse_case(text);
    if (!tc.ok()) return tc.error();
    return print_case(*tc);
  }
  Result<Program> p = parse_program(text);
  if (!p.ok()) return p.error();
  return print_program(*p);
}

std::vector<fs::path> files_in(const fs::path& dir, std::string_view extension) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == extension) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(TextGolden, EveryFilePrintsAsItsExpectedText) {
  auto inputs = files_in(fs::path(VYRE_SOURCE_DIR) / "tests" / "text", ".vyre");
  ASSERT_GE(inputs.size(), 5u);
  for (const fs::path& input : inputs) {
    SCOPED_TRACE(input.string());
    fs::path expected_path = input;
    expected_path.replace_extension(".expected");
    ASSERT_TRUE(fs::exists(expected_path));
    std::string expected = read_file(expected_path);
    Result<std::string> printed = reprint(read_file(input));
    ASSERT_TRUE(printed.ok()) << printed.error().message << " at " << printed.error().loc.line
                              << ":" << printed.error().loc.col;
    EXPECT_EQ(*printed, expected);
    Result<std::string> again = reprint(expected);
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(*again, expected) << "the expected text is not canonical";
  }
}

TEST(TextGolden, ExampleProgramsRoundTrip) {
  auto examples = files_in(fs::path(VYRE_SOURCE_DIR) / "spec" / "examples", ".vyre");
  ASSERT_GE(examples.size(), 4u);
  for (const fs::path& example : examples) {
    SCOPED_TRACE(example.string());
    Result<Program> p = parse_program(read_file(example));
    ASSERT_TRUE(p.ok()) << p.error().message << " at " << p.error().loc.line << ":"
                        << p.error().loc.col;
    EXPECT_FALSE(p->entry.empty());
    Result<Program> back = parse_program(print_program(*p));
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(*back, *p);
  }
}

}  // namespace
}  // namespace vyre
