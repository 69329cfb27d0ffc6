// The geometry of one dispatch: grid, workgroup size and how invocations are
// numbered. Every invocation has a linear id, workgroup-major:
//   linear = workgroup_linear * lanes_per_workgroup + local_linear,
// with x varying fastest in both, so an invocation's workgroup is linear /
// lanes_per_workgroup. Totals are checked to fit in 32 bits before a run.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace vyre::reference {

/// Workgroup size, grid and the numbering of invocations of one run.
struct DispatchShape {
  std::array<uint32_t, 3> workgroup_size = {1, 1, 1};
  std::array<uint32_t, 3> grid = {1, 1, 1};
  uint32_t lanes_per_workgroup = 1;
  uint32_t workgroups = 1;
  uint32_t invocations = 1;

  /// Workgroup (x, y, z) of a linear workgroup index.
  std::array<uint32_t, 3> workgroup_xyz(uint32_t workgroup_linear) const {
    return unflatten(workgroup_linear, grid);
  }
  /// LocalId (x, y, z) of a linear position within a workgroup.
  std::array<uint32_t, 3> local_xyz(uint32_t local_linear) const {
    return unflatten(local_linear, workgroup_size);
  }
  /// InvocationId (x, y, z) of a linear invocation id.
  std::array<uint32_t, 3> invocation_xyz(uint32_t linear) const {
    const std::array<uint32_t, 3> wg = workgroup_xyz(linear / lanes_per_workgroup);
    const std::array<uint32_t, 3> local = local_xyz(linear % lanes_per_workgroup);
    return {wg[0] * workgroup_size[0] + local[0], wg[1] * workgroup_size[1] + local[1],
            wg[2] * workgroup_size[2] + local[2]};
  }
  /// Linear workgroup index of a linear invocation id.
  uint32_t workgroup_of(uint32_t linear) const { return linear / lanes_per_workgroup; }

 private:
  static std::array<uint32_t, 3> unflatten(uint32_t linear, const std::array<uint32_t, 3>& dims) {
    return {linear % dims[0], (linear / dims[0]) % dims[1], linear / dims[0] / dims[1]};
  }
};

/// "(x,y,z)" for messages.
inline std::string xyz_text(const std::array<uint32_t, 3>& v) {
  return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]) + ")";
}

}  // namespace vyre::reference
