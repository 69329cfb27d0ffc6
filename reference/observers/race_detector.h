// Data races (SEMANTICS S6): two accesses to one element conflict when they
// come from different invocations, at least one writes (an atomic counts as a
// write) and at least one is not atomic. Conflicting accesses race unless both
// are in one workgroup with a barrier between them.
//
// Shadow state, per element and per kind of access (read, write, atomic):
// the latest access (invocation, phase, node) and one earlier access by
// another invocation, chosen as the one least ordered before future accesses
// (another workgroup, else the same barrier phase, else an older phase). A
// phase is one batch between barriers, numbered across the run. Both records
// are fixed 12-byte slots per element, allocated zeroed for the kinds a buffer
// sees, so the shadow memory is bounded up front (kBytesPerElement). Records
// of a workgroup buffer from an earlier batch are stale (each workgroup has
// its own memory) and read as empty, so nothing is refilled per batch. This
// finds a race on every element that has one (the argument is in
// race_detector.cc).
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "reference/observers/observer.h"
#include "reference/observers/violation_log.h"

namespace vyre::reference {

/// Reports data races on ReadWrite and Workgroup buffers.
class RaceDetector final : public Observer {
 public:
  /// Worst-case shadow bytes per element of a watched buffer, for the memory
  /// limit: two 12-byte records for each of three kinds, and the reported flag.
  static constexpr uint64_t kBytesPerElement = 3 * 2 * 12 + 1;

  RaceDetector(const Program& program, const DispatchShape& shape,
               const std::vector<uint64_t>& element_counts);

  bool watches(uint32_t index, const BufferDecl& decl) const override;
  void on_batch_begin(const BatchView& batch) override;
  void on_access(const BatchView& batch, const AccessEvent& event) override;
  void on_barrier(const BatchView& batch, const BarrierEvent& event) override;
  void collect(std::vector<Violation>& out) override;

 private:
  /// One remembered access; all-zero means none, so shadow memory comes
  /// zeroed from calloc and untouched pages cost nothing.
  struct Access {
    /// Linear invocation id + 1; 0 when empty.
    uint32_t invocation_plus_one = 0;
    uint32_t phase = 0;
    /// Index of the access's node in `nodes_`.
    uint32_t node = 0;
    bool empty() const { return invocation_plus_one == 0; }
    uint32_t invocation() const { return invocation_plus_one - 1; }
  };
  static_assert(sizeof(Access) * 2 * 3 + 1 == kBytesPerElement);
  struct FreeDeleter {
    void operator()(Access* p) const { std::free(p); }
  };
  /// What is remembered of one kind of access to one buffer.
  struct KindShadow {
    /// Latest access per element; null until the buffer sees this kind.
    std::unique_ptr<Access[], FreeDeleter> latest;
    /// Per element, an earlier access by another invocation (or empty).
    std::unique_ptr<Access[], FreeDeleter> other;
  };
  struct BufferShadow {
    bool watched = false;
    bool workgroup = false;
    uint64_t elements = 0;
    std::array<KindShadow, 3> kinds;
    /// Elements already reported, so each racing element is reported once.
    std::vector<uint8_t> reported;
  };

  /// Whether `a` is a record of this buffer's current memory (not empty, and
  /// for a workgroup buffer made in the current batch).
  bool present(const BufferShadow& b, const Access& a) const {
    return !a.empty() && (!b.workgroup || a.phase >= batch_phase_);
  }
  bool ordered_before_now(const Access& earlier, uint32_t invocation) const;
  std::optional<Access> conflict(const BufferShadow& b, const KindShadow& k, uint32_t index,
                                 uint32_t invocation) const;
  void record(const BufferShadow& b, KindShadow& k, uint32_t index, const Access& now);
  void report(uint32_t buffer, uint32_t index, AccessKind kind, AccessKind earlier_kind,
              uint32_t invocation, const Access& earlier, SourceLoc loc);
  /// Starts a new phase (a batch or a barrier).
  void advance_phase();
  /// The index of the node at `loc` in `nodes_`, added on first sight.
  uint32_t node_of(SourceLoc loc);

  const Program& program_;
  DispatchShape shape_;
  std::vector<BufferShadow> buffers_;
  uint32_t phase_ = 0;
  /// The phase the current batch began in.
  uint32_t batch_phase_ = 0;
  /// Source locations of the accessing nodes, and their index by location.
  std::vector<SourceLoc> nodes_;
  std::unordered_map<uint64_t, uint32_t> node_index_;
  /// The node node_of() returned last.
  uint32_t last_node_ = 0;
  bool out_of_memory_ = false;
  /// The phase counter would wrap: later verdicts could be wrong, so the
  /// detector stops and says so.
  bool out_of_phases_ = false;
  ViolationLog log_{Violation::Kind::DataRace};
};

}  // namespace vyre::reference
