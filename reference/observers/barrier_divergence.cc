#include "reference/observers/barrier_divergence.h"

#include <string>

namespace vyre::reference {

void BarrierDivergenceCheck::on_barrier(const BatchView& batch, const BarrierEvent& event) {
  uint32_t arrived = 0;
  uint32_t missing_lane = 0;
  bool missing = false;
  for (uint32_t l = 0; l < event.arrived.size(); ++l) {
    if (event.arrived[l] != 0) {
      ++arrived;
    } else if (!missing) {
      missing = true;
      missing_lane = l;
    }
  }
  if (!missing) return;
  if (!log_.wants_detail()) {
    log_.count();
    return;
  }
  const uint32_t invocation = batch.invocation[missing_lane];
  const bool returned = event.alive[missing_lane] == 0;
  Violation v;
  v.kind = Violation::Kind::DivergentBarrier;
  v.loc = event.loc;
  v.invocations.push_back(shape_.invocation_xyz(invocation));
  v.message = "divergent barrier (dynamic V010) at " + where_text(event.loc) + ": in workgroup " +
              xyz_text(shape_.workgroup_xyz(shape_.workgroup_of(invocation))) + " only " +
              std::to_string(arrived) + " of " + std::to_string(event.arrived.size()) +
              " invocations reached it; invocation " + xyz_text(v.invocations.front()) +
              " did not arrive (" +
              (returned ? "it had returned" : "it was in another branch or had finished") +
              "). Every invocation of a workgroup must reach the same barrier. Fix: move the "
              "barrier to uniform control flow";
  log_.add(std::move(v));
}

}  // namespace vyre::reference
