#include "reference/graph/finding.h"

#include <algorithm>

namespace vyre::graph {

void sort_canonical(std::vector<Finding>& findings) {
  std::sort(findings.begin(), findings.end());
}

std::vector<Finding> findings_from_words(std::span<const uint32_t> words, uint32_t count) {
  const size_t rows = std::min<size_t>(count, words.size() / kFindingWords);
  std::vector<Finding> out;
  out.reserve(rows);
  for (size_t r = 0; r < rows; ++r) {
    const uint32_t* w = &words[r * kFindingWords];
    out.push_back({w[0], w[1], w[2], w[3]});
  }
  return out;
}

std::vector<uint32_t> findings_to_words(std::span<const Finding> findings) {
  std::vector<uint32_t> out;
  out.reserve(findings.size() * kFindingWords);
  for (const Finding& f : findings) {
    out.insert(out.end(), {f.source_node, f.sink_node, f.depth, f.source_idx});
  }
  return out;
}

}  // namespace vyre::graph
