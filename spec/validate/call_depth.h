// How deep op calls nest through compositions (V017). Registries are data,
// possibly cyclic or very deep, so this uses explicit stacks and treats a
// cycle as infinitely deep.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "spec/ir/op_registry.h"

namespace vyre {

/// Call depth of ops: 1 for an op whose composition calls nothing, else 1 +
/// the deepest op its composition calls. Arguments do not add depth: they are
/// evaluated before the call, not inside it. Capped at kTooDeep.
class CallDepths {
 public:
  /// One more than the largest depth V017 accepts; cycles get this too.
  static constexpr uint32_t kTooDeep = 33;

  explicit CallDepths(const OpRegistry& ops) : ops_(ops) {}
  /// The depth of `op` (a member of the registry), at most kTooDeep.
  uint32_t of(const OpSpec& op);

 private:
  enum class State : uint8_t { InProgress, Done };
  struct Known {
    State state;
    uint32_t depth;
  };

  /// The registered ops that `op`'s composition calls, each once; unknown
  /// ids are left out (V016 is about the program's own calls).
  std::vector<const OpSpec*> callees(const OpSpec& op) const;

  const OpRegistry& ops_;
  std::unordered_map<const OpSpec*, Known> known_;
};

}  // namespace vyre
