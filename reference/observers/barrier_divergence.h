// Dynamic V010 (SEMANTICS S6): a Barrier must be reached by every invocation
// of the workgroup. When only part of the workgroup arrives (the others took
// another branch, finished, or returned), the barrier is divergent.
#pragma once

#include "reference/observers/observer.h"
#include "reference/observers/violation_log.h"

namespace vyre::reference {

/// Reports barriers reached by only part of a workgroup.
class BarrierDivergenceCheck final : public Observer {
 public:
  explicit BarrierDivergenceCheck(const DispatchShape& shape) : shape_(shape) {}

  bool watches(uint32_t, const BufferDecl&) const override { return false; }
  void on_barrier(const BatchView& batch, const BarrierEvent& event) override;
  void collect(std::vector<Violation>& out) override { log_.append_to(out); }

 private:
  DispatchShape shape_;
  ViolationLog log_{Violation::Kind::DivergentBarrier};
};

}  // namespace vyre::reference
