// Every metamorphic variant of a generated case is valid, conforming and
// gives the original's output bytes on the reference.
#include "generators/metamorphic.h"

#include <gtest/gtest.h>

#include <map>

#include "generators/program_edit.h"
#include "generators/property_check.h"
#include "generators/wellformed_program.h"
#include "reference/interpreter.h"
#include "spec/text/text_format.h"
#include "spec/validate/validator.h"

namespace vyre {
namespace {

TEST(Metamorphic, VariantsGiveTheOriginalBytesOnTheReference) {
  check_property(300, [](uint64_t seed) {
    const TestCase c = generate_wellformed_case(seed);
    const auto original = reference::run(c.program, c.inputs, c.grid);
    RC_ASSERT(original.ok());
    RC_PRE(original->conforming());
    for (const MetamorphicVariant& v : metamorphic_variants(c, seed)) {
      const auto diagnostics = validate(v.test_case.program);
      if (!diagnostics.empty()) {
        RC_FAIL(v.rewrite + " made an invalid program: " + diagnostics[0].message + "\n" +
                print_case(v.test_case));
      }
      const auto run = reference::run(v.test_case.program, v.test_case.inputs, v.test_case.grid);
      RC_ASSERT(run.ok());
      if (!run->conforming()) {
        RC_FAIL(v.rewrite + " made a non-conforming program: " + run->violations[0].message);
      }
      if (run->outputs != original->outputs) {
        RC_FAIL(v.rewrite + " changed the output of\n" + print_case(c) + "into\n" +
                print_case(v.test_case));
      }
    }
  });
}

TEST(Metamorphic, EveryRewriteAppliesAndChangesTheProgram) {
  std::map<std::string, int> applied;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const TestCase c = generate_wellformed_case(seed);
    for (const MetamorphicVariant& v : metamorphic_variants(c, seed)) {
      ++applied[v.rewrite];
      EXPECT_TRUE(!(v.test_case.program == c.program) || !(v.test_case.grid == c.grid))
          << v.rewrite;
    }
  }
  for (const char* rewrite :
       {"dead_code", "identity", "outline", "inline", "peel", "reorder", "workgroup_shape"}) {
    EXPECT_GT(applied[rewrite], 10) << rewrite;
  }
}

/// How many statements of `p` are `Kind`, nested ones included.
template <class Kind>
size_t count_of(const Program& p) {
  size_t n = 0;
  for (size_t i = 0; i < edit::statement_count(p.entry); ++i)
    n += edit::statement_at(p.entry, i).as<Kind>() != nullptr;
  return n;
}

TEST(Metamorphic, DeadCodeIsSometimesAReturnAndSometimesBeforeABarrier) {
  int returns = 0, before_barrier = 0, stores = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    const TestCase c = generate_wellformed_case(seed);
    for (const MetamorphicVariant& v : metamorphic_variants(c, seed)) {
      if (v.rewrite != "dead_code") continue;
      const Program& p = v.test_case.program;
      if (count_of<node::Return>(p) > count_of<node::Return>(c.program)) {
        ++returns;
        // The rewrite puts `if ... { return }` in front of one statement, so
        // the statement kinds, in pre-order, first differ at or after it; a
        // barrier two or more statements later runs after the dead return.
        const size_t n = edit::statement_count(p.entry);
        size_t first = 0;
        while (first < edit::statement_count(c.program.entry) &&
               edit::statement_at(p.entry, first).kind.index() ==
                   edit::statement_at(c.program.entry, first).kind.index())
          ++first;
        for (size_t j = first + 2; j < n; ++j)
          if (edit::statement_at(p.entry, j).as<node::Barrier>()) {
            ++before_barrier;
            break;
          }
      } else {
        ++stores;
      }
    }
  }
  EXPECT_GT(returns, 20);
  EXPECT_GT(before_barrier, 5);
  EXPECT_GT(stores, 20);
}

TEST(Metamorphic, SameSeedSameVariants) {
  const TestCase c = generate_wellformed_case(11);
  const auto a = metamorphic_variants(c, 5);
  const auto b = metamorphic_variants(c, 5);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_EQ(print_case(a[i].test_case), print_case(b[i].test_case));
}

}  // namespace
}  // namespace vyre
