// Generated programs are valid, conforming on the reference, deterministic
// per seed, and schedule-independent (the law every conforming program obeys).
#include "generators/wellformed_program.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "generators/property_check.h"
#include "reference/interpreter.h"
#include "spec/text/text_format.h"
#include "spec/validate/validator.h"

namespace vyre {
namespace {

constexpr uint64_t kSeeds = 400;

std::string diagnostics(const std::vector<Diagnostic>& ds) {
  std::string out;
  for (const Diagnostic& d : ds) out += std::string(name_of(d.rule)) + ": " + d.message + "\n";
  return out;
}

TEST(WellformedProgram, EverySeedGivesAValidProgram) {
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const TestCase c = generate_wellformed_case(seed);
    const auto ds = validate(c.program);
    ASSERT_TRUE(ds.empty()) << "seed " << seed << "\n" << diagnostics(ds) << print_case(c);
  }
}

TEST(WellformedProgram, AtLeast95PercentRunConformingOnTheReference) {
  uint64_t conforming = 0;
  std::string first_failure;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const TestCase c = generate_wellformed_case(seed);
    reference::RunOptions options;
    // The certification's budget: 2^22 steps, or 2^13 per invocation for
    // the large grids some programs are drawn with.
    uint64_t invocations = 1;
    for (size_t axis = 0; axis < 3; ++axis)
      invocations *= uint64_t{c.program.workgroup_size[axis]} * c.grid.workgroups[axis];
    options.step_budget = std::max(uint64_t{1} << 22, invocations << 13);
    const auto r = reference::run(c.program, c.inputs, c.grid, options);
    ASSERT_TRUE(r.ok()) << "seed " << seed << ": " << r.error().message << "\n" << print_case(c);
    if (r->conforming()) {
      ++conforming;
    } else if (first_failure.empty()) {
      first_failure =
          "seed " + std::to_string(seed) + ": " + r->violations[0].message + "\n" + print_case(c);
    }
  }
  EXPECT_GE(conforming * 100, kSeeds * 95) << first_failure;
  // The construction aims at all of them; report any miss for triage.
  EXPECT_EQ(conforming, kSeeds) << first_failure;
}

TEST(WellformedProgram, SameSeedSameCaseAndSeedsDiffer) {
  for (uint64_t seed : {1ull, 2ull, 977ull, 0xfeedfacecafebeefull}) {
    EXPECT_EQ(print_case(generate_wellformed_case(seed)),
              print_case(generate_wellformed_case(seed)));
  }
  EXPECT_NE(print_case(generate_wellformed_case(1)), print_case(generate_wellformed_case(2)));
}

TEST(WellformedProgram, ConformingProgramsGiveTheSameBytesUnderEverySchedule) {
  check_property(150, [](uint64_t seed) {
    const TestCase c = generate_wellformed_case(seed);
    const auto canonical = reference::run(c.program, c.inputs, c.grid);
    RC_ASSERT(canonical.ok());
    RC_PRE(canonical->conforming());
    for (auto kind : {reference::Schedule::Kind::Reversed, reference::Schedule::Kind::Random}) {
      reference::RunOptions options;
      options.schedule = {kind, seed};
      const auto other = reference::run(c.program, c.inputs, c.grid, options);
      RC_ASSERT(other.ok());
      RC_ASSERT(other->outputs == canonical->outputs);
    }
  });
}

TEST(WellformedProgram, SwarmTestingDrawsDifferentFeatureSubsets) {
  int with_barriers = 0;
  int without_loops = 0;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    const ProgramFeatures f = generate_wellformed(seed).features;
    with_barriers += f.barriers ? 1 : 0;
    without_loops += f.loops ? 0 : 1;
  }
  EXPECT_GT(with_barriers, 5);
  EXPECT_GT(without_loops, 20);
  GeneratorOptions all;
  all.swarm = false;
  EXPECT_TRUE(generate_wellformed(5, all).features.barriers);
}

}  // namespace
}  // namespace vyre
