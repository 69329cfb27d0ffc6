#include "archetypes/dataflow/rules_toml.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "archetypes/dataflow/dataflow_oracle.h"

namespace vyre::dataflow {
namespace {

using ::testing::HasSubstr;

constexpr const char* kMinimal = R"(schema = 1
name = "t"
[kinds]
src = 1
dst = 2
clean = 3
[roles]
sources = ["src"]
sinks = ["dst"]
)";

// kMinimal with more lines at its end. (Built by append, not operator+:
// GCC 12 raises a false -Warray-bounds on `std::string(kMinimal) + "..."`.)
std::string minimal_and(std::string_view lines) {
  std::string text = kMinimal;
  text.append(lines);
  return text;
}

void expect_error(std::string_view text, const std::string& needle, uint32_t line = 0) {
  auto r = parse_rules(text, "t.toml");
  ASSERT_FALSE(r.ok()) << "expected: " << needle;
  EXPECT_THAT(r.error().message, HasSubstr(needle));
  EXPECT_THAT(r.error().message, HasSubstr("Fix:"));
  // Every error kind carries file:line:col (spec/support/diagnostic_text.h).
  EXPECT_GT(r.error().loc.line, 0u) << r.error().message;
  EXPECT_GT(r.error().loc.col, 0u) << r.error().message;
  EXPECT_THAT(r.error().message, HasSubstr("t.toml:" + std::to_string(r.error().loc.line) + ":" +
                                           std::to_string(r.error().loc.col) + ": "));
  if (line != 0) {
    EXPECT_EQ(r.error().loc.line, line) << r.error().message;
  }
}

TEST(RulesToml, TheExampleFileParses) {
  auto r = load_rules(VYRE_RULES_EXAMPLE);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->name, "web-xss-and-command-injection");
  EXPECT_EQ(r->max_depth, 16u);
  EXPECT_EQ(r->kinds.size(), 7u);
  EXPECT_EQ(r->kinds.at("shell.exec"), 6u);
  EXPECT_EQ(r->sources, (std::vector<std::string>{"http.request.query", "http.request.body"}));
  EXPECT_EQ(r->sinks, (std::vector<std::string>{"dom.inner_html", "shell.exec"}));
  EXPECT_EQ(r->sanitizers, (std::vector<std::string>{"html.escape*"}));
  EXPECT_EQ(r->transfer_function, "block_mask");
  EXPECT_EQ(r->transfer_params.at("mask"), 1u);
}

TEST(RulesToml, DefaultsWhenOptionalPartsAreAbsent) {
  auto r = parse_rules(kMinimal);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->max_depth, UINT32_MAX);
  EXPECT_TRUE(r->sanitizers.empty());
  EXPECT_EQ(r->transfer_function, "block_mask");
}

TEST(RulesToml, MalformedTomlPointsAtTheLine) {
  expect_error("schema = 1\nname = \"x\n", "malformed TOML", 2);
  expect_error("schema = 1\n[kinds\n", "malformed TOML", 2);
}

TEST(RulesToml, MissingAndUnknownKeys) {
  expect_error("name = \"x\"\n", "missing 'schema'");
  expect_error("schema = 2\nname = \"x\"\n", "unsupported 'schema'", 1);
  expect_error(minimal_and("colour = 3\n"), "unknown key 'colour'");
  expect_error("schema = 1\nname = \"t\"\n[kinds]\na = 1\n", "missing [roles]");
  expect_error("schema = 1\nname = \"t\"\n[kinds]\na = 1\n[roles]\nsources = [\"a\"]\n",
               "lacks 'sinks'");
  expect_error(
      "schema = 1\nname = \"t\"\n[kinds]\na = 1\n[roles]\nsources = [\"a\"]\n"
      "sinks = [\"a\"]\nsanitisers = [\"a\"]\n",
      "unknown key 'sanitisers' in [roles]", 8);
}

TEST(RulesToml, RolesNamingUnknownLabels) {
  expect_error(
      "schema = 1\nname = \"t\"\n[kinds]\nsrc = 1\n[roles]\nsources = [\"src\"]\nsinks = "
      "[\"eval\"]\n",
      "roles.sinks names 'eval', which is not a kind", 7);
  expect_error(minimal_and("sanitizers = [\"escape*\"]\n"),
               "roles.sanitizers names 'escape*', a pattern that matches no kind");
}

TEST(RulesToml, BadValues) {
  expect_error("schema = 1\nname = \"t\"\n[kinds]\na = -1\n", "kinds.a = -1 is outside", 4);
  expect_error("schema = 1\nname = \"t\"\n[kinds]\na = 4294967296\n", "is outside [0, 4294967295]");
  expect_error("schema = 1\nname = \"t\"\n[kinds]\na = \"one\"\n", "kinds.a must be an integer");
  expect_error("schema = 1\nname = \"t\"\n[kinds]\na = 1\nb = 1\n", "share id 1", 5);
  expect_error("schema = 1\nname = \"t\"\nmax_depth = 1.5\n[kinds]\na = 1\n",
               "max_depth must be an integer", 3);
  expect_error(std::string(kMinimal).replace(std::string(kMinimal).find("[\"dst\"]"), 7, "\"dst\""),
               "roles.sinks must be an array of strings");
}

