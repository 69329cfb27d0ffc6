// Several lowered kernels joined into one OpenCL program, so that one
// clBuildProgram (and one binary in the disk cache) serves many: NVIDIA's
// OpenCL spends most of a small kernel's build on the call itself. Pure text
// work; no device.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vyre::opencl {

/// Most kernels one program is built with.
inline constexpr size_t kMaxKernelsPerProgram = 32;

/// A lowered source split at its kernel: the program-scope text before it
/// (the prelude's helper functions) and the kernel itself, which ends the
/// source.
struct KernelSourceParts {
  std::string_view prelude;
  std::string_view kernel;
};

/// `source` split before its `__kernel` line; nullopt when it has none (it is
/// then built alone, under its own name).
std::optional<KernelSourceParts> split_kernel_source(std::string_view source);

/// The name kernel `index` of a joined program is built under.
std::string joined_kernel_name(size_t index);

/// One program of `sources`, which must all split with the same prelude:
/// the prelude once, then kernel i with `kernel_name` renamed to
/// joined_kernel_name(i) by the preprocessor (every other identifier is
/// local to its kernel).
std::string join_kernel_sources(const std::vector<std::string_view>& sources,
                                std::string_view kernel_name);

}  // namespace vyre::opencl
