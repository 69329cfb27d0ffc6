// Data races (SEMANTICS S6): two accesses to one element conflict when they
// come from different invocations, at least one writes (an atomic counts as a
// write) and at least one is not atomic. Conflicting accesses race unless both
// are in one workgroup with a barrier between them.
//
// Shadow state, per element and per kind of access (read, write, atomic):
// the latest access (invocation, phase, node) and one earlier access by
// another invocation, chosen as the one least ordered before future accesses
// (another workgroup, else the same barrier phase, else an older phase). A
// phase is one batch between barriers, numbered across the run. This finds a
// race on every element that has one (the argument is in race_detector.cc).
//
// Memory, all of it counted against RunOptions::max_memory_bytes. The latest
// access is a fixed 8-byte slot (invocation, phase) per element, allocated
// zeroed for the kinds a buffer sees; its node needs 4 more bytes per element
// only for a kind that several nodes of the program perform on the buffer
// (otherwise it is that node). These arrays are reserved before the run
// (fixed_bytes()). The earlier access is needed only for elements that two
// invocations touch: SecondRecords keeps those sparse, reserving each growth
// in the run's MemoryBudget, so a run whose records outgrow the limit ends
// with the memory-limit Error. Records of a workgroup buffer from an earlier
// batch are stale (each workgroup has its own memory) and read as empty, so
// nothing is refilled per batch.
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "reference/memory_budget.h"
#include "reference/observers/observer.h"
#include "reference/observers/second_records.h"
#include "reference/observers/violation_log.h"

namespace vyre::reference {

/// Reports data races on ReadWrite and Workgroup buffers.
class RaceDetector final : public Observer {
 public:
  /// A detector for a run of `program` whose accessing nodes are `sites`
  /// (LaneProgram::access_sites; AccessEvent::site indexes them). Records
  /// that grow during the run are reserved in `memory`.
  RaceDetector(const Program& program, const DispatchShape& shape,
               const std::vector<uint64_t>& element_counts, std::span<const AccessSite> sites,
               MemoryBudget& memory);

  /// Bytes of the fixed shadow arrays the run may allocate, to reserve before
  /// it: per element of a watched buffer, 8 for each kind of access its nodes
  /// make, 4 more for each kind made by several nodes, and a reported bit.
  uint64_t fixed_bytes() const;

  bool watches(uint32_t index, const BufferDecl& decl) const override;
  void on_batch_begin(const BatchView& batch) override;
  void on_access(const BatchView& batch, const AccessEvent& event) override;
  void on_barrier(const BatchView& batch, const BarrierEvent& event) override;
  void collect(std::vector<Violation>& out) override;

 private:
  /// The latest access to an element, all-zero when none (so shadow memory
  /// comes zeroed from calloc and untouched pages cost nothing); its node is
  /// in KindShadow.
  struct Latest {
    /// Linear invocation id + 1; 0 when empty.
    uint32_t invocation_plus_one = 0;
    uint32_t phase = 0;
  };
  static_assert(sizeof(Latest) == 8);
  struct FreeDeleter {
    void operator()(void* p) const { std::free(p); }
  };
  /// What is remembered of one kind of access to one buffer.
  struct KindShadow {
    KindShadow(uint64_t elements, MemoryBudget& memory) : other(elements, memory) {}
    /// Distinct nodes of the program making this kind of access to the buffer.
    uint32_t sites = 0;
    /// The node, when there is only one.
    uint32_t only_site = 0;
    /// Latest access per element; null until the buffer sees this kind.
    std::unique_ptr<Latest[], FreeDeleter> latest;
    /// The latest access's node per element, when there are several nodes.
    std::unique_ptr<uint32_t[], FreeDeleter> latest_site;
    /// Per element, an earlier access by another invocation, where there is one.
    SecondRecords other;
  };
  struct BufferShadow {
    BufferShadow(uint64_t n, MemoryBudget& memory)
        : elements(n), kinds{{{n, memory}, {n, memory}, {n, memory}}} {}
    bool watched = false;
    bool workgroup = false;
    uint64_t elements = 0;
    std::array<KindShadow, 3> kinds;
    /// A bit per element already reported, so each racing element is
    /// reported once.
    std::vector<uint64_t> reported;
  };

  /// Whether an access with these fields is a record of this buffer's
  /// current memory (not empty, and for a workgroup buffer made in the
  /// current batch).
  bool present(const BufferShadow& b, uint32_t invocation_plus_one, uint32_t phase) const {
    return invocation_plus_one != 0 && (!b.workgroup || phase >= batch_phase_);
  }
  bool present(const BufferShadow& b, const RaceRecord* a) const {
    return a != nullptr && present(b, a->invocation_plus_one, a->phase);
  }
  /// The latest access of kind `k` to element `index`, node included.
  static RaceRecord latest_of(const KindShadow& k, uint32_t index) {
    const Latest& l = k.latest[index];
    return {l.invocation_plus_one, l.phase, k.latest_site ? k.latest_site[index] : k.only_site};
  }
  /// Makes `now` the latest access of kind `k` to element `index`.
  static void set_latest(KindShadow& k, uint32_t index, const RaceRecord& now) {
    k.latest[index] = Latest{now.invocation_plus_one, now.phase};
    if (k.latest_site) k.latest_site[index] = now.site;
  }
  /// Allocates the fixed arrays of kind `k` (reserved up front); false if
  /// the allocator failed.
  bool allocate(const BufferShadow& b, KindShadow& k);
  /// Whether a barrier orders an access (its invocation and phase) before
  /// one by `invocation` now.
  bool ordered_before_now(uint32_t earlier_invocation, uint32_t earlier_phase,
                          uint32_t invocation) const;
  std::optional<RaceRecord> conflict(const BufferShadow& b, const KindShadow& k, uint32_t index,
                                     uint32_t invocation) const;
  /// Records `now` on element `index`; false when its second record could
  /// not be stored (the run is then over: see SecondRecords).
  bool record(const BufferShadow& b, KindShadow& k, uint32_t index, const RaceRecord& now);
  void report(uint32_t buffer, uint32_t index, AccessKind kind, AccessKind earlier_kind,
              uint32_t invocation, const RaceRecord& earlier, SourceLoc loc);
  /// Starts a new phase (a batch or a barrier).
  void advance_phase();

  const Program& program_;
  DispatchShape shape_;
  std::vector<AccessSite> sites_;
  /// Per buffer of the program (pointers: the shadows hold budget reservations
  /// and do not move).
  std::vector<std::unique_ptr<BufferShadow>> buffers_;
  uint32_t phase_ = 0;
  /// The phase the current batch began in.
  uint32_t batch_phase_ = 0;
  bool out_of_memory_ = false;
  /// A second record was refused memory: the run ends with the memory-limit
  /// Error, so the detector stops recording.
  bool refused_ = false;
  /// The phase counter would wrap: later verdicts could be wrong, so the
  /// detector stops and says so.
  bool out_of_phases_ = false;
  ViolationLog log_{Violation::Kind::DataRace};
};

}  // namespace vyre::reference