TEST(RulesToml, TransferChoicesAreChecked) {
  expect_error(minimal_and("[transfer]\nfunction = \"teleport\"\n"),
               "unknown transfer function 'teleport'", 11);
  expect_error(minimal_and("[transfer]\nfunction = \"block_mask\"\nmsk = 1\n"),
               "has no parameter 'msk'", 12);
  expect_error(minimal_and("[transfer]\nmask = 1\n"), "lacks a string 'function'");
  expect_error(minimal_and("sanitizers = [\"clean\"]\n[transfer]\nfunction = \"allow_all\"\n"),
               "ignores them", 10);
  auto ok = parse_rules(minimal_and("[transfer]\nfunction = \"forward_only\"\n"));
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(transfer_of(*ok)->name, "forward_only");
}

TEST(RulesToml, MissingFileIsAnError) {
  auto r = load_rules("/nonexistent/rules.toml");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("cannot open"));
}

TEST(GlobMatch, StarsAndQuestionMarks) {
  EXPECT_TRUE(glob_match("html.escape*", "html.escape"));
  EXPECT_TRUE(glob_match("html.escape*", "html.escape_attribute"));
  EXPECT_TRUE(glob_match("*.exec", "shell.exec"));
  EXPECT_TRUE(glob_match("a?c", "abc"));
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("a*b*c", "a_b_b_c"));
  EXPECT_FALSE(glob_match("a?c", "ac"));
  EXPECT_FALSE(glob_match("html.escape", "html.escape_attribute"));
  EXPECT_FALSE(glob_match("*.exec", "shell.exec2"));
  // Linear on hostile patterns: this would take ages with naive backtracking.
  EXPECT_FALSE(glob_match("a*a*a*a*a*a*a*a*a*a*b", std::string(5000, 'a')));
}

TEST(ApplyRules, RolesMetadataAndSourcesFromKinds) {
  auto rules = load_rules(VYRE_RULES_EXAMPLE);
  ASSERT_TRUE(rules.ok());
  // query(1) -> escape(3) -> inner_html(5); body(2) -> log(7) -> exec(6); 9 is unnamed.
  auto g = graph::try_to_csr(7, std::vector<graph::Edge>{{0, 1}, {1, 2}, {3, 4}, {4, 5}, {0, 6}});
  ASSERT_TRUE(g.ok());
  const std::vector<uint32_t> kinds = {1, 3, 5, 2, 7, 6, 9};
  auto in = apply_rules(*rules, *g, kinds);
  ASSERT_TRUE(in.ok()) << in.error().message;
  EXPECT_EQ(in->graph.node_data, (std::vector<uint32_t>{1, 0, 2, 1, 0, 2, 0}));
  EXPECT_EQ(in->node_metadata, (std::vector<uint32_t>{0, 1, 0, 0, 0, 0, 0}));
  EXPECT_EQ(in->sources, (std::vector<uint32_t>{0, 3}));
  EXPECT_EQ(in->max_depth, 16u);
  // By hand: the escape blocks query -> inner_html; body reaches exec at depth 2.
  auto found = dataflow_oracle(*in, *transfer_of(*rules));
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(*found, (std::vector<graph::Finding>{{3, 5, 2, 1}}));
  const std::vector<uint32_t> short_kinds = {1, 3};
  auto bad = apply_rules(*rules, *g, short_kinds);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.error().message, HasSubstr("2 node kinds for a graph of 7 nodes"));
}

TEST(ApplyRules, MalformedGraphIsAnErrorNotACrash) {
  auto rules = load_rules(VYRE_RULES_EXAMPLE);
  ASSERT_TRUE(rules.ok());
  const std::vector<uint32_t> kinds = {1, 3, 5};
  graph::CsrGraph no_labels;  // 3 nodes, no edges, no node_data
  no_labels.node_count = 3;
  no_labels.offsets = {0, 0, 0, 0};
  auto unlabelled = apply_rules(*rules, no_labels, kinds);
  ASSERT_FALSE(unlabelled.ok());
  EXPECT_THAT(unlabelled.error().message, HasSubstr("node_data.len() == node_count"));
  graph::CsrGraph short_offsets;
  short_offsets.node_count = 3;
  short_offsets.node_data = {0, 0, 0};
  auto truncated = apply_rules(*rules, short_offsets, kinds);
  ASSERT_FALSE(truncated.ok());
  EXPECT_THAT(truncated.error().message, HasSubstr("offsets.len() == node_count + 1"));
}

}  // namespace
}  // namespace vyre::dataflow
