#include "reference/exec/schedule_probe.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <span>

#include "reference/exec/batch_state.h"
#include "spec/support/parallel_for.h"

namespace vyre::reference {
namespace {

/// Differing words listed in a violation's message.
constexpr size_t kListedWords = 4;

/// Seeds of the random probes: fixed, so a verdict repeats from run to run.
constexpr uint64_t kProbeSeeds[] = {0x5eed0001, 0x5eed0002, 0x5eed0003, 0x5eed0004,
                                    0x5eed0005, 0x5eed0006, 0x5eed0007, 0x5eed0008};

bool has_atomic(const LaneProgram& compiled) {
  return std::any_of(compiled.access_sites.begin(), compiled.access_sites.end(),
                     [](const AccessSite& s) { return s.kind == AccessKind::Atomic; });
}

bool same_schedule(const Schedule& a, const Schedule& b) {
  return a.kind == b.kind && a.grouping == b.grouping && a.stepping == b.stepping &&
         (a.kind != Schedule::Kind::Random || a.seed == b.seed);
}

uint32_t word_at(const ByteBuffer& bytes, size_t word) {
  uint32_t value = 0;
  const size_t at = word * 4;
  if (at < bytes.size())
    std::memcpy(&value, bytes.data() + at, std::min<size_t>(4, bytes.size() - at));
  return value;
}

std::string hex(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", value);
  return text;
}

/// The violation for outputs that differ between `first` (under `own`) and
/// `probe` (under `other`); nullopt when they agree.
std::optional<Violation> compare(const BufferSet& first, const Schedule& own,
                                 const BufferSet& probe, const Schedule& other) {
  for (const auto& [name, bytes] : first) {
    const auto it = probe.find(name);
    if (it == probe.end() || it->second == bytes) continue;
    const ByteBuffer& theirs = it->second;
    std::vector<size_t> words;
    const size_t count = (std::max(bytes.size(), theirs.size()) + 3) / 4;
    for (size_t w = 0; w < count; ++w) {
      if (word_at(bytes, w) != word_at(theirs, w)) words.push_back(w);
    }
    if (words.empty()) continue;
    Violation v{Violation::Kind::ScheduleDependence, "", name, words.front(), {}, {}, {}};
    v.message = "the outputs depend on the schedule: " + std::to_string(words.size()) + " word" +
                (words.size() == 1 ? "" : "s") + " of `" + name + "` differ between the " +
                describe(own) + " and the " + describe(other) + " schedule (";
    for (size_t i = 0; i < std::min(words.size(), kListedWords); ++i) {
      if (i != 0) v.message += ", ";
      v.message += name + "[" + std::to_string(words[i]) + "] " + hex(word_at(bytes, words[i])) +
                   " vs " + hex(word_at(theirs, words[i]));
    }
    if (words.size() > kListedWords) v.message += ", ...";
    v.message +=
        "): the order in which atomics take effect reaches the outputs (a returned value kept, "
        "or the final value of an exchange or a compare-exchange), so no single run's bytes can "
        "be expected";
    return v;
  }
  return std::nullopt;
}

/// Steps a solo run may need where a lockstep run of the same work spent
/// `lockstep_steps`: a node costs its batch's width W plus kStepsPerNode once
/// in lockstep and 1 plus kStepsPerNode per active lane solo, at most
/// (1 + kStepsPerNode) times as much; so a solo probe that ran out of the
/// first run's budget only for that overhead is not called a difference.
uint64_t solo_step_bound(uint64_t lockstep_steps) {
  constexpr uint64_t kFactor = 1 + kStepsPerNode;
  constexpr uint64_t kMost = std::numeric_limits<uint64_t>::max();
  return lockstep_steps > kMost / kFactor ? kMost : lockstep_steps * kFactor;
}

/// Threads for the probes of a run that spent `first_steps` on `inputs`:
/// one for most runs, whose probes cost less than starting threads;
/// options.probe_threads for a long run of modest memory (each probe holds
/// its own buffers), such as the R-MAT graph cases, whose reference was the
/// critical path of a certification on a 16-core host.
unsigned probe_threads(const BufferSet& inputs, const RunOptions& options, uint64_t first_steps) {
  uint64_t bytes = 0;
  for (const auto& [name, data] : inputs) bytes += data.size();
  const bool worth_threads = first_steps >= kSideBySideProbeSteps && bytes <= kSideBySideProbeBytes;
  return worth_threads ? std::max(options.probe_threads, 1u) : 1;
}

/// One probe under `other`: the violation it shows, or nullopt when its
/// outputs agree with `first`.
std::optional<Violation> probe(const ExecutionPlan& unchecked, const LaneProgram& compiled,
                               const BufferSet& inputs, const RunOptions& options,
                               const BufferSet& first, uint64_t first_steps,
                               const Schedule& other) {
  RunOptions probe = options;
  probe.schedule = other;
  probe.checks = false;
  probe.strict_oob = false;
  if (other.stepping == Schedule::Stepping::Solo) {
    probe.step_budget = std::max(options.step_budget, solo_step_bound(first_steps));
  }
  // Each probe is a run of its own, under the same limit; without the
  // checks it needs no more memory than the first run did.
  MemoryBudget memory(probe.max_memory_bytes);
  const Result<RunResult> ran = execute(unchecked, compiled, inputs, probe, {}, memory);
  if (!ran.ok()) {
    return Violation{Violation::Kind::ScheduleDependence,
                     "the run depends on the schedule: it finishes under the " +
                         describe(options.schedule) + " schedule but not under the " +
                         describe(other) + " one (" + ran.error().message + ")",
                     "",
                     0,
                     {},
                     {},
                     {}};
  }
  if (options.same_result && options.same_result(first, ran->outputs)) return std::nullopt;
  return compare(first, options.schedule, ran->outputs, other);
}

}  // namespace

std::vector<Schedule> probe_schedules(const Schedule& own, uint32_t count, bool out_of_step) {
  using Kind = Schedule::Kind;
  using Grouping = Schedule::Grouping;
  using Stepping = Schedule::Stepping;
  // Workgroups run together (their atomics interleave, as on a GPU) and
  // apart (one ends before the next starts) early in the list: a value read
  // by one atomic and written back by a later one (a compare-exchange
  // without a retry loop) loses an update only when workgroups overlap, and
  // the default runs a barrier's workgroups one at a time.
  std::vector<Schedule> candidates = {{Kind::Canonical, 0, Grouping::Together},
                                      {Kind::Reversed, 0, Grouping::Default},
                                      {Kind::Random, kProbeSeeds[0], Grouping::Apart},
                                      {Kind::Reversed, 0, Grouping::Together},
                                      {Kind::Canonical, 0, Grouping::Default}};
  for (uint64_t seed : std::span(kProbeSeeds).subspan(1)) {
    candidates.push_back({Kind::Random, seed, Grouping::Default});
  }
  std::vector<Schedule> out;
  for (const Schedule& s : candidates) {
    if (out.size() == count) break;
    if (!same_schedule(s, own)) out.push_back(s);
  }
  // Every schedule above steps the lanes of a batch together, so a value one
  // invocation reads and writes back by a later atomic (a compare-exchange
  // without a retry loop) loses another invocation's update of the same
  // workgroup in all of them; one invocation at a time, none is lost.
  if (out_of_step && count > 0) {
    const Schedule solo{Kind::Canonical, 0, Grouping::Default, Stepping::Solo};
    out.push_back(same_schedule(solo, own)
                      ? Schedule{Kind::Reversed, 0, Grouping::Default, Stepping::Solo}
                      : solo);
  }
  return out;
}

std::optional<Violation> probe_schedule_dependence(const ExecutionPlan& plan,
                                                   const LaneProgram& compiled,
                                                   const BufferSet& inputs,
                                                   const RunOptions& options,
                                                   const BufferSet& first, uint64_t first_steps) {
  if (options.schedule_probes == 0 || !has_atomic(compiled)) return std::nullopt;
  ExecutionPlan unchecked = plan;
  unchecked.observer_bytes = 0;
  // Out of step only where a workgroup has two invocations to put out of
  // step: across workgroups the Apart grouping already runs them apart.
  const bool out_of_step = plan.shape.lanes_per_workgroup > 1;
  const std::vector<Schedule> others =
      probe_schedules(options.schedule, options.schedule_probes, out_of_step);

  // Indices are taken in order and a violation stops the taking, so every
  // probe before the first violating one has run: the verdict below is the
  // one a sequential loop gives, however many threads ran them.
  std::vector<std::optional<Violation>> found(others.size());
  parallel_for(others.size(), probe_threads(inputs, options, first_steps), [&](size_t i) {
    found[i] = probe(unchecked, compiled, inputs, options, first, first_steps, others[i]);
    return !found[i].has_value();
  });
  for (std::optional<Violation>& v : found) {
    if (v) return std::move(v);
  }
  return std::nullopt;
}

}  // namespace vyre::reference
