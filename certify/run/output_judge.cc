#include "certify/run/output_judge.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "archetypes/graph/bfs_dispatch.h"
#include "archetypes/graph/bfs_layout.h"
#include "spec/ir/host_words.h"

namespace vyre::certify {
namespace {

/// The graph.bfs dispatch a case describes, read back from its params
/// uniform (seed 001's field order), which is all canonicalisation needs.
Result<archetypes::bfs::BfsDispatch> bfs_dispatch_of(const TestCase& c) {
  namespace bfs = archetypes::bfs;
  auto params = c.inputs.find(std::string(bfs::kParams));
  if (params == c.inputs.end() || params->second.size() < bfs::kParamWordCount * 4) {
    return Error{"a graph.bfs comparison needs the case's `params` input (" +
                 std::to_string(bfs::kParamWordCount) + " words)"};
  }
  const std::vector<uint32_t> words = to_words(params->second);
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

/// Pinned spec section 7: findings compared as a set in canonical form, any
/// admissible subset past max_findings.
Judgement judge_graph_bfs(const TestCase& c, const BufferSet& observed) {
  auto dispatch = bfs_dispatch_of(c);
  if (!dispatch) return {dispatch.error().message, std::nullopt};
  auto canonical = archetypes::bfs::canonical_bfs_outputs(observed, *dispatch);
  if (!canonical) return {canonical.error().message, std::nullopt};
  Judgement j;
  j.difference =
      archetypes::bfs::compare_bfs_outputs(*c.expected, *canonical, dispatch->params.max_findings);
  // The author of a case who writes another expected buffer expects it to
  // be judged: the buffers graph.bfs's rule does not cover (those outside
  // the canonical form) are compared byte for byte, never skipped.
  for (const auto& [name, want] : *c.expected) {
    if (j.difference) break;
    if (canonical->contains(name)) continue;
    const auto got = observed.find(name);
    if (got == observed.end() || got->second != want) {
      j.difference = "buffer `" + name +
                     "` differs from its expected bytes (`compare graph.bfs` judges findings, "
                     "finding_count and queue_overflow as a finding set, every other expected "
                     "buffer byte for byte)";
    }
  }
  j.canonical = std::move(canonical).value();
  return j;
}

/// printf into a std::string.
template <typename... Args>
void append(std::string& out, const char* format, Args... args) {
  char line[512];
  std::snprintf(line, sizeof line, format, args...);
  out += line;
}

}  // namespace

Judgement judge_outputs(const TestCase& expectation, const BufferSet& observed) {
  if (!expectation.expected) {
    return {"the case has no expected outputs to compare with", std::nullopt};
  }
  switch (expectation.comparison) {
    case Comparison::Bytes:
      if (*expectation.expected == observed) return {};
      return {"outputs differ from the expected bytes", std::nullopt};
    case Comparison::GraphBfs:
      return judge_graph_bfs(expectation, observed);
  }
  return {"unknown comparison", std::nullopt};
}

std::vector<std::string> unjudged_buffers(const TestCase& expectation) {
  std::vector<std::string> unjudged;
  // Without an expectation nothing says what will be judged: all of it may.
  if (!expectation.expected) return unjudged;
  switch (expectation.comparison) {
    case Comparison::Bytes:
      return unjudged;
    case Comparison::GraphBfs:
      break;
  }
  // What judge_graph_bfs reads besides the expected buffers: the canonical
  // form's three, read from every run whether expected or not.
  const std::string_view read[] = {archetypes::bfs::kFindings, archetypes::bfs::kFindingCount,
                                   archetypes::bfs::kQueueOverflow};
  for (const BufferDecl& b : expectation.program.buffers) {
    if (b.access != BufferAccess::ReadWrite) continue;
    if (expectation.expected->contains(b.name)) continue;
    if (std::find(std::begin(read), std::end(read), b.name) != std::end(read)) continue;
    unjudged.push_back(b.name);
  }
  return unjudged;
}

bool same_result(const TestCase& c, const BufferSet& a, const BufferSet& b) {
  if (c.comparison == Comparison::Bytes) return a == b;
  if (c.expected) return !judge_outputs(c, a).difference && !judge_outputs(c, b).difference;
  auto dispatch = bfs_dispatch_of(c);
  if (!dispatch) return false;
  auto canonical_a = archetypes::bfs::canonical_bfs_outputs(a, *dispatch);
  auto canonical_b = archetypes::bfs::canonical_bfs_outputs(b, *dispatch);
  return canonical_a && canonical_b && *canonical_a == *canonical_b;
}

std::optional<FirstDifference> first_difference(const BufferSet& expected,
                                                const BufferSet& observed) {
  for (const auto& [name, want] : expected) {
    auto it = observed.find(name);
    if (it == observed.end()) return FirstDifference{name + " (missing)", 0, 0, 0};
    const ByteBuffer& got = it->second;
    uint64_t words = (std::max(want.size(), got.size()) + 3) / 4;
    for (uint64_t w = 0; w < words; ++w) {
      bool in_both = w * 4 + 4 <= want.size() && w * 4 + 4 <= got.size();
      if (!in_both || word_at(want, w) != word_at(got, w)) {
        if (in_both || want.size() != got.size()) {
          return FirstDifference{name, w, word_at(want, w), word_at(got, w)};
        }
      }
    }
  }
  for (const auto& [name, got] : observed) {
    if (!expected.contains(name)) return FirstDifference{name + " (unexpected)", 0, 0, 0};
  }
  return std::nullopt;
}

std::string describe(const FirstDifference& d) {
  std::string out;
  append(out, "buffer `%s` word %" PRIu64 ": expected 0x%08" PRIx32 ", observed 0x%08" PRIx32,
         d.buffer.c_str(), d.word, d.expected, d.observed);
  return out;
}

std::string listed_differences(const BufferSet& expected, const BufferSet& observed,
                               size_t max_words_per_buffer) {
  std::string out;
  for (const auto& [name, want] : expected) {
    const auto it = observed.find(name);
    if (it == observed.end()) {
      append(out, "  %s: expected an output buffer, but the run produced none of that name\n",
             name.c_str());
      continue;
    }
    const ByteBuffer& got = it->second;
    if (got == want) continue;
    if (got.size() != want.size()) {
      append(out, "  %s: expected %zu bytes, observed %zu bytes\n", name.c_str(), want.size(),
             got.size());
    }
    const std::vector<uint32_t> w = to_words(want);
    const std::vector<uint32_t> g = to_words(got);
    size_t differing = 0;
    for (size_t i = 0; i < std::min(w.size(), g.size()); ++i) {
      if (w[i] == g[i]) continue;
      if (differing++ < max_words_per_buffer) {
        append(out, "  %s[%zu]: expected 0x%08" PRIX32 ", observed 0x%08" PRIX32 "\n", name.c_str(),
               i, w[i], g[i]);
      }
    }
    if (differing > max_words_per_buffer) {
      append(out, "  %s: %zu more differing words not listed\n", name.c_str(),
             differing - max_words_per_buffer);
    }
    if (differing == 0 && got.size() == want.size()) {
      append(out, "  %s: the trailing bytes past the last whole word differ\n", name.c_str());
    }
  }
  for (const auto& [name, bytes] : observed) {
    if (expected.count(name) == 0) {
      append(out, "  %s: the run produced this output but the case expects no such buffer\n",
             name.c_str());
    }
  }
  return out;
}

}  // namespace vyre::certify
