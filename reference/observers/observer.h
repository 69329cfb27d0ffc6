// Checks hooked onto the interpreter (Oclgrind style): the core reports memory
// accesses, out-of-bounds accesses, barriers and batch boundaries; observers
// own every judgement about them (races, divergence, strict out-of-bounds) and
// the core knows nothing about those verdicts. Lifecycle of one run:
//   watches() once per buffer, then per batch of lanes: on_batch_begin,
//   any number of on_access / on_out_of_bounds / on_barrier, on_batch_end;
//   finally collect().
// A batch is one workgroup, or several whole workgroups when the program has
// neither barriers nor workgroup buffers.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "reference/dispatch_shape.h"
#include "reference/interpreter.h"
#include "spec/ir/program.h"

namespace vyre::reference {

/// What an access does to memory; an atomic counts as a write (SEMANTICS S6).
enum class AccessKind : uint8_t { Read, Write, Atomic };

/// "read", "write", "atomic".
std::string_view name_of(AccessKind kind);

/// The lanes of the batch being executed.
struct BatchView {
  /// Linear invocation id of each lane (see DispatchShape).
  std::span<const uint32_t> invocation;
};

/// A node that accesses memory, as the compiler found it: one per distinct
/// buffer, kind and source location (an inlined call's nodes share theirs).
struct AccessSite {
  uint32_t buffer = 0;  ///< Index into Program::buffers.
  AccessKind kind = AccessKind::Read;
  SourceLoc loc;
};

/// In-bounds accesses of one IR node by the active lanes, in the order they
/// happened (the schedule's lane order).
struct AccessEvent {
  uint32_t buffer = 0;  ///< Index into Program::buffers.
  AccessKind kind = AccessKind::Read;
  SourceLoc loc;
  /// The node's index in the run's access sites (LaneProgram::access_sites).
  uint32_t site = 0;
  std::span<const uint32_t> lanes;
  std::span<const uint32_t> indices;  ///< Element index per entry of `lanes`.
};

/// One out-of-bounds access (already counted and masked by the core).
struct OutOfBoundsEvent {
  uint32_t buffer = 0;
  AccessKind kind = AccessKind::Read;
  SourceLoc loc;
  uint32_t lane = 0;
  uint32_t index = 0;
  uint64_t element_count = 0;
};

/// A Barrier node executed by the lanes in `arrived` (0 or ~0 per lane).
struct BarrierEvent {
  SourceLoc loc;
  std::span<const uint32_t> arrived;
  /// Lanes that have not executed Return (0 or ~0 per lane).
  std::span<const uint32_t> alive;
};

/// A check on the interpreter's execution.
class Observer {
 public:
  virtual ~Observer() = default;
  /// Whether on_access should be called for buffer `index` of the program.
  virtual bool watches(uint32_t index, const BufferDecl& decl) const = 0;
  /// A batch of lanes is about to run.
  virtual void on_batch_begin(const BatchView&) {}
  /// In-bounds accesses of one node on a watched buffer.
  virtual void on_access(const BatchView&, const AccessEvent&) {}
  /// An out-of-bounds access on any buffer.
  virtual void on_out_of_bounds(const BatchView&, const OutOfBoundsEvent&) {}
  /// A Barrier node executed by some lanes of a one-workgroup batch.
  virtual void on_barrier(const BatchView&, const BarrierEvent&) {}
  /// The batch finished (every lane returned or ended).
  virtual void on_batch_end(const BatchView&) {}
  /// Appends this observer's violations; called once after the run.
  virtual void collect(std::vector<Violation>& out) = 0;
};

/// Most violations of one kind an observer reports in detail; past it they are
/// counted and summarised in one last violation, so a racy 1M-lane program
/// does not produce a million messages.
inline constexpr size_t kMaxReportedViolations = 64;

}  // namespace vyre::reference
