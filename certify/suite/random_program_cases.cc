#include "certify/suite/random_program_cases.h"

#include <algorithm>
#include <cstdio>

#include "generators/metamorphic.h"
#include "generators/prng.h"
#include "generators/wellformed_program.h"
#include "reference/interpreter.h"
#include "spec/support/parallel_for.h"

namespace vyre::certify {
namespace {

constexpr std::string_view kOracle = "reference interpreter";
constexpr std::string_view kVariantOracle =
    "reference interpreter on the original program (metamorphic variant)";

std::string hex_seed(uint64_t seed) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(seed));
  return text;
}

/// A generated program as a single-dispatch case. Neither resized nor
/// over-dispatched: the generator may make the program depend on its
/// workgroup shape, and it guarantees no guard past the work: every
/// invocation may add to the shared atomics and store at slots derived from
/// its global id, so extra invocations would change the defined result. Outputs are poisoned where
/// they start all zero (the reference gives the expected bytes of each variant).
SuiteCase program_case(std::string id, TestCase tc, std::string oracle, InputRecipe recipe,
                       std::optional<TestCase> original = std::nullopt) {
  DispatchCase d;
  tc.name = id;
  d.test_case = std::move(tc);
  d.reduce_failures = true;
  if (original) {
    d.original = std::move(original);
    d.original->name = id + "/original";
  }
  return SuiteCase{std::move(id), Level::L5, std::move(oracle), std::move(recipe), std::move(d)};
}

}  // namespace

uint64_t random_program_step_budget(const TestCase& tc) {
  uint64_t invocations = 1;
  for (size_t axis = 0; axis < 3; ++axis)
    invocations *= uint64_t{tc.program.workgroup_size[axis]} * tc.grid.workgroups[axis];
  return std::max(kRandomProgramStepBudget, invocations * kRandomProgramStepsPerInvocation);
}

uint64_t random_program_seed(uint64_t run_seed, uint32_t index) {
  // SplitMix64 adds its gamma before each output, so starting `index`
  // gammas later gives output `index` directly.
  uint64_t state = run_seed + uint64_t{index} * 0x9e3779b97f4a7c15ULL;
  return splitmix64(state);
}

std::string random_program_id(uint32_t index) {
  char text[32];
  std::snprintf(text, sizeof text, "%06u", index);
  return std::string(kRandomProgramIdPrefix) + text;
}

std::vector<MetamorphicVariant> random_program_rewrites(const TestCase& tc, uint64_t program_seed) {
  std::vector<MetamorphicVariant> all = metamorphic_variants(tc, program_seed);
  if (all.size() <= kRandomProgramRewrites) return all;
  const size_t start = static_cast<size_t>(program_seed % all.size());
  std::vector<bool> kept(all.size(), false);
  for (size_t k = 0; k < kRandomProgramRewrites; ++k) kept[(start + k) % all.size()] = true;
  std::vector<MetamorphicVariant> out;
  for (size_t i = 0; i < all.size(); ++i) {
    if (kept[i]) out.push_back(std::move(all[i]));
  }
  return out;
}

std::optional<std::vector<SuiteCase>> random_program_suite_cases(uint64_t program_seed,
                                                                 const std::string& id,
                                                                 uint64_t run_seed,
                                                                 const GeneratorOptions& options) {
  GeneratedCase drawn = generate_wellformed(program_seed, options);
  TestCase tc = std::move(drawn.test_case);
  reference::RunOptions screen;
  screen.step_budget = random_program_step_budget(tc);
  auto ref = reference::run(tc.program, tc.inputs, tc.grid, screen);
  if (!ref.ok() || !ref->conforming()) return std::nullopt;

  const InputRecipe recipe{"gen::generate_wellformed(seed " + hex_seed(program_seed) + ")",
                           run_seed};
  std::vector<SuiteCase> cases;
  // The variants' expectation: the bytes the reference gives for the
  // original, which each variant must also give on the reference (checked by
  // the runner; a disagreement is an invalid case, a suite defect).
  TestCase original = tc;
  original.name = id;
  original.expected = ref->outputs;
  for (MetamorphicVariant& v : random_program_rewrites(tc, program_seed)) {
    TestCase variant = std::move(v.test_case);
    variant.expected = ref->outputs;
    cases.push_back(program_case(id + "/" + v.rewrite, std::move(variant),
                                 std::string(kVariantOracle), recipe, original));
  }
  cases.insert(cases.begin(), program_case(id, std::move(tc), std::string(kOracle), recipe));
  // A small program's original also runs in one more of the backend's
  // encodings, rotating through them from program to program. Not a large
  // one: the SPIR-V optimizer spends seconds on a module of hundreds of
  // statements, past the compile timeout on a CPU driver's host.
  if (drawn.size == SizeClass::Small) {
    std::get<DispatchCase>(cases.front().body).encoding_variant = program_seed;
  }
  return cases;
}

std::vector<SuiteCase> random_program_range(uint64_t run_seed, uint64_t first, uint32_t count,
                                            const std::function<std::string(uint64_t)>& id,
                                            RandomProgramTally& tally) {
  // Each program is drawn from its own seed, so they are built on every
  // host core and kept in index order: the same cases whatever the cores.
  // What a thread throws (out of memory) is raised again on the caller's.
  std::vector<std::optional<std::vector<SuiteCase>>> made(count);
  parallel_for(count, host_threads(), [&](size_t i) {
    // Past 2^32 programs the index wraps; no run gets that far.
    const uint64_t index = first + i;
    made[i] = random_program_suite_cases(
        random_program_seed(run_seed, static_cast<uint32_t>(index)), id(index), run_seed);
    return true;
  });
  std::vector<SuiteCase> out;
  for (std::optional<std::vector<SuiteCase>>& cases : made) {
    ++tally.generated;
    if (!cases) {
      ++tally.discarded;
      continue;
    }
    for (SuiteCase& c : *cases) out.push_back(std::move(c));
  }
  return out;
}

std::vector<SuiteCase> random_program_cases(uint64_t run_seed, uint32_t count,
                                            RandomProgramTally& tally) {
  std::vector<SuiteCase> out = random_program_range(
      run_seed, 0, count, [](uint64_t i) { return random_program_id(static_cast<uint32_t>(i)); },
      tally);
  // The generator promises conforming programs; more than a few screened
  // out means it (or the reference) is broken, and the level must not
  // certify on the survivors.
  if (uint64_t{tally.discarded} * 20 > tally.generated) {
    out.push_back(broken_case("L5/random/discarded", Level::L5,
                              std::to_string(tally.discarded) + " of " +
                                  std::to_string(tally.generated) +
                                  " generated programs were rejected or non-conforming on the "
                                  "reference (more than 5%): a generator defect"));
  }
  return out;
}

}  // namespace vyre::certify
