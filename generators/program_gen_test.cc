// The generators reach every IR kind and the invalid corners the validator
// must see, and their counterexamples shrink to something small.
#include "generators/program_gen.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "spec/support/sanitized_share.h"
#include "spec/text/text_format.h"

namespace vyre {
namespace {

/// What a sample of generated programs contained.
struct Census {
  std::set<size_t> expr_kinds;
  std::set<size_t> node_kinds;
  std::set<DataType> types;
  std::set<BufferAccess> accesses;
  bool axis_out_of_range = false;
  bool exchange_without_expected = false;
  bool other_atomic_with_expected = false;
  bool zero_workgroup_size = false;
  bool reserved_or_odd_name = false;
  int max_depth = 0;

  void expr(const ExprPtr& e, int depth) {
    max_depth = std::max(max_depth, depth);
    expr_kinds.insert(e->kind.index());
    std::visit(
        [&](const auto& k) {
          using T = std::decay_t<decltype(k)>;
          if constexpr (std::is_same_v<T, expr::InvocationId> ||
                        std::is_same_v<T, expr::WorkgroupId> || std::is_same_v<T, expr::LocalId>) {
            axis_out_of_range |= k.axis > 2;
          } else if constexpr (std::is_same_v<T, expr::Var>) {
            name(k.name);
          } else if constexpr (std::is_same_v<T, expr::Load>) {
            expr(k.index, depth + 1);
          } else if constexpr (std::is_same_v<T, expr::Binary>) {
            expr(k.left, depth + 1);
            expr(k.right, depth + 1);
          } else if constexpr (std::is_same_v<T, expr::Unary>) {
            expr(k.operand, depth + 1);
          } else if constexpr (std::is_same_v<T, expr::Call>) {
            for (const ExprPtr& a : k.args) expr(a, depth + 1);
          } else if constexpr (std::is_same_v<T, expr::Select>) {
            expr(k.cond, depth + 1);
            expr(k.if_true, depth + 1);
            expr(k.if_false, depth + 1);
          } else if constexpr (std::is_same_v<T, expr::Cast>) {
            types.insert(k.target);
            expr(k.value, depth + 1);
          } else if constexpr (std::is_same_v<T, expr::Atomic>) {
            bool exchange = k.op == AtomicOp::CompareExchange;
            exchange_without_expected |= exchange && !k.expected;
            other_atomic_with_expected |= !exchange && k.expected;
            expr(k.index, depth + 1);
            if (k.expected) expr(k.expected, depth + 1);
            expr(k.value, depth + 1);
          }
        },
        e->kind);
  }

  void name(const std::string& n) {
    reserved_or_odd_name |= n == "if" || n == "add" || n.empty() || n.find(' ') != n.npos;
  }

  void body(const Body& b) {
    for (const Node& n : b) {
      node_kinds.insert(n.kind.index());
      std::visit(
          [&](const auto& k) {
            using T = std::decay_t<decltype(k)>;
            if constexpr (std::is_same_v<T, node::Let> || std::is_same_v<T, node::Assign>) {
              name(k.name);
              expr(k.value, 0);
            } else if constexpr (std::is_same_v<T, node::Store>) {
              expr(k.index, 0);
              expr(k.value, 0);
            } else if constexpr (std::is_same_v<T, node::If>) {
              expr(k.cond, 0);
              body(k.then_body);
              body(k.otherwise);
            } else if constexpr (std::is_same_v<T, node::Loop>) {
              expr(k.from, 0);
              expr(k.to, 0);
              body(k.body);
            } else if constexpr (std::is_same_v<T, node::Block>) {
              body(k.body);
            }
          },
          n.kind);
    }
  }

  void program(const Program& p) {
    for (const BufferDecl& b : p.buffers) {
      types.insert(b.element);
      accesses.insert(b.access);
      name(b.name);
    }
    for (uint32_t s : p.workgroup_size) zero_workgroup_size |= s == 0;
    body(p.entry);
  }
};

TEST(ProgramGen, ReachesEveryKindAndTheInvalidCorners) {
  rc::Gen<Program> programs = arbitrary_program();
  rc::Random random;
  Census census;
  for (int i = 0; i < 600; ++i) census.program(programs(random.split(), 100).value());
  EXPECT_EQ(census.expr_kinds.size(), std::variant_size_v<Expr::Kind>);
  EXPECT_EQ(census.node_kinds.size(), std::variant_size_v<Node::Kind>);
  EXPECT_EQ(census.types.size(), all_data_types().size());
  EXPECT_EQ(census.accesses.size(), all_accesses().size());
  EXPECT_TRUE(census.axis_out_of_range);
  EXPECT_TRUE(census.exchange_without_expected);
  EXPECT_TRUE(census.other_atomic_with_expected);
  EXPECT_TRUE(census.zero_workgroup_size);
  EXPECT_TRUE(census.reserved_or_odd_name);
  EXPECT_GE(census.max_depth, 4);
}

/// Deepest body nesting, deepest expression and longest body of a program,
/// by plain recursion (generated programs nest a few hundred levels at most).
struct Shape {
  int nesting = 0;
  int expr_depth = 0;
  size_t widest = 0;
  int text_nesting = 0;  ///< bodies plus expression levels, as the parser counts them

