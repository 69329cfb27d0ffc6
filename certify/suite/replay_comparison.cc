#include "certify/suite/replay_comparison.h"

#include "archetypes/graph/bfs_dispatch.h"
#include "archetypes/graph/bfs_layout.h"
#include "reference/host_words.h"

namespace vyre::certify {
namespace {

constexpr std::string_view kPrefix = "# vyre-certify compare: ";
constexpr std::string_view kGraphBfs = "graph.bfs";

/// The graph.bfs dispatch a case describes, read back from its params
/// uniform (seed 001's field order), which is all canonicalisation needs.
Result<archetypes::bfs::BfsDispatch> bfs_dispatch_of(const TestCase& c) {
  namespace bfs = archetypes::bfs;
  auto params = c.inputs.find(std::string(bfs::kParams));
  if (params == c.inputs.end() || params->second.size() < bfs::kParamWordCount * 4) {
    return Error{"a graph.bfs comparison needs the case's `params` input (" +
                 std::to_string(bfs::kParamWordCount) + " words)"};
  }
  const std::vector<uint32_t> words = reference::to_words(params->second);
  bfs::BfsDispatch d;
  d.inputs = c.inputs;
  d.grid = c.grid;
  d.num_sources = words[bfs::kParamNumSources];
  d.num_nodes = words[bfs::kParamNumNodes];
  d.params.max_findings = words[bfs::kParamMaxFindings];
  d.params.max_depth = words[bfs::kParamMaxDepth];
  d.words_per_source = words[bfs::kParamWordsPerSource];
  return d;
}

}  // namespace

std::string comparison_line(ReplayComparison mode) {
  switch (mode) {
    case ReplayComparison::Bytes:
      return "";
    case ReplayComparison::GraphBfs:
      return std::string(kPrefix) + std::string(kGraphBfs);
  }
  return "";
}

Result<ReplayComparison> comparison_named_in(std::string_view text) {
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    if (!line.starts_with(kPrefix)) continue;
    std::string_view mode = line.substr(kPrefix.size());
    while (!mode.empty() && (mode.back() == '\r' || mode.back() == ' ')) mode.remove_suffix(1);
    if (mode == kGraphBfs) return ReplayComparison::GraphBfs;
    return Error{"unknown comparison `" + std::string(mode) + "` after `" + std::string(kPrefix) +
                 "`; known: graph.bfs (without that line, bytes are compared)"};
  }
  return ReplayComparison::Bytes;
}

std::optional<std::string> graph_bfs_difference(const TestCase& c, const BufferSet& observed) {
  if (!c.expected) return "the case has no expected outputs to compare with";
  auto dispatch = bfs_dispatch_of(c);
  if (!dispatch) return dispatch.error().message;
  auto canonical = archetypes::bfs::canonical_bfs_outputs(observed, *dispatch);
  if (!canonical) return canonical.error().message;
  return archetypes::bfs::compare_bfs_outputs(*c.expected, *canonical,
                                              dispatch->params.max_findings);
}

}  // namespace vyre::certify
