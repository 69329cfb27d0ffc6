#include "archetypes/dataflow/dataflow_engine.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "archetypes/dataflow/dataflow_programs.h"
#include "backends/level_loop.h"
#include "spec/ir/host_words.h"

namespace vyre::dataflow {

namespace {

/// Largest total of buffer bytes staged for one dispatch on the host.
constexpr uint64_t kMaxStagedBytes = uint64_t{1} << 31;

std::string str(uint64_t v) {
  return std::to_string(v);
}

/// An input past the backend's probed limits.
EngineError rejected(const std::string& problem, const std::string& fix) {
  return {Status::NotSupported, "dataflow input rejected: " + problem + ". Fix: " + fix + "."};
}

uint64_t words_per_source(const DataflowInput& input) {
  return (uint64_t{input.graph.node_count} + 31) / 32;
}

uint64_t groups_for(uint64_t invocations) {
  return std::max<uint64_t>(1, (invocations + kEngineWorkgroupSize - 1) / kEngineWorkgroupSize);
}

/// The grid of the seed dispatch: one invocation per source on x.
std::array<uint64_t, 3> seed_grid(uint64_t sources) {
  return {groups_for(sources), 1, 1};
}

/// The grid of a level dispatch: one invocation per frontier word on x, one
/// row of workgroups per source on y.
std::array<uint64_t, 3> level_grid(uint64_t words, uint64_t sources) {
  return {groups_for(words), std::max<uint64_t>(sources, 1), 1};
}

/// `grid` as a dispatch grid. Every axis fits in u32 once validate_input has
/// bounded sources * node_count to u32.
Grid to_grid(const std::array<uint64_t, 3>& grid) {
  return Grid{{static_cast<uint32_t>(grid[0]), static_cast<uint32_t>(grid[1]),
               static_cast<uint32_t>(grid[2])}};
}

/// Invocations of `grid` workgroups of `workgroup_size`; UINT64_MAX if the
/// product overflows.
uint64_t invocations_of(const std::array<uint32_t, 3>& workgroup_size,
                        const std::array<uint64_t, 3>& grid) {
  uint64_t total = 1;
  for (size_t axis = 0; axis < 3; ++axis) {
    if (__builtin_mul_overflow(total, uint64_t{workgroup_size[axis]}, &total) ||
        __builtin_mul_overflow(total, grid[axis], &total)) {
      return UINT64_MAX;
    }
  }
  return total;
}

template <typename T>
std::string axes(const std::array<T, 3>& a) {
  return str(a[0]) + " x " + str(a[1]) + " x " + str(a[2]);
}

template <typename Outcome>
EngineError dispatch_error(std::string_view what, const Outcome& outcome) {
  return {outcome.status, "dataflow " + std::string(what) +
                              " dispatch failed: " + std::string(name_of(outcome.status)) +
                              (outcome.message.empty() ? std::string() : ": " + outcome.message)};
}

/// Moves the seed dispatch's outputs into the level loop's state: the state
/// buffers carry over, the new frontier becomes the current one, and the next
/// frontier starts from zero.
EngineResult<Ok> carry(BufferSet& state, BufferSet&& outputs) {
  for (std::string_view name : {kVisited, kNextFrontier, kChanged, kFindings, kFindingCount}) {
    auto it = outputs.find(std::string(name));
    auto& slot = state[std::string(name)];
    if (it == outputs.end() || it->second.size() != slot.size()) {
      return EngineError{Status::BadOutput,
                         "dataflow engine: the backend returned buffer " + std::string(name) + " " +
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

/// The levels a loop counts from its changed words: through the first that
/// changed nothing, or all of them. A level after one that changed nothing
/// must change nothing too (its frontier is empty, and the level program
/// writes only where it sets `changed`), so a change reported there, or a
/// loop that stopped early or ran past `levels`, is the backend's defect.
EngineResult<uint32_t> levels_counted(const std::vector<uint32_t>& changed, uint32_t levels,
                                      const std::string& backend) {
  const auto defect = [&](const std::string& what) {
    return EngineError{Status::BadOutput,
                       "dataflow engine: " + backend + " " + what + ", a backend defect"};
  };
  if (changed.size() > levels) {
    return defect("ran " + str(changed.size()) + " levels of at most " + str(levels));
  }
  const auto unchanged = std::find(changed.begin(), changed.end(), 0u);
  if (unchanged == changed.end()) {
    if (changed.size() < levels) {
      return defect("stopped after " + str(changed.size()) + " of " + str(levels) +
                    " levels though every one changed the state");
    }
    return levels;
  }
  const auto later = std::find_if(unchanged, changed.end(), [](uint32_t w) { return w != 0; });
  if (later != changed.end()) {
    return defect("reported a change at level " + str(later - changed.begin()) + " after level " +
                  str(unchanged - changed.begin()) +
                  " changed nothing (a level after an unchanged one must change nothing)");
  }
  return static_cast<uint32_t>(unchanged - changed.begin()) + 1;
}

/// Level dispatches a run makes at most: none without sources, and no BFS
/// level past node_count - 1 adds a node, which bounds the loop even for
/// max_depth = 2^32 - 1 (the changed flag normally ends it much sooner).
uint32_t level_dispatches(const DataflowInput& input) {
  if (input.sources.empty()) return 0;
  return std::min(input.max_depth, input.graph.node_count);
}

/// One kind of dispatch a run makes: which program, its workgroup size, its grid.
struct PlannedDispatch {
  std::string_view program;
  std::array<uint32_t, 3> workgroup_size;
  std::array<uint64_t, 3> grid;
};

/// The dispatches of a run over `sources` sources of `words` bitmap words
/// each: the seed, then (when `levels`) the level program, every level alike.
std::vector<PlannedDispatch> plan(const std::array<uint32_t, 3>& seed_workgroup,
                                  const std::array<uint32_t, 3>& level_workgroup, uint64_t sources,
                                  uint64_t words, bool levels) {
  std::vector<PlannedDispatch> planned = {{"seed", seed_workgroup, seed_grid(sources)}};
  if (levels) planned.push_back({"level", level_workgroup, level_grid(words, sources)});
  return planned;
}

/// Whether every dispatch in `planned` runs at most `limit` invocations.
bool within(const std::vector<PlannedDispatch>& planned, uint64_t limit) {
  return std::all_of(planned.begin(), planned.end(), [&](const PlannedDispatch& d) {
    return invocations_of(d.workgroup_size, d.grid) <= limit;
  });
}

}  // namespace

LevelLoop engine_level_loop(uint32_t levels) {
  LevelLoop loop;
  loop.max_levels = levels;
  loop.changed = kChanged;
  loop.level_buffer = kParams;
  loop.level_word = kLevel;
  loop.current = kFrontier;
  loop.next = kNextFrontier;
  for (std::string_view name : {kVisited, kNextFrontier, kChanged, kFindings, kFindingCount}) {
    loop.outputs.emplace_back(name);
  }
  return loop;
}

EngineResult<DataflowEngine> DataflowEngine::create(Backend& backend, TransferFunction transfer) {
  if (!transfer.ir || !transfer.cpu) {
    return EngineError{Status::Error, "dataflow engine: transfer function '" + transfer.name +
                                          "' lacks its IR builder or CPU twin. Fix: set both."};
  }
  DataflowEngine engine;
  engine.backend_ = &backend;
  engine.limits_ = backend.probe();
  engine.transfer_ = std::move(transfer);
  const Program seed_ir = seed_program();
  const Program level_ir = level_program(engine.transfer_);
  engine.seed_workgroup_ = seed_ir.workgroup_size;
  engine.level_workgroup_ = level_ir.workgroup_size;
  CompileOutcome seed = backend.compile(seed_ir);
  if (seed.status != Status::Ok) {
    return EngineError{seed.status, "dataflow engine: the seed program did not compile on " +
                                        backend.name() + ": " + std::string(name_of(seed.status)) +
                                        ": " + seed.message};
  }
  CompileOutcome level = backend.compile(level_ir);
  if (level.status != Status::Ok) {
    return EngineError{level.status, "dataflow engine: the level program with transfer function '" +
                                         engine.transfer_.name + "' did not compile on " +
                                         backend.name() + ": " +
                                         std::string(name_of(level.status)) + ": " + level.message};
  }
  engine.seed_ = std::move(seed.program);
  engine.level_ = std::move(level.program);
  return engine;
}

EngineResult<Ok> DataflowEngine::check_dispatches(const DataflowInput& input) const {
  const uint64_t sources = input.sources.size();
  const uint64_t words = words_per_source(input);
  const bool levels = level_dispatches(input) != 0;
  const auto planned_for = [&](uint64_t n) {
    return plan(seed_workgroup_, level_workgroup_, n, words, levels);
  };
  const std::string device = backend_->name() + "'s ";
  for (const PlannedDispatch& d : planned_for(sources)) {
    const std::string what = "the " + std::string(d.program) + " dispatch";
    const uint64_t per_workgroup = invocations_of(d.workgroup_size, {1, 1, 1});
    const auto past = [](uint64_t need, uint64_t limit) { return limit != 0 && need > limit; };
    bool too_wide = past(per_workgroup, limits_.max_workgroup_invocations);
    bool too_many = false;
    for (size_t axis = 0; axis < 3; ++axis) {
      too_wide = too_wide || past(d.workgroup_size[axis], limits_.max_workgroup_size[axis]);
      too_many = too_many || past(d.grid[axis], limits_.max_workgroup_count[axis]);
    }
    if (too_wide) {
      return rejected(
          what + " has workgroups of " + axes(d.workgroup_size) + " invocations, past " + device +
              "max_workgroup_size = " + axes(limits_.max_workgroup_size) +
              " or max_workgroup_invocations = " + str(limits_.max_workgroup_invocations),
          "run the engine on a backend that takes workgroups of " + str(per_workgroup) +
              " invocations");
    }
    if (too_many) {
      return rejected(what + " needs a grid of " + axes(d.grid) + " workgroups, past " + device +
                          "max_workgroup_count = " + axes(limits_.max_workgroup_count),
                      "split the sources into smaller runs or use a smaller graph");
    }
    const uint64_t limit = limits_.max_dispatch_invocations;
    const uint64_t invocations = invocations_of(d.workgroup_size, d.grid);
    if (limit != 0 && invocations > limit) {
      // The most sources whose every dispatch fits: fewer sources never need
      // more invocations, so a binary search over [0, sources) finds it.
      uint64_t fits = 0;
      for (uint64_t lo = 1, hi = sources == 0 ? 0 : sources - 1; lo <= hi;) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if (within(planned_for(mid), limit)) {
          fits = mid;
          lo = mid + 1;
        } else {
          hi = mid - 1;
        }
      }
      uint64_t one_source = 0;
      for (const PlannedDispatch& p : planned_for(1)) {
        one_source = std::max(one_source, invocations_of(p.workgroup_size, p.grid));
      }
      return rejected(
          what + " runs " + str(invocations) + " invocations (workgroups of " +
              axes(d.workgroup_size) + " on a grid of " + axes(d.grid) + "), past " + device +
              "max_dispatch_invocations = " + str(limit),
          fits != 0 ? "split the sources into runs of at most " + str(fits) + " sources"
                    : "even one source needs " + str(one_source) +
                          " invocations in one dispatch; use a smaller graph or a backend that "
                          "runs that many");
    }
  }
  return Ok{};
}

EngineResult<Ok> DataflowEngine::check(const DataflowInput& input) const {
  if (auto ok = validate_input(input); !ok) return EngineError{Status::Error, ok.error().message};
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
  if (auto ok = check_dispatches(input); !ok) return ok.error();
  if (limits_.max_uniform_buffer_bytes != 0 &&
      kEngineParamCount * 4 > limits_.max_uniform_buffer_bytes) {
    return rejected("params needs 20 uniform bytes, past " + backend_->name() + "'s limit",
                    "use a backend with larger uniform buffers");
  }
  return Ok{};
}

EngineResult<DataflowResult> DataflowEngine::run(const DataflowInput& input) const {
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
  DispatchOutcome seeded = backend_->dispatch(*seed_, state, to_grid(seed_grid(num_sources)));
  if (seeded.status != Status::Ok) return dispatch_error("seed", seeded);
  if (auto ok = carry(state, std::move(seeded.outputs)); !ok) return ok.error();

  const uint32_t levels = level_dispatches(input);
  if (levels != 0) {
    LevelLoopOutcome stepped = backend_->dispatch_levels(
        *level_, state, to_grid(level_grid(wps, num_sources)), engine_level_loop(levels));
    if (stepped.status != Status::Ok) return dispatch_error("level", stepped);
    auto counted = levels_counted(stepped.changed_words, levels, backend_->name());
    if (!counted) return counted.error();
    result.levels = *counted;
    for (std::string_view name : {kFindings, kFindingCount}) {
      auto it = stepped.state.find(std::string(name));
      const size_t expected = state[std::string(name)].size();
      if (it == stepped.state.end() || it->second.size() != expected) {
        return EngineError{Status::BadOutput, "dataflow engine: " + backend_->name() +
                                                  "'s level loop returned no " + std::string(name) +
                                                  " of " + str(expected) + " bytes"};
      }
      state[std::string(name)] = std::move(it->second);
    }
  }

  const uint32_t count = to_words(state[std::string(kFindingCount)])[0];
  if (count > capacity) {
    return EngineError{Status::BadOutput, "dataflow engine: " + backend_->name() + " counted " +
                                              str(count) + " findings but at most " +
                                              str(capacity) +
                                              " are possible (one per source and sink), a backend "
                                              "defect"};
  }
  result.findings = graph::findings_from_words(to_words(state[std::string(kFindings)]), count);
  graph::sort_canonical(result.findings);
  return result;
}

}  // namespace vyre::dataflow
