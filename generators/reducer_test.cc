// The reducer on synthetic predicates: a seeded "lowering bug" (a backend
// that shifts right arithmetically) must reduce to a repro of a few lines,
// and a structural predicate to the one construct it names.
#include "generators/reducer.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "generators/program_edit.h"
#include "generators/wellformed_program.h"
#include "reference/interpreter.h"
#include "spec/ir/builder.h"
#include "spec/support/sanitized_share.h"
#include "spec/text/text_format.h"
#include "spec/validate/validator.h"

namespace vyre {
namespace {

using namespace build;

size_t lines(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

/// The program a buggy backend would run: every Shr is arithmetic.
Program with_arithmetic_shr(const Program& p) {
  Program out = p;
  // Last to first, so the shifts a replacement adds are never revisited.
  const std::vector<edit::ExprSite> sites = edit::expression_sites(out.entry);
  for (size_t i = sites.size(); i-- > 0;) {
    const auto* b = sites[i].expr->as<expr::Binary>();
    if (b == nullptr || b->op != BinOp::Shr) continue;
    out.entry = edit::replace_expression(out.entry, i, [](const ExprPtr& old) {
      const auto* x = old->as<expr::Binary>();
      // sar(a, b) = a < 2^31 ? a >> b : ~(~a >> b); operands are re-read, so
      // only programs whose shift operands have no atomics are compared.
      return select(lt(x->left, u32(0x80000000u)), shr(x->left, x->right),
                    unary(UnOp::BitNot, shr(unary(UnOp::BitNot, x->left), x->right)));
    });
  }
  return out;
}

/// Reduction can turn a bounded loop into a 2^32-trip one; a small step
/// budget makes such candidates fail fast instead of running for seconds.
reference::RunOptions small_budget() {
  reference::RunOptions options;
  options.step_budget = uint64_t{1} << 22;
  return options;
}

std::optional<reference::RunResult> conforming_run(const Program& p, const TestCase& c) {
  auto r = reference::run(p, c.inputs, c.grid, small_budget());
  if (!r.ok() || !r->conforming()) return std::nullopt;
  return std::move(r.value());
}

/// Conforming on the reference and different on the "backend".
bool shr_bug_shows(const TestCase& c) {
  for (const edit::ExprSite& site : edit::expression_sites(c.program.entry)) {
    const auto* b = site.expr->as<expr::Binary>();
    if (b != nullptr && b->op == BinOp::Shr && edit::has_atomic(site.expr)) return false;
  }
  const auto good = conforming_run(c.program, c);
  if (!good) return false;
  const auto bad = reference::run(with_arithmetic_shr(c.program), c.inputs, c.grid, small_budget());
  return bad.ok() && bad->outputs != good->outputs;
}

TEST(Reducer, SeededShiftBugReducesToAFewLines) {
  // Each reduction runs the reference hundreds of times: two are enough for
  // the sanitizers, whose target is memory errors, not the reducer's reach.
  const int wanted = kSanitizedBuild ? 2 : 3;
  int reduced_cases = 0;
  for (uint64_t seed = 1; seed <= 1000 && reduced_cases < wanted; ++seed) {
    const TestCase c = generate_wellformed_case(seed);
    if (!shr_bug_shows(c)) continue;
    ReduceStats stats;
    const TestCase small = reduce(c, shr_bug_shows, {}, &stats);
    ASSERT_TRUE(shr_bug_shows(small)) << print_case(small);
    const std::string text = print_program(small.program);
    EXPECT_LE(lines(text), 12u) << "seed " << seed << " from " << lines(print_program(c.program))
                                << " lines:\n"
                                << print_case(small);
    EXPECT_FALSE(stats.capped);
    ++reduced_cases;
  }
  EXPECT_GE(reduced_cases, 2) << "too few seeds show the seeded bug";
}

/// A structural predicate: a Shr whose left operand is a literal with the
/// sign bit set, in a valid program.
bool has_shr_of_negative_literal(const TestCase& c) {
  for (const edit::ExprSite& site : edit::expression_sites(c.program.entry)) {
    const auto* b = site.expr->as<expr::Binary>();
    if (b == nullptr || b->op != BinOp::Shr) continue;
    const auto* lit = b->left->as<expr::LitU32>();
    if (lit != nullptr && lit->value >= 0x80000000u) return true;
  }
  return false;
}

TEST(Reducer, StructuralPredicateReducesToTheConstructItNames) {
  int reduced_cases = 0;
  for (uint64_t seed = 1; seed <= 3000 && reduced_cases < 2; ++seed) {
    const TestCase c = generate_wellformed_case(seed);
    if (!has_shr_of_negative_literal(c)) continue;
    const TestCase small = reduce(c, has_shr_of_negative_literal);
    ASSERT_TRUE(has_shr_of_negative_literal(small));
    ASSERT_TRUE(validate(small.program).empty());
    // One statement holding the shift, and no more buffers than it needs.
    EXPECT_EQ(edit::statement_count(small.program.entry), 1u) << print_case(small);
    EXPECT_LE(lines(print_program(small.program)), 5u) << print_case(small);
    ++reduced_cases;
  }
  EXPECT_EQ(reduced_cases, 2);
}

TEST(Reducer, UninterestingStartIsReturnedUnchanged) {
  const TestCase c = generate_wellformed_case(3);
  ReduceStats stats;
  const TestCase out = reduce(
      c, [](const TestCase&) { return false; }, {}, &stats);
  EXPECT_EQ(print_case(out), print_case(c));
  EXPECT_EQ(stats.predicate_calls, 1u);
}

TEST(Reducer, StopsAtThePredicateCallCap) {
  const TestCase c = generate_wellformed_case(3);
  ReduceOptions options;
  options.max_predicate_calls = 5;
  ReduceStats stats;
  reduce(
      c, [](const TestCase&) { return true; }, options, &stats);
  EXPECT_TRUE(stats.capped);
  EXPECT_LE(stats.predicate_calls, 5u);
}

}  // namespace
}  // namespace vyre
