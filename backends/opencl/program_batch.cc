// Joining lowered kernels into one program.
#include "backends/opencl/program_batch.h"

namespace vyre::opencl {

std::optional<KernelSourceParts> split_kernel_source(std::string_view source) {
  constexpr std::string_view kKernel = "__kernel ";
  size_t at = 0;
  if (!source.starts_with(kKernel)) {
    at = source.find("\n" + std::string(kKernel));
    if (at == std::string_view::npos) return std::nullopt;
    ++at;  // The kernel starts after the newline.
  }
  return KernelSourceParts{source.substr(0, at), source.substr(at)};
}

std::string joined_kernel_name(size_t index) {
  return "vyre_joined_" + std::to_string(index);
}

std::string join_kernel_sources(const std::vector<std::string_view>& sources,
                                std::string_view kernel_name) {
  std::string out;
  for (size_t i = 0; i < sources.size(); ++i) {
    const std::optional<KernelSourceParts> parts = split_kernel_source(sources[i]);
    if (!parts) continue;  // Callers join only sources that split.
    if (i == 0) out += parts->prelude;
    out += "#define " + std::string(kernel_name) + " " + joined_kernel_name(i) + "\n";
    out += parts->kernel;
    if (!out.ends_with('\n')) out += '\n';
    out += "#undef " + std::string(kernel_name) + "\n";
  }
  return out;
}

}  // namespace vyre::opencl
