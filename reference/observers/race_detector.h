// Data races (SEMANTICS S6): two accesses to one element conflict when they
// come from different invocations, at least one writes (an atomic counts as a
// write) and at least one is not atomic. Conflicting accesses race unless both
// are in one workgroup with a barrier between them.
//
// Shadow state, per element and per kind of access (read, write, atomic):
// the latest access (invocation, phase) and one earlier access by another
// invocation, chosen as the one least ordered before future accesses (another
// workgroup, else the same barrier phase, else an older phase). A phase is one
// batch between barriers, numbered across the run. The latest access lives
// in an 8-byte slot per element, allocated zeroed for the kinds a buffer sees;
// the earlier one, needed only once two invocations touch an element, in a
// hash map. This finds a race on every element that has one (the argument is
// in race_detector.cc).
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
  /// limit: three kinds of 8-byte slots and the reported flag (the hash maps
  /// hold only elements that several invocations touch).
  static constexpr uint64_t kBytesPerElement = 3 * 8 + 1;

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
    bool empty() const { return invocation_plus_one == 0; }
    uint32_t invocation() const { return invocation_plus_one - 1; }
  };
  struct FreeDeleter {
    void operator()(Access* p) const { std::free(p); }
  };
  /// What is remembered of one kind of access to one buffer.
  struct KindShadow {
    /// Latest access per element; null until the buffer sees this kind.
    std::unique_ptr<Access[], FreeDeleter> latest;
    /// Earlier access by another invocation, by element, where there is one.
    std::unordered_map<uint32_t, Access> other;
  };
  struct BufferShadow {
    bool watched = false;
    bool workgroup = false;
    uint64_t elements = 0;
    std::array<KindShadow, 3> kinds;
    /// Elements already reported, so each racing element is reported once.
    std::vector<uint8_t> reported;
  };

  bool ordered_before_now(const Access& earlier, uint32_t invocation) const;
  std::optional<Access> conflict(const KindShadow& k, uint32_t index, uint32_t invocation) const;
  void record(KindShadow& k, uint32_t index, uint32_t invocation);
  void report(uint32_t buffer, uint32_t index, AccessKind kind, AccessKind earlier_kind,
              uint32_t invocation, const Access& earlier, SourceLoc loc);

  const Program& program_;
  DispatchShape shape_;
  std::vector<BufferShadow> buffers_;
  uint32_t phase_ = 0;
  bool out_of_memory_ = false;
  ViolationLog log_{Violation::Kind::DataRace};
};

}  // namespace vyre::reference
