// Strict out-of-bounds mode (RunOptions::strict_oob, SEMANTICS S5): the core
// always masks and counts out-of-bounds accesses; this observer makes each
// one a violation so programs that lean on masking are visible.
#pragma once

#include "reference/observers/observer.h"
#include "reference/observers/violation_log.h"

namespace vyre::reference {

/// Reports every out-of-bounds access as a violation.
class StrictOutOfBounds final : public Observer {
 public:
  StrictOutOfBounds(const Program& program, const DispatchShape& shape)
      : program_(program), shape_(shape) {}

  bool watches(uint32_t, const BufferDecl&) const override { return false; }
  void on_out_of_bounds(const BatchView& batch, const OutOfBoundsEvent& event) override;
  void collect(std::vector<Violation>& out) override { log_.append_to(out); }

 private:
  const Program& program_;
  DispatchShape shape_;
  ViolationLog log_{Violation::Kind::OutOfBounds};
};

}  // namespace vyre::reference
