// The selected mutant (test-only: compiled only into vyre_mutant_selection,
// which only the mutant libraries link).
// VYRE_MUTANT=NAME selects one; VYRE_MUTANT=list prints the catalogue; an
// unknown name exits 2 with the list, before anything runs.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "backends/mutants/mutant.h"

namespace vyre {
namespace {

struct Row {
  Mutant mutant;
  std::string_view name;
  std::string_view family;
  bool deterministic;
  std::string_view where;
  std::string_view description;
};

constexpr Row kRows[] = {
#define VYRE_MUTANT(name, family, deterministic, where, description) \
  {Mutant::name, #name, #family, deterministic, #where, description},
#include "backends/mutants/mutants.def"
#undef VYRE_MUTANT
};

/// A once-in-N mutant misbehaves on every kFlakyPeriod-th call.
constexpr uint32_t kFlakyPeriod = 16;

void print_catalogue(std::FILE* out) {
  for (const Row& row : kRows) {
    std::fprintf(out, "%.*s\t%.*s\t%s\t%.*s\t%.*s\n", static_cast<int>(row.name.size()),
                 row.name.data(), static_cast<int>(row.family.size()), row.family.data(),
                 row.deterministic ? "deterministic" : "nondeterministic",
                 static_cast<int>(row.where.size()), row.where.data(),
                 static_cast<int>(row.description.size()), row.description.data());
  }
}

/// The row VYRE_MUTANT names; exits for `list` and for unknown names.
const Row* select_from_environment() {
  const char* env = std::getenv("VYRE_MUTANT");
  if (env == nullptr || *env == '\0') return nullptr;
  const std::string_view name = env;
  if (name == "list") {
    print_catalogue(stdout);
    std::exit(0);
  }
  for (const Row& row : kRows) {
    if (row.name == name) return &row;
  }
  std::fprintf(stderr, "VYRE_MUTANT: unknown mutant `%s`; the mutants are:\n", env);
  print_catalogue(stderr);
  std::exit(2);
}

/// Chosen at start-up, so that a bad name fails before any work.
const Row* const kSelected = select_from_environment();

}  // namespace

bool mutant_active(Mutant m) {
  return kSelected != nullptr && kSelected->mutant == m;
}

bool mutant_fires(Mutant m) {
  static std::atomic<uint32_t> calls{0};
  return mutant_active(m) && calls.fetch_add(1) % kFlakyPeriod == kFlakyPeriod / 2;
}

bool mutant_forces_staging() {
  return kSelected != nullptr && kSelected->family == "staging";
}

}  // namespace vyre
