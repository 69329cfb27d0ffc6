// A Backend that forwards every call to another and remembers the first
// compile or dispatch that did not return Ok. A host-driven case (the
// dataflow engine) reports its failures as plain Errors; the watch tells the
// certifier what the backend really said (timeout, device lost, bad output,
// not supported), so those verdicts stay distinct.
#pragma once

#include <optional>
#include <string>

#include "backends/backend.h"

namespace vyre::certify {

/// The first non-Ok answer a backend gave.
struct BackendFailure {
  Status status = Status::Error;
  std::string message;
};

/// Forwards to `inner`, which must outlive it.
class StatusWatch : public Backend {
 public:
  /// Watches `inner`.
  explicit StatusWatch(Backend& inner) : inner_(inner) {}
  std::string name() const override { return inner_.name(); }
  Capabilities probe() override { return inner_.probe(); }
  CompileOutcome compile(const Program& program) override;
  DispatchOutcome dispatch(const CompiledProgram& program, const BufferSet& inputs,
                           const Grid& grid) override;

  /// The first non-Ok compile or dispatch since the last forget().
  const std::optional<BackendFailure>& first_failure() const { return first_failure_; }
  /// Starts watching afresh (one run of a host-driven case).
  void forget() { first_failure_.reset(); }

 private:
  void note(Status status, const std::string& message);

  Backend& inner_;
  std::optional<BackendFailure> first_failure_;
};

}  // namespace vyre::certify
