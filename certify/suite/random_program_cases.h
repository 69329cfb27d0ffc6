// L5, random programs (backend archetype X2, random program everywhere):
// well-formed programs drawn from --seed (generators/wellformed_program.h),
// each run once on the reference first and kept only when it is conforming
// there, then certified as a single-dispatch case with its metamorphic
// variants (generators/metamorphic.h) beside it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "certify/suite/suite_case.h"
#include "generators/metamorphic.h"
#include "generators/wellformed_program.h"

namespace vyre::certify {

/// Programs in one L5 run: enough that the default seed's programs reach
/// every entry of the coverage universe (random_program_cases_test.cc).
inline constexpr uint32_t kRandomProgramCount = 400;

/// Metamorphic variants certified per program: of the rewrites that find a
/// site in it, this many in a rotation that starts at a place drawn from the
/// program's seed, so every rewrite runs on about the same share of programs.
/// Each variant is one more driver compile, the bulk of L5's cost on a CPU
/// driver (lavapipe), so L5 runs a few per program rather than all seven.
inline constexpr uint32_t kRandomProgramRewrites = 2;

/// Step budget of the reference when it screens a generated program and when
/// the reducer's predicate runs a candidate: a reduced loop bound may iterate
/// 2^32 times, and such a run must fail fast (generators/reducer.h).
inline constexpr uint64_t kRandomProgramStepBudget = uint64_t{1} << 22;

/// Steps per invocation a generated program may take beyond that budget:
/// a program over a large grid (up to 2^16 invocations) does proportionally
/// more work, while a small one keeps the fast failure above.
inline constexpr uint64_t kRandomProgramStepsPerInvocation = uint64_t{1} << 13;

/// The reference's step budget for generated case `tc`: the larger of
/// kRandomProgramStepBudget and kRandomProgramStepsPerInvocation per
/// invocation of its grid.
uint64_t random_program_step_budget(const TestCase& tc);

/// The seed of random program `index` of a run with `run_seed`: output
/// `index` (0-based) of SplitMix64 seeded with `run_seed` (generators/prng.h),
/// so each program's seed is independent of how many programs run.
uint64_t random_program_seed(uint64_t run_seed, uint32_t index);

/// What every random program's id, and its variants', starts with.
inline constexpr std::string_view kRandomProgramIdPrefix = "L5/random/";

/// "L5/random/000123": the id of random program `index`; its metamorphic
/// variants are "L5/random/000123/<rewrite>" (generators/metamorphic.h names
/// the rewrites: dead_code, identity, outline, inline, peel, reorder,
/// workgroup_shape).
std::string random_program_id(uint32_t index);

/// How many programs were drawn and how many the reference screened out.
struct RandomProgramTally {
  uint32_t generated = 0;
  /// Rejected by the reference or non-conforming there: never run on a backend.
  uint32_t discarded = 0;
};

/// The cases of the program with seed `program_seed`, named `id`: the
/// program itself and kRandomProgramRewrites of its metamorphic variants
/// (random_program_rewrites), all opted into reduction, the program of the
/// small size class also in another encoding (DispatchCase::encoding_variant);
/// nullopt when the reference rejects the program or flags it
/// non-conforming (within random_program_step_budget). `run_seed` is recorded
/// as the cases' input recipe.
/// `options` are the generator's (L5 and fuzz use the defaults; `vyre-certify
/// generate` may widen the workgroups).
std::optional<std::vector<SuiteCase>> random_program_suite_cases(
    uint64_t program_seed, const std::string& id, uint64_t run_seed,
    const GeneratorOptions& options = {});

/// The metamorphic variants of `tc` (generated from `program_seed`) that L5
/// certifies: kRandomProgramRewrites of metamorphic_variants(tc,
/// program_seed), consecutive in its order from index program_seed modulo
/// their number (wrapping), listed in metamorphic_variants' order.
std::vector<MetamorphicVariant> random_program_rewrites(const TestCase& tc, uint64_t program_seed);

/// L5's cases for `run_seed`: programs 0..count-1. More than 5% discarded is a
/// suite defect and adds a case that fails the level saying so.
std::vector<SuiteCase> random_program_cases(uint64_t run_seed, uint32_t count,
                                            RandomProgramTally& tally);

/// The cases of programs first..first+count-1 for `run_seed`, program i
/// named id(i), built on every host core and kept in program order; the
/// discarded ones are counted in `tally`, and no case is added for them.
std::vector<SuiteCase> random_program_range(uint64_t run_seed, uint64_t first, uint32_t count,
                                            const std::function<std::string(uint64_t)>& id,
                                            RandomProgramTally& tally);

}  // namespace vyre::certify
