#include "reference/observers/race_detector.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>

namespace vyre::reference {
namespace {

constexpr size_t kind_index(AccessKind k) {
  return static_cast<size_t>(k);
}

/// Kinds of earlier access an access of kind `k` conflicts with: reads with
/// writes and atomics, writes with everything, atomics with reads and writes.
constexpr std::array<std::array<bool, 3>, 3> kConflicts = {{
    /* Read   */ {false, true, true},
    /* Write  */ {true, true, true},
    /* Atomic */ {true, true, false},
}};

std::string_view verb_of(AccessKind k, bool past) {
  switch (k) {
    case AccessKind::Read:
      return past ? "read" : "reads";
    case AccessKind::Write:
      return past ? "wrote" : "writes";
    case AccessKind::Atomic:
      return past ? "atomically updated" : "atomically updates";
  }
  return "";
}

}  // namespace

RaceDetector::RaceDetector(const Program& program, const DispatchShape& shape,
                           const std::vector<uint64_t>& element_counts,
                           std::span<const AccessSite> sites, MemoryBudget& memory)
    : program_(program), shape_(shape), sites_(sites.begin(), sites.end()) {
  for (size_t i = 0; i < program.buffers.size(); ++i) {
    auto b = std::make_unique<BufferShadow>(element_counts[i], memory);
    const BufferAccess access = program.buffers[i].access;
    // Read-only and uniform buffers are never written, so they cannot race.
    b->watched = access == BufferAccess::ReadWrite || access == BufferAccess::Workgroup;
    b->workgroup = access == BufferAccess::Workgroup;
    buffers_.push_back(std::move(b));
  }
  for (uint32_t s = 0; s < sites_.size(); ++s) {
    KindShadow& k = buffers_[sites_[s].buffer]->kinds[kind_index(sites_[s].kind)];
    if (k.sites++ == 0) k.only_site = s;
  }
}

uint64_t RaceDetector::fixed_bytes() const {
  uint64_t bytes = 0;
  for (const std::unique_ptr<BufferShadow>& b : buffers_) {
    if (!b->watched) continue;
    bool accessed = false;
    for (const KindShadow& k : b->kinds) {
      if (k.sites == 0) continue;
      accessed = true;
      bytes += b->elements * (sizeof(Latest) + (k.sites > 1 ? sizeof(uint32_t) : 0));
    }
    if (accessed) bytes += (b->elements + 63) / 64 * sizeof(uint64_t);
  }
  return bytes;
}

bool RaceDetector::watches(uint32_t index, const BufferDecl&) const {
  return buffers_[index]->watched;
}

void RaceDetector::on_batch_begin(const BatchView&) {
  // Each workgroup has its own workgroup memory: records of earlier batches
  // on workgroup buffers become stale (present() ignores them).
  advance_phase();
  batch_phase_ = phase_;
}

void RaceDetector::on_barrier(const BatchView&, const BarrierEvent&) {
  advance_phase();
}

void RaceDetector::advance_phase() {
  if (phase_ == std::numeric_limits<uint32_t>::max()) {
    out_of_phases_ = true;
    return;
  }
  ++phase_;
}

bool RaceDetector::allocate(const BufferShadow& b, KindShadow& k) {
  k.latest.reset(static_cast<Latest*>(std::calloc(b.elements, sizeof(Latest))));
  if (k.sites > 1) {
    k.latest_site.reset(static_cast<uint32_t*>(std::calloc(b.elements, sizeof(uint32_t))));
  }
  if (k.latest && (k.sites <= 1 || k.latest_site)) return true;
  k.latest.reset();
  k.latest_site.reset();
  out_of_memory_ = true;  // collect() says so; the run stays non-conforming
  return false;
}

bool RaceDetector::ordered_before_now(uint32_t earlier_invocation, uint32_t earlier_phase,
                                      uint32_t invocation) const {
  // Only a barrier orders accesses of different invocations, and only within
  // a workgroup; a barrier since the earlier access means a newer phase now.
  return earlier_phase < phase_ &&
         shape_.workgroup_of(earlier_invocation) == shape_.workgroup_of(invocation);
}

std::optional<RaceRecord> RaceDetector::conflict(const BufferShadow& b, const KindShadow& k,
                                                 uint32_t index, uint32_t invocation) const {
  const Latest& latest = k.latest[index];
  // No earlier access at all (`other` is set only after `latest`).
  if (!present(b, latest.invocation_plus_one, latest.phase)) return std::nullopt;
  const uint32_t latest_invocation = latest.invocation_plus_one - 1;
  if (latest_invocation != invocation &&
      !ordered_before_now(latest_invocation, latest.phase, invocation)) {
    return latest_of(k, index);
  }
  const RaceRecord* other = k.other.find(index);
  if (!present(b, other)) return std::nullopt;
  if (other->invocation() != invocation &&
      !ordered_before_now(other->invocation(), other->phase, invocation)) {
    return *other;
  }
  return std::nullopt;
}

// Why two records suffice. Let q be the access being recorded (invocation i,
// workgroup g, phase P). `latest` becomes q; `other` becomes, among the old
// records whose invocation differs from i, the one ranked highest by: from a
// workgroup other than g (2), from g in phase P (1), from g in an older phase
// (0). Phases grow within a workgroup, and a workgroup runs in one batch, so
// a later access from g is at a phase >= P and one from any other workgroup is
// unordered with everything g did. Suppose a later access (invocation j,
// workgroup w) conflicts with a dropped record d but with neither kept record.
// Either latest.invocation == j, so w == g and `other` (invocation != j) is
// ordered before it: it is from g in an older phase, so by the ranking d was
// too, and is ordered as well. Or `latest` is ordered before it: then w == g,
// and `other` is from g in an older phase than j's, ranked 0 or 1, so d, not
// ranked higher, is from g in a phase <= P, hence ordered too. Either way d
// is not a conflict, a contradiction. Batches of several workgroups have no
// barriers, so their records are never ordered and any other invocation kept
// answers the question.
bool RaceDetector::record(const BufferShadow& b, KindShadow& k, uint32_t index,
                          const RaceRecord& now) {
  const Latest& l = k.latest[index];
  const uint32_t invocation = now.invocation();
  if (!present(b, l.invocation_plus_one, l.phase) ||
      l.invocation_plus_one == now.invocation_plus_one) {
    set_latest(k, index, now);
    return true;
  }
  const uint32_t group = shape_.workgroup_of(invocation);
  auto rank = [&](const RaceRecord* a) {
    if (!present(b, a) || a->invocation() == invocation) return -1;
    if (shape_.workgroup_of(a->invocation()) != group) return 2;
    return a->phase == phase_ ? 1 : 0;
  };
  const RaceRecord latest = latest_of(k, index);
  if (rank(&latest) >= rank(k.other.find(index))) {
    RaceRecord* other = k.other.find_or_add(index);
    if (other == nullptr) {
      // Over the memory limit (the run ends with its Error) or out of memory.
      out_of_memory_ = out_of_memory_ || k.other.out_of_memory();
      refused_ = true;
      return false;
    }
    *other = latest;
  }
  set_latest(k, index, now);
  return true;
}

void RaceDetector::on_access(const BatchView& batch, const AccessEvent& event) {
  if (out_of_phases_ || refused_) return;
  BufferShadow& b = *buffers_[event.buffer];
  const size_t kind = kind_index(event.kind);
  KindShadow& own = b.kinds[kind];
  if (!own.latest && !allocate(b, own)) return;
  // Other kinds this access conflicts with that the buffer has seen so far.
  std::array<const KindShadow*, 2> earlier = {};
  std::array<AccessKind, 2> earlier_kind = {};
  size_t n_earlier = 0;
  for (size_t k = 0; k < 3; ++k) {
    if (k != kind && kConflicts[kind][k] && b.kinds[k].latest) {
      earlier_kind[n_earlier] = static_cast<AccessKind>(k);
      earlier[n_earlier++] = &b.kinds[k];
    }
  }
  const bool conflicts_with_own_kind = kConflicts[kind][kind];
  for (size_t e = 0; e < event.lanes.size(); ++e) {
    const uint32_t invocation = batch.invocation[event.lanes[e]];
    const uint32_t index = event.indices[e];
    bool raced = false;
    for (size_t k = 0; k < n_earlier && !raced; ++k) {
      if (const std::optional<RaceRecord> other = conflict(b, *earlier[k], index, invocation)) {
        report(event.buffer, index, event.kind, earlier_kind[k], invocation, *other, event.loc);
        raced = true;
      }
    }
    const RaceRecord now{invocation + 1, phase_, event.site};
    const Latest& latest = own.latest[index];
    if (!present(b, latest.invocation_plus_one, latest.phase)) {
      // First access of this kind to the element: nothing to compare or rank.
      set_latest(own, index, now);
      continue;
    }
    if (!raced && conflicts_with_own_kind) {
      if (const std::optional<RaceRecord> other = conflict(b, own, index, invocation)) {
        report(event.buffer, index, event.kind, event.kind, invocation, *other, event.loc);
      }
    }
    if (!record(b, own, index, now)) return;
  }
}

void RaceDetector::collect(std::vector<Violation>& out) {
  log_.append_to(out);
  // A run the detector could not follow to the end is never called race-free.
  const auto incomplete = [&out](const char* why) {
    Violation v;
    v.kind = Violation::Kind::DataRace;
    v.message = std::string("race detection is incomplete: ") + why;
    out.push_back(std::move(v));
  };
  if (out_of_memory_) {
    incomplete(
        "its shadow memory could not be allocated, so races may have gone unseen. Fix: run "
        "with less data, or with RunOptions::checks off to skip the check");
  }
  if (out_of_phases_) {
    incomplete(
        "the run has more than 2^32 - 1 workgroups and barrier executions together, past what "
        "the detector numbers, so races may have gone unseen. Fix: dispatch fewer workgroups or "
        "run fewer barriers, or run with RunOptions::checks off");
  }
}

void RaceDetector::report(uint32_t buffer, uint32_t index, AccessKind kind, AccessKind earlier_kind,
                          uint32_t invocation, const RaceRecord& earlier, SourceLoc loc) {
  BufferShadow& b = *buffers_[buffer];
  if (b.reported.empty()) b.reported.resize((b.elements + 63) / 64, 0);
  const uint64_t bit = uint64_t{1} << (index % 64);
  if ((b.reported[index / 64] & bit) != 0) return;
  b.reported[index / 64] |= bit;
  if (!log_.wants_detail()) {
    log_.count();
    return;
  }
  const std::string& name = program_.buffers[buffer].name;
  const uint32_t group = shape_.workgroup_of(invocation);
  const uint32_t earlier_group = shape_.workgroup_of(earlier.invocation());
  Violation v;
  v.kind = Violation::Kind::DataRace;
  v.buffer = name;
  v.index = index;
  v.loc = loc;
  v.earlier_loc = sites_[earlier.site].loc;
  v.invocations = {shape_.invocation_xyz(earlier.invocation()), shape_.invocation_xyz(invocation)};
  const std::string why =
      group == earlier_group
          ? "with no barrier between them in workgroup " + xyz_text(shape_.workgroup_xyz(group))
          : "and they are in different workgroups (" +
                xyz_text(shape_.workgroup_xyz(earlier_group)) + " and " +
                xyz_text(shape_.workgroup_xyz(group)) + "), which cannot synchronise";
  v.message = "data race on `" + name + "`[" + std::to_string(index) + "]: invocation " +
              xyz_text(v.invocations[1]) + " " + std::string(verb_of(kind, false)) + " it at " +
              where_text(loc) + ", invocation " + xyz_text(v.invocations[0]) + " " +
              std::string(verb_of(earlier_kind, true)) + " it at " + where_text(v.earlier_loc) +
              ", " + why +
              "; the result depends on their order. Fix: give each invocation its own elements, "
              "separate the accesses with a barrier (within a workgroup), or make both atomic";
  log_.add(std::move(v));
}

}  // namespace vyre::reference
