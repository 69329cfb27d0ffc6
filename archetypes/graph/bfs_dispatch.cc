#include "archetypes/graph/bfs_dispatch.h"

#include <algorithm>
#include <set>
#include <string>

#include "archetypes/graph/bfs_layout.h"
#include "reference/graph/node_label.h"
#include "spec/ir/host_words.h"

namespace vyre::archetypes::bfs {
namespace {

using graph::Finding;

/// Largest total of buffer bytes staged for one dispatch on the host.
constexpr uint64_t kMaxStagedBytes = uint64_t{1} << 31;
constexpr uint64_t kIndexSpace = uint64_t{1} << 32;

std::string str(uint64_t v) {
  return std::to_string(v);
}

Error rejected(const std::string& problem, const std::string& fix) {
  return Error{"graph.bfs input rejected: " + problem + ". Fix: " + fix + "."};
}

/// One buffer's size and what to do when it does not fit.
struct Sized {
  std::string_view name;
  uint64_t bytes;
  std::string fix;
};

Result<Ok> check_arithmetic(uint64_t num_sources, uint64_t words_per_source,
                            uint32_t max_findings) {
  if (num_sources * words_per_source > kIndexSpace) {
    return rejected("visited_set would need " + str(num_sources) + " sources x " +
                        str(words_per_source) + " words, past the 2^32 words a u32 index reaches",
                    "run at most " + str(kIndexSpace / words_per_source) + " sources per dispatch");
  }
  if (num_sources * kQueueWordsPerSource > kIndexSpace) {
    return rejected(
        str(num_sources) + " sources need " + str(num_sources) + " x " + str(kQueueWordsPerSource) +
            " queue words, past 2^32",
        "run at most " + str(kIndexSpace / kQueueWordsPerSource) + " sources per dispatch");
  }
  if (uint64_t{max_findings} * 4 > kIndexSpace) {
    return rejected(
        "max_findings = " + str(max_findings) + " needs max_findings x 4 finding words, past 2^32",
        "use max_findings <= " + str(kIndexSpace / 4));
  }
  return Ok{};
}

Result<Ok> check_sizes(const std::vector<Sized>& buffers, const Capabilities* limits,
                       uint64_t num_sources) {
  uint64_t total = 0;
  for (const Sized& b : buffers) {
    total += b.bytes;
    if (limits && limits->max_storage_buffer_bytes != 0 &&
        b.bytes > limits->max_storage_buffer_bytes) {
      return rejected(std::string(b.name) + " needs " + str(b.bytes) +
                          " bytes, past the backend's max_storage_buffer_bytes = " +
                          str(limits->max_storage_buffer_bytes),
                      b.fix);
    }
  }
  if (total > kMaxStagedBytes) {
    return rejected("the buffers need " + str(total) + " bytes in all, past the " +
                        str(kMaxStagedBytes) + " bytes staged on the host for one dispatch",
                    "split the sources into smaller batches or lower max_findings");
  }
  const uint64_t groups =
      std::max<uint64_t>(1, (num_sources + kWorkgroupSize - 1) / kWorkgroupSize);
  if (limits && limits->max_workgroup_count[0] != 0 && groups > limits->max_workgroup_count[0]) {
    return rejected(str(num_sources) + " sources need " + str(groups) +
                        " workgroups, past the backend's max_workgroup_count.x = " +
                        str(limits->max_workgroup_count[0]),
                    "run at most " +
                        str(uint64_t{limits->max_workgroup_count[0]} * kWorkgroupSize) +
                        " sources per dispatch");
  }
  const uint64_t params_bytes = kParamWordCount * 4;
  if (limits && limits->max_uniform_buffer_bytes != 0 &&
      params_bytes > limits->max_uniform_buffer_bytes) {
    return rejected("params needs " + str(params_bytes) + " uniform bytes, past the backend's " +
                        str(limits->max_uniform_buffer_bytes),
                    "use a backend that offers uniform buffers of at least 20 bytes");
  }
  return Ok{};
}

/// Word 0 of a buffer the caller checked holds at least 4 bytes.
uint32_t word_at(const BufferSet& set, std::string_view name) {
  return to_words(set.at(std::string(name)))[0];
}

}  // namespace

Result<BfsDispatch> prepare_bfs(const graph::CsrGraph& graph, std::span<const uint32_t> sources,
                                const BfsParams& params, const Capabilities* limits) {
  if (auto ok = graph.validate(); !ok) return ok.error();
  if (auto ok = graph::validate_labels(graph.node_data); !ok) return ok.error();
  if (sources.size() > UINT32_MAX) {
    return rejected(str(sources.size()) + " sources; num_sources is a u32",
                    "split the sources into batches");
  }
  for (size_t i = 0; i < sources.size(); ++i) {
    if (sources[i] >= graph.node_count) {
      return rejected("source_nodes[" + str(i) + "] = " + str(sources[i]) +
                          " is outside the graph; valid range is [0, " + str(graph.node_count) +
                          ")",
                      "list only existing nodes as sources");
    }
  }
  const uint64_t num_sources = sources.size();
  const uint64_t words_per_source = (uint64_t{graph.node_count} + 31) / 32;
  if (auto ok = check_arithmetic(num_sources, words_per_source, params.max_findings); !ok) {
    return ok.error();
  }
  const auto per_batch = [&](uint64_t bytes_per_source) {
    const uint64_t cap = limits ? limits->max_storage_buffer_bytes : 0;
    return "run at most " + str(bytes_per_source ? cap / bytes_per_source : 0) +
           " sources per dispatch";
  };
  const std::vector<Sized> buffers = {
      {kNodeLabels, uint64_t{graph.node_count} * 4, "the graph is too large for this backend"},
      {kEdgeOffsets, (uint64_t{graph.node_count} + 1) * 4,
       "the graph is too large for this backend"},
      {kEdgeTargets, uint64_t{graph.edge_count()} * 4, "the graph is too large for this backend"},
      {kSourceNodes, num_sources * 4, per_batch(4)},
      {kFindings, uint64_t{params.max_findings} * 16,
       "use max_findings <= " + str(limits ? limits->max_storage_buffer_bytes / 16 : 0)},
      {kVisitedSet, num_sources * words_per_source * 4, per_batch(words_per_source * 4)},
      {kQueue, num_sources * kQueueWordsPerSource * 4, per_batch(kQueueWordsPerSource * 4)},
  };
  if (auto ok = check_sizes(buffers, limits, num_sources); !ok) return ok.error();

  BfsDispatch d;
  d.num_sources = static_cast<uint32_t>(num_sources);
  d.num_nodes = graph.node_count;
  d.words_per_source = static_cast<uint32_t>(words_per_source);
  d.params = params;
  const std::vector<uint32_t> param_words = {d.num_sources, d.num_nodes, params.max_findings,
                                             params.max_depth, d.words_per_source};
  auto& in = d.inputs;
  in[std::string(kNodeLabels)] = to_bytes(graph.node_data);
  in[std::string(kEdgeOffsets)] = to_bytes(graph.offsets);
  in[std::string(kEdgeTargets)] = to_bytes(graph.targets);
  in[std::string(kSourceNodes)] = to_bytes(sources);
  in[std::string(kFindings)] = zero_words(uint64_t{params.max_findings} * 4);
  in[std::string(kFindingCount)] = zero_words(1);
  in[std::string(kParams)] = to_bytes(param_words);
  in[std::string(kVisitedSet)] = zero_words(num_sources * words_per_source);
  in[std::string(kQueue)] = zero_words(num_sources * kQueueWordsPerSource);
  in[std::string(kQueueOverflow)] = zero_words(1);
  d.grid.workgroups = {static_cast<uint32_t>(std::max<uint64_t>(
                           1, (num_sources + kWorkgroupSize - 1) / kWorkgroupSize)),
                       1, 1};
  return d;
}

Result<BfsOutcome> read_bfs_outputs(const BufferSet& outputs, const BfsDispatch& dispatch) {
  const uint64_t findings_bytes = uint64_t{dispatch.params.max_findings} * 16;
  const std::pair<std::string_view, uint64_t> wanted[] = {
      {kFindings, findings_bytes}, {kFindingCount, 4}, {kQueueOverflow, 4}};
  for (const auto& [name, bytes] : wanted) {
    auto it = outputs.find(std::string(name));
    if (it == outputs.end() || it->second.size() < bytes) {
      return Error{"graph.bfs output malformed: buffer " + std::string(name) + " is " +
                   (it == outputs.end() ? std::string("missing")
                                        : "only " + str(it->second.size()) + " bytes") +
                   ", expected " + str(bytes) +
                   " bytes. Fix: the backend must return every "
                   "ReadWrite buffer at its full size."};
    }
  }
  BfsOutcome out;
  out.finding_count = word_at(outputs, kFindingCount);
  out.queue_overflow = word_at(outputs, kQueueOverflow);
  out.truncated = out.finding_count > dispatch.params.max_findings;
  const uint32_t written = std::min(out.finding_count, dispatch.params.max_findings);
  out.findings = graph::findings_from_words(to_words(outputs.at(std::string(kFindings))), written);
  graph::sort_canonical(out.findings);
  return out;
}

Result<BufferSet> canonical_bfs_outputs(const BufferSet& outputs, const BfsDispatch& dispatch) {
  auto outcome = read_bfs_outputs(outputs, dispatch);
  if (!outcome) return outcome.error();
  BufferSet canon;
  canon[std::string(kFindings)] = to_bytes(graph::findings_to_words(outcome->findings));
  canon[std::string(kFindingCount)] = to_bytes(std::vector<uint32_t>{outcome->finding_count});
  canon[std::string(kQueueOverflow)] = to_bytes(std::vector<uint32_t>{outcome->queue_overflow});
  return canon;
}

BufferSet expected_bfs_outputs(std::vector<Finding> expected, uint32_t queue_overflow) {
  graph::sort_canonical(expected);
  BufferSet canon;
  canon[std::string(kFindings)] = to_bytes(graph::findings_to_words(expected));
  canon[std::string(kFindingCount)] =
      to_bytes(std::vector<uint32_t>{static_cast<uint32_t>(expected.size())});
  canon[std::string(kQueueOverflow)] = to_bytes(std::vector<uint32_t>{queue_overflow});
  return canon;
}

std::optional<std::string> compare_bfs_outputs(const BufferSet& expected, const BufferSet& observed,
                                               uint32_t max_findings) {
  for (std::string_view name : {kFindings, kFindingCount, kQueueOverflow}) {
    if (!expected.contains(std::string(name)) || !observed.contains(std::string(name))) {
      return "buffer " + std::string(name) + " is missing from the canonical outputs";
    }
  }
  for (std::string_view name : {kFindingCount, kQueueOverflow}) {
    if (expected.at(std::string(name)).size() != 4 || observed.at(std::string(name)).size() != 4) {
      return "buffer " + std::string(name) + " is not one word in the canonical outputs";
    }
  }
  const uint32_t want_count = word_at(expected, kFindingCount);
  const uint32_t got_count = word_at(observed, kFindingCount);
  if (want_count != got_count) {
    return "finding_count is " + str(got_count) + ", expected " + str(want_count);
  }
  const uint32_t want_overflow = word_at(expected, kQueueOverflow);
  const uint32_t got_overflow = word_at(observed, kQueueOverflow);
  if (want_overflow != got_overflow) {
    return "queue_overflow is " + str(got_overflow) + ", expected " + str(want_overflow);
  }
  const auto full =
      graph::findings_from_words(to_words(expected.at(std::string(kFindings))), UINT32_MAX);
  const auto rows =
      graph::findings_from_words(to_words(observed.at(std::string(kFindings))), UINT32_MAX);
  const size_t want_rows = std::min<size_t>(want_count, max_findings);
  if (rows.size() != want_rows) {
    return str(rows.size()) + " finding rows written, expected " + str(want_rows);
  }
  if (want_count <= max_findings) {
    for (size_t i = 0; i < rows.size(); ++i) {
      if (rows[i] != full[i]) {
        const Finding& g = rows[i];
        const Finding& w = full[i];
        return "finding row " + str(i) + " (canonical order) is (" + str(g.source_node) + ", " +
               str(g.sink_node) + ", " + str(g.depth) + ", " + str(g.source_idx) + "), expected (" +
               str(w.source_node) + ", " + str(w.sink_node) + ", " + str(w.depth) + ", " +
               str(w.source_idx) + ")";
      }
    }
    return std::nullopt;
  }
  // Past max_findings, which rows land is up to the schedule (pinned spec
  // section 7): each must be a distinct member of the full set.
  const std::set<Finding> members(full.begin(), full.end());
  std::set<Finding> seen;
  for (const Finding& f : rows) {
    const std::string row = "(" + str(f.source_node) + ", " + str(f.sink_node) + ", " +
                            str(f.depth) + ", " + str(f.source_idx) + ")";
    if (!members.contains(f)) return "written finding " + row + " is not in the full set";
    if (!seen.insert(f).second) return "finding " + row + " was written twice";
  }
  return std::nullopt;
}

}  // namespace vyre::archetypes::bfs
