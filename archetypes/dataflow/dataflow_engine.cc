#include "archetypes/dataflow/dataflow_engine.h"

#include <algorithm>
#include <string>

#include "archetypes/dataflow/dataflow_programs.h"
#include "archetypes/support/host_words.h"

namespace vyre::dataflow {

using archetypes::to_bytes;
using archetypes::to_words;
using archetypes::zero_words;

namespace {

/// Largest total of buffer bytes staged for one dispatch on the host.
constexpr uint64_t kMaxStagedBytes = uint64_t{1} << 31;

std::string str(uint64_t v) {
  return std::to_string(v);
}

Error rejected(const std::string& problem, const std::string& fix) {
  return Error{"dataflow input rejected: " + problem + ". Fix: " + fix + "."};
}

uint64_t words_per_source(const DataflowInput& input) {
  return (uint64_t{input.graph.node_count} + 31) / 32;
}

uint64_t groups_for(uint64_t invocations) {
  return std::max<uint64_t>(1, (invocations + kEngineWorkgroupSize - 1) / kEngineWorkgroupSize);
}

Error dispatch_error(std::string_view what, const DispatchOutcome& outcome) {
  return Error{"dataflow " + std::string(what) +
               " dispatch failed: " + std::string(name_of(outcome.status)) +
               (outcome.message.empty() ? std::string() : ": " + outcome.message)};
}

/// Moves one dispatch's outputs into the next dispatch's inputs: the state
/// buffers carry over, the new frontier becomes the current one, and the next
/// frontier and changed flag start from zero.
Result<Ok> carry(BufferSet& state, BufferSet&& outputs) {
  for (std::string_view name : {kVisited, kNextFrontier, kChanged, kFindings, kFindingCount}) {
    auto it = outputs.find(std::string(name));
    auto& slot = state[std::string(name)];
    if (it == outputs.end() || it->second.size() != slot.size()) {
      return Error{"dataflow engine: the backend returned buffer " + std::string(name) + " " +
                   (it == outputs.end() ? std::string("missing")
                                        : "with " + str(it->second.size()) + " bytes") +
                   ", expected " + str(slot.size()) + " bytes"};
    }
  }
  state[std::string(kVisited)] = std::move(outputs[std::string(kVisited)]);
  state[std::string(kFindings)] = std::move(outputs[std::string(kFindings)]);
  state[std::string(kFindingCount)] = std::move(outputs[std::string(kFindingCount)]);
  state[std::string(kChanged)] = std::move(outputs[std::string(kChanged)]);
  auto& next = state[std::string(kNextFrontier)];
  state[std::string(kFrontier)] = std::move(outputs[std::string(kNextFrontier)]);
  next.assign(state[std::string(kFrontier)].size(), 0);
  return Ok{};
}

void set_level(BufferSet& state, uint32_t level) {
  auto params = to_words(state[std::string(kParams)]);
  params[kLevel] = level;
  state[std::string(kParams)] = to_bytes(params);
}

}  // namespace

Result<DataflowEngine> DataflowEngine::create(Backend& backend, TransferFunction transfer) {
  if (!transfer.ir || !transfer.cpu) {
    return Error{"dataflow engine: transfer function '" + transfer.name +
                 "' lacks its IR builder or CPU twin. Fix: set both."};
  }
  DataflowEngine engine;
  engine.backend_ = &backend;
  engine.limits_ = backend.probe();
  engine.transfer_ = std::move(transfer);
  CompileOutcome seed = backend.compile(seed_program());
  if (seed.status != Status::Ok) {
    return Error{"dataflow engine: the seed program did not compile on " + backend.name() + ": " +
                 std::string(name_of(seed.status)) + ": " + seed.message};
  }
  CompileOutcome level = backend.compile(level_program(engine.transfer_));
  if (level.status != Status::Ok) {
    return Error{"dataflow engine: the level program with transfer function '" +
                 engine.transfer_.name + "' did not compile on " + backend.name() + ": " +
                 std::string(name_of(level.status)) + ": " + level.message};
  }
  engine.seed_ = std::move(seed.program);
  engine.level_ = std::move(level.program);
  return engine;
}

Result<Ok> DataflowEngine::check(const DataflowInput& input) const {
  if (auto ok = validate_input(input); !ok) return ok.error();
  const uint64_t sources = input.sources.size();
  const uint64_t bitmap_bytes = sources * words_per_source(input) * 4;
  struct Sized {
    std::string_view name;
    uint64_t bytes;
  };
  const Sized sized[] = {
      {kOffsets, (uint64_t{input.graph.node_count} + 1) * 4},
      {kTargets, uint64_t{input.graph.edge_count()} * 4},
      {kNodeData, uint64_t{input.graph.node_count} * 4},
      {kNodeMetadata, uint64_t{input.graph.node_count} * 4},
      {kSources, sources * 4},
      {kVisited, bitmap_bytes},
      {kFrontier, bitmap_bytes},
      {kNextFrontier, bitmap_bytes},
      {kFindings, finding_capacity(input) * 16},
  };
  uint64_t total = 0;
  for (const Sized& b : sized) {
    total += b.bytes;
    if (limits_.max_storage_buffer_bytes != 0 && b.bytes > limits_.max_storage_buffer_bytes) {
      return rejected(std::string(b.name) + " needs " + str(b.bytes) + " bytes, past " +
                          backend_->name() +
                          "'s max_storage_buffer_bytes = " + str(limits_.max_storage_buffer_bytes),
                      "split the sources into smaller runs or use a smaller graph");
    }
  }
  if (total > kMaxStagedBytes) {
    return rejected("the buffers need " + str(total) + " bytes in all, past the " +
                        str(kMaxStagedBytes) + " bytes staged on the host per dispatch",
                    "split the sources into smaller runs");
  }
  const auto& counts = limits_.max_workgroup_count;
  const uint64_t level_x = groups_for(words_per_source(input));
  const uint64_t seed_x = groups_for(sources);
  if ((counts[0] != 0 && std::max(level_x, seed_x) > counts[0]) ||
      (counts[1] != 0 && std::max<uint64_t>(sources, 1) > counts[1])) {
    return rejected("the grids need " + str(std::max(level_x, seed_x)) + " x " +
                        str(std::max<uint64_t>(sources, 1)) + " workgroups, past " +
                        backend_->name() + "'s max_workgroup_count = " + str(counts[0]) + " x " +
                        str(counts[1]),
                    "split the sources into smaller runs or use a smaller graph");
  }
  if (limits_.max_uniform_buffer_bytes != 0 &&
      kEngineParamCount * 4 > limits_.max_uniform_buffer_bytes) {
    return rejected("params needs 20 uniform bytes, past " + backend_->name() + "'s limit",
                    "use a backend with larger uniform buffers");
  }
  return Ok{};
}

Result<DataflowResult> DataflowEngine::run(const DataflowInput& input) const {
  if (auto ok = check(input); !ok) return ok.error();
  const graph::CsrGraph& g = input.graph;
  const uint32_t num_sources = static_cast<uint32_t>(input.sources.size());
  const uint32_t wps = static_cast<uint32_t>(words_per_source(input));
  const uint32_t capacity = static_cast<uint32_t>(finding_capacity(input));
  const uint64_t bitmap_words = uint64_t{num_sources} * wps;

  BufferSet state;
  state[std::string(kOffsets)] = to_bytes(g.offsets);
  state[std::string(kTargets)] = to_bytes(g.targets);
  state[std::string(kNodeData)] = to_bytes(g.node_data);
  state[std::string(kNodeMetadata)] =
      input.node_metadata.empty() ? zero_words(g.node_count) : to_bytes(input.node_metadata);
  state[std::string(kSources)] = to_bytes(input.sources);
  state[std::string(kVisited)] = zero_words(bitmap_words);
  state[std::string(kFrontier)] = zero_words(bitmap_words);
  state[std::string(kNextFrontier)] = zero_words(bitmap_words);
  state[std::string(kChanged)] = zero_words(1);
  state[std::string(kFindings)] = zero_words(uint64_t{capacity} * 4);
  state[std::string(kFindingCount)] = zero_words(1);
  state[std::string(kParams)] =
      to_bytes(std::vector<uint32_t>{num_sources, g.node_count, wps, 0, capacity});

  DataflowResult result;
  const Grid seed_grid{{static_cast<uint32_t>(groups_for(num_sources)), 1, 1}};
  DispatchOutcome seeded = backend_->dispatch(*seed_, state, seed_grid);
  if (seeded.status != Status::Ok) return dispatch_error("seed", seeded);
  if (auto ok = carry(state, std::move(seeded.outputs)); !ok) return ok.error();

  const Grid level_grid{{static_cast<uint32_t>(groups_for(wps)), std::max(num_sources, 1u), 1}};
  // No BFS level past node_count - 1 adds a node, so this bounds the loop even
  // for max_depth = 2^32 - 1; the changed flag normally ends it much sooner.
  const uint32_t last_level = std::min(input.max_depth, g.node_count);
  for (uint32_t level = 0; level < last_level && num_sources != 0; ++level) {
    set_level(state, level);
    DispatchOutcome stepped = backend_->dispatch(*level_, state, level_grid);
    if (stepped.status != Status::Ok) return dispatch_error("level", stepped);
    ++result.levels;
    if (auto ok = carry(state, std::move(stepped.outputs)); !ok) return ok.error();
    const bool changed = to_words(state[std::string(kChanged)])[0] != 0;
    state[std::string(kChanged)] = zero_words(1);
    if (!changed) break;
  }

  const uint32_t count = to_words(state[std::string(kFindingCount)])[0];
  if (count > capacity) {
    return Error{"dataflow engine: " + backend_->name() + " counted " + str(count) +
                 " findings but at most " + str(capacity) +
                 " are possible (one per source and sink), a backend defect"};
  }
  result.findings = graph::findings_from_words(to_words(state[std::string(kFindings)]), count);
  graph::sort_canonical(result.findings);
  return result;
}

}  // namespace vyre::dataflow
