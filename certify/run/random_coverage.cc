#include "certify/run/random_coverage.h"

#include <map>

#include "generators/coverage.h"

namespace vyre::certify {

std::string coverage_category(std::string_view missing_line) {
  if (missing_line.find(" @ ") != std::string_view::npos) return "kind@context";
  const size_t end = missing_line.find_first_of(". ");
  return std::string(missing_line.substr(0, end));
}

std::optional<RandomProgramSummary> summarize_random_programs(
    const std::vector<const SuiteCase*>& chosen, const RandomProgramTally& tally) {
  Coverage reached;
  RandomProgramSummary summary;
  summary.generated = tally.generated;
  summary.discarded = tally.discarded;
  bool any = false;
  for (const SuiteCase* c : chosen) {
    // The generator's programs only: L5/found's recorded ones measure nothing of it.
    if (!c->id.starts_with(kRandomProgramIdPrefix)) continue;
    any = true;
    const DispatchCase* d = dispatch_of(*c);
    if (d == nullptr || d->original) continue;  // a variant, or a broken case
    ++summary.programs;
    reached.merge(coverage_of(d->test_case));
  }
  if (!any) return std::nullopt;
  // An empty record misses the whole universe: its lines are the universe.
  std::map<std::string, CoverageCategory> categories;
  for (const std::string& line : Coverage().missing()) {
    CoverageCategory& cat = categories[coverage_category(line)];
    cat.category = coverage_category(line);
    ++cat.universe;
    ++cat.reached;
  }
  summary.not_reached = reached.missing();
  for (const std::string& line : summary.not_reached) --categories[coverage_category(line)].reached;
  for (auto& [name, cat] : categories) summary.categories.push_back(cat);
  return summary;
}

}  // namespace vyre::certify
