// The checks every C-like backend's dispatch shares.
#include "backends/clike/dispatch_limits.h"

#include <algorithm>

namespace vyre::clike {
namespace {

constexpr uint64_t kMaxU32 = 0xFFFFFFFF;
constexpr std::string_view kAxes[] = {"x", "y", "z"};

}  // namespace

uint64_t device_buffer_bytes(uint64_t host_bytes) {
  return std::max(kMinBufferBytes, (host_bytes + 3) / 4 * 4);
}

std::string_view axis_name(size_t axis) {
  return axis < 3 ? kAxes[axis] : "?";
}

std::string exceeds(std::string_view what, uint64_t needed, std::string_view limit, uint64_t value,
                    std::string_view device_name) {
  return std::string(what) + " " + std::to_string(needed) + " exceeds " + std::string(limit) +
         " = " + std::to_string(value) + " of " + std::string(device_name);
}

std::optional<std::string> u32_invocations_exceeded(size_t axis, uint32_t workgroups,
                                                    uint32_t workgroup_size) {
  const uint64_t invocations = uint64_t{workgroups} * workgroup_size;
  if (invocations <= kMaxU32) return std::nullopt;
  return "invocations on " + std::string(axis_name(axis)) + " " + std::to_string(invocations) +
         " (" + std::to_string(workgroups) + " workgroups of " + std::to_string(workgroup_size) +
         ") exceeds " + std::to_string(kMaxU32) + ", the most that u32 invocation ids can number";
}

std::optional<std::string> exceeded_axis_limit(const std::array<uint32_t, 3>& workgroup_size,
                                               const Grid& grid,
                                               std::initializer_list<AxisLimit> limits,
                                               std::string_view device_name) {
  for (size_t axis = 0; axis < 3; ++axis) {
    for (const AxisLimit& limit : limits) {
      const uint64_t needed =
          limit.of == AxisLimit::WorkgroupSize ? workgroup_size[axis] : grid.workgroups[axis];
      if (needed > limit.values[axis]) {
        return exceeds(std::string(limit.what) + " on " + std::string(axis_name(axis)), needed,
                       limit.name, limit.values[axis], device_name);
      }
    }
    if (auto ids = u32_invocations_exceeded(axis, grid.workgroups[axis], workgroup_size[axis])) {
      return ids;
    }
  }
  return std::nullopt;
}

std::string loop_budget_message(std::string_view api, uint32_t budget) {
  return "an invocation ran more than " + std::to_string(budget) +
         " loop iterations in all its loops together and was stopped, because the " +
         std::string(api) +
         " backend stops runaway loops before they can hang the device; no output is returned. "
         "If the program is meant to loop that long, give each invocation less work (more "
         "invocations or dispatches, shorter loops); a host embedding the backend can raise "
         "BackendOptions::loop_iteration_budget. What the backend sees is the lowering's flag, "
         "set: a driver that runs the flag's guarded store without its condition sets it "
         "too, with no loop running long (PoCL 3.1, "
         "reports/driver-bugs/pocl-3.1-return-barrier-loop-flag-store); where the reference "
         "runs the program quickly, suspect the driver and replay it (`vyre-certify run`)";
}

}  // namespace vyre::clike
