// What a C-like kernel language cannot write: its workgroup sizes (layout
// qualifiers, reqd_work_group_size) and workgroup array lengths are int
// literals, so a program whose sizes pass the largest int has no kernel.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "spec/ir/program.h"

namespace vyre::clike {

/// The largest int GLSL and OpenCL C can write as a size: a positive int.
inline constexpr uint32_t kMaxKernelInt = 0x7FFFFFFF;

/// Why no kernel can express `program`: a workgroup size on an axis or a
/// workgroup buffer's element count past kMaxKernelInt, in words naming the
/// language (`writer`: "GLSL", "an OpenCL C kernel") and what it would have
/// made (`kernel`: "Vulkan shader", "OpenCL kernel"); nullopt when none is.
std::optional<std::string> beyond_int_limits(const Program& program, std::string_view writer,
                                             std::string_view kernel);

}  // namespace vyre::clike