  void expr(const ExprPtr& e, int depth, int bodies) {
    if (e == nullptr) return;
    expr_depth = std::max(expr_depth, depth);
    text_nesting = std::max(text_nesting, bodies + depth);
    for (const ExprPtr& child : children(*e)) expr(child, depth + 1, bodies);
  }
  static std::vector<ExprPtr> children(const Expr& e) {
    return std::visit(
        [](const auto& k) -> std::vector<ExprPtr> {
          using T = std::decay_t<decltype(k)>;
          if constexpr (std::is_same_v<T, expr::Load>) return {k.index};
          if constexpr (std::is_same_v<T, expr::Binary>) return {k.left, k.right};
          if constexpr (std::is_same_v<T, expr::Unary>) return {k.operand};
          if constexpr (std::is_same_v<T, expr::Call>) return k.args;
          if constexpr (std::is_same_v<T, expr::Select>) return {k.cond, k.if_true, k.if_false};
          if constexpr (std::is_same_v<T, expr::Cast>) return {k.value};
          if constexpr (std::is_same_v<T, expr::Atomic>) return {k.index, k.expected, k.value};
          return {};
        },
        e.kind);
  }
  void body(const Body& b, int depth) {
    nesting = std::max(nesting, depth);
    widest = std::max(widest, b.size());
    for (const Node& n : b) {
      std::visit(
          [&](const auto& k) {
            using T = std::decay_t<decltype(k)>;
            if constexpr (std::is_same_v<T, node::Let> || std::is_same_v<T, node::Assign>) {
              expr(k.value, 1, depth);
            } else if constexpr (std::is_same_v<T, node::Store>) {
              expr(k.index, 1, depth);
              expr(k.value, 1, depth);
            } else if constexpr (std::is_same_v<T, node::If>) {
              expr(k.cond, 1, depth);
              body(k.then_body, depth + 1);
              body(k.otherwise, depth + 1);
            } else if constexpr (std::is_same_v<T, node::Loop>) {
              expr(k.from, 1, depth);
              expr(k.to, 1, depth);
              body(k.body, depth + 1);
            } else if constexpr (std::is_same_v<T, node::Block>) {
              body(k.body, depth + 1);
            }
          },
          n.kind);
    }
  }
};

TEST(ProgramGen, AGoodShareIsDeepOrWideWithinTheTextLimits) {
  // Sizes 0..100 as a RapidCheck run sweeps them.
  rc::Gen<Program> programs = arbitrary_program();
  rc::Random random;
  int deep = 0, past_v018 = 0, deep_expr = 0, past_v030 = 0, wide = 0;
  const int runs = sanitized_share(1000, 200);
  for (int i = 0; i < runs; ++i) {
    Shape shape;
    shape.body(programs(random.split(), i % 101).value().entry, 0);
    deep += shape.nesting >= 8;
    past_v018 += shape.nesting > 64;
    deep_expr += shape.expr_depth >= 8;
    past_v030 += shape.expr_depth > 128;
    wide += shape.widest >= 16;
    ASSERT_LE(shape.text_nesting, static_cast<int>(kMaxTextNesting));
  }
  // Hand count: 990 of the 1000 sizes are non-zero, a quarter of those deep
  // and a quarter wide, about 247 each. A deep program nests 0..100 deep
  // (93 of 101 values at least 8: about 228 programs; 36 past V018's 64:
  // about 88) around an expression 1..150 deep (143 of 150 at least 8: about
  // 236; 22 past V030's 128: about 36). A wide one has 0..128 statements
  // (113 of 129 at least 16: about 216). Ordinary programs nest at most 4
  // and their expressions 6 deep. The bounds leave a wide margin, and the
  // seed is fixed, so they never flake. The sanitized build sweeps the sizes
  // twice (200 programs) and keeps the same proportions.
  EXPECT_GE(deep, runs / 6);
  EXPECT_GE(deep_expr, runs / 6);
  EXPECT_GE(wide, runs / 6);
  EXPECT_GE(past_v018, runs / 20);
  EXPECT_GE(past_v030, runs / 50);
}

TEST(ProgramGen, SizeZeroGivesFlatPrograms) {
  rc::Gen<Program> programs = arbitrary_program();
  rc::Random random;
  for (int i = 0; i < 200; ++i) {
    Program p = programs(random.split(), 0).value();
    for (const Node& n : p.entry) {
      EXPECT_TRUE(!n.as<node::If>() && !n.as<node::Loop>() && !n.as<node::Block>());
    }
  }
}

TEST(ProgramGen, CounterexamplesShrinkToAFewLines) {
  // "No program holds an atomic" is false; the shrunk counterexample should be
  // one short statement, not the first large program that happened to fail.
  rc::detail::TestMetadata metadata;
  rc::detail::TestParams params;
  params.maxSuccess = 2000;
  const auto result = rc::detail::checkTestable(
      [] {
        Program p = *arbitrary_program();
        RC_ASSERT(print_program(p).find("atomic_") == std::string::npos);
      },
      metadata, params);
  ASSERT_TRUE(result.is<rc::detail::FailureResult>());
  const auto& failure = result.get<rc::detail::FailureResult>();
  ASSERT_EQ(failure.counterExample.size(), 1u);
  const std::string& shown = failure.counterExample[0].second;
  EXPECT_LT(shown.size(), 160u) << shown;
  EXPECT_NE(shown.find("atomic_add(a[0], 0)"), std::string::npos) << shown;
}

}  // namespace
}  // namespace vyre
