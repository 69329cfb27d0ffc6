#include "reference/exec/run_checks.h"

#include <string>

namespace vyre::reference {
namespace {

constexpr uint64_t kMax32 = 0xFFFFFFFFull;

Error run_error(const std::string& problem, const std::string& fix) {
  return Error{"vyre reference: " + problem + ". Fix: " + fix + "."};
}

std::string axes(const std::array<uint32_t, 3>& v) {
  return xyz_text(v);
}

}  // namespace

Result<DispatchShape> check_dispatch(const Program& program, const Grid& grid,
                                     const RunOptions& options) {
  for (uint32_t axis = 0; axis < 3; ++axis) {
    if (grid.workgroups[axis] == 0) {
      return run_error(
          "the grid " + axes(grid.workgroups) + " has 0 workgroups on axis " + std::to_string(axis),
          "dispatch at least 1 workgroup on every axis");
    }
    if (program.workgroup_size[axis] == 0) {
      return run_error("workgroup_size[" + std::to_string(axis) + "] is 0",
                       "all workgroup dimensions must be >= 1");
    }
  }
  const std::optional<uint64_t> lanes3 = axis_product(program.workgroup_size);
  const std::optional<uint64_t> groups3 = axis_product(grid.workgroups);
  const std::optional<uint64_t> total = dispatch_invocations(program.workgroup_size, grid);
  const uint64_t limit = std::min(options.max_invocations, kMax32);
  if (!total || *total > limit) {
    return run_error(
        "the dispatch has " + (total ? std::to_string(*total) : std::string("more than 2^64")) +
            " invocations (workgroup size " + axes(program.workgroup_size) + " x grid " +
            axes(grid.workgroups) + "), more than the limit of " + std::to_string(limit),
        "dispatch fewer or smaller workgroups, or raise RunOptions::max_invocations "
        "(at most 2^32 - 1)");
  }
  DispatchShape shape;
  shape.workgroup_size = program.workgroup_size;
  shape.grid = grid.workgroups;
  shape.lanes_per_workgroup = static_cast<uint32_t>(*lanes3);
  shape.workgroups = static_cast<uint32_t>(*groups3);
  shape.invocations = static_cast<uint32_t>(*total);
  return shape;
}

Result<BufferSizes> check_inputs(const Program& program, const BufferSet& inputs) {
  for (const auto& [name, bytes] : inputs) {
    const BufferDecl* decl = program.buffer(name);
    if (decl == nullptr) {
      return run_error("input `" + name + "` names no buffer of the program",
                       "remove it or declare the buffer");
    }
    if (decl->access == BufferAccess::Workgroup) {
      return run_error("input `" + name + "` is a workgroup buffer, which the host cannot fill",
                       "remove it; workgroup memory starts zeroed in every workgroup");
    }
  }
  for (size_t i = 0; i < program.buffers.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (program.buffers[i].name == program.buffers[j].name) {
        return run_error("two buffers are named `" + program.buffers[i].name + "`",
                         "give every buffer a unique name");
      }
    }
  }
  BufferSizes sizes;
  for (const BufferDecl& decl : program.buffers) {
    const uint64_t element = element_size(decl.element);
    if (element == 0) {
      return run_error("buffer `" + decl.name + "` has element type `" +
                           std::string(name_of(decl.element)) + "`, which has no size",
                       "use a stable element type");
    }
    if (decl.access == BufferAccess::Workgroup) {
      sizes.element_counts.push_back(decl.count);
      sizes.workgroup_bytes += uint64_t{decl.count} * element;
      continue;
    }
    const auto it = inputs.find(decl.name);
    if (it == inputs.end()) {
      return run_error("no input for buffer `" + decl.name + "`",
                       "give every non-workgroup buffer a byte vector (ReadWrite ones included, "
                       "with their initial contents)");
    }
    const uint64_t bytes = it->second.size();
    if (decl.count > 0 && bytes != uint64_t{decl.count} * element) {
      return run_error("buffer `" + decl.name + "` is declared with " + std::to_string(decl.count) +
                           " elements of " + std::to_string(element) + " bytes but its input has " +
                           std::to_string(bytes) + " bytes",
                       "give exactly " + std::to_string(uint64_t{decl.count} * element) +
                           " bytes, or declare count 0");
    }
    if (decl.access == BufferAccess::Uniform && bytes > kMaxUniformBytes) {
      return run_error("uniform buffer `" + decl.name + "` has " + std::to_string(bytes) +
                           " bytes, more than " + std::to_string(kMaxUniformBytes),
                       "use a read_only storage buffer for large data");
    }
    const uint64_t count = host_element_count(decl.element, bytes);
    if (count > kMax32) {
      return run_error(
          "buffer `" + decl.name + "` has " + std::to_string(count) + " elements; indices are u32",
          "split the data over several buffers of fewer than 2^32 elements");
    }
    sizes.element_counts.push_back(count);
    sizes.host_bytes += bytes;
    if (decl.access == BufferAccess::ReadWrite) sizes.output_bytes += bytes;
  }
  return sizes;
}

Result<Ok> check_memory(uint64_t bytes, const RunOptions& options, const std::string& what) {
  if (bytes <= options.max_memory_bytes) return Ok{};
  return run_error("the run needs " + std::to_string(bytes) + " bytes for " + what +
                       ", more than the limit of " + std::to_string(options.max_memory_bytes),
                   "shrink the buffers or workgroups, or raise RunOptions::max_memory_bytes");
}

}  // namespace vyre::reference
