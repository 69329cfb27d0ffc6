// The uniformity analysis behind V010: which If and Loop constructs may be
// entered or iterated by only part of a workgroup. See RULES.md, "V010".
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "spec/ir/program.h"
#include "spec/validate/buffer_table.h"
#include "spec/validate/scoped_names.h"

namespace vyre {

/// A value or a control decision is uniform when every invocation of a
/// workgroup that evaluates it gets the same result. Sources: literals,
/// WorkgroupId and BufLen are uniform; InvocationId, LocalId, atomics and
/// loads from ReadWrite or Workgroup buffers are not; a load from a ReadOnly
/// or Uniform buffer is as uniform as its index; a variable is uniform when
/// every value it is given is uniform and given under uniform control. The
/// analysis is flow-insensitive and runs in time linear in the program.
class UniformityAnalysis {
 public:
  /// Analyses `program`; call only once the limit checks pass (it recurses).
  UniformityAnalysis(const Program& program, const BufferTable& buffers);

  /// True when the body of If or Loop `construct` may run for only part of a
  /// workgroup: its condition or bounds, or any enclosing control, is not
  /// uniform.
  bool diverges(const Node& construct) const;

 private:
  /// A value or control decision; `varying` once shown non-uniform, and then
  /// so is every fact in `dependents`.
  struct Fact {
    bool varying = false;
    std::vector<uint32_t> dependents;
  };

  uint32_t new_fact(uint32_t depends_on);
  /// Records that the value of `e` flows into fact `into`.
  void feed(const ExprPtr& e, uint32_t into);
  void walk(const Body& body, uint32_t control);
  void walk_scope(const Body& body, uint32_t control);
  void propagate();

  const BufferTable& buffers_;
  std::vector<Fact> facts_;
  std::unordered_map<const Node*, uint32_t> control_of_;
  ScopedNames<uint32_t> names_;
};

}  // namespace vyre
