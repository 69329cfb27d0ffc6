// The backend table: one row per backend, nothing else lists them.
#include "backends/registry/registry.h"

#include <array>
#include <string>

#include "backends/cuda/cuda_backend.h"
#include "backends/opencl/opencl_backend.h"
#include "backends/reference_backend.h"
#include "backends/vulkan/vulkan_backend.h"

namespace vyre {
namespace {

struct BackendRow {
  std::string_view name;
  std::unique_ptr<Backend> (*make)(const BackendOptions&);
  /// Whether BackendOptions::device picks one of several devices.
  bool takes_device;
};

constexpr std::array<BackendRow, 4> kBackends = {{
    {"reference", make_reference_backend, false},
    {"vulkan", vulkan::make_vulkan_backend, true},
    {"opencl", opencl::make_opencl_backend, true},
    {"cuda", cuda::make_cuda_backend, true},
}};

}  // namespace

std::vector<std::string_view> backend_names() {
  std::vector<std::string_view> names;
  for (const BackendRow& row : kBackends) names.push_back(row.name);
  return names;
}

bool backend_takes_device(std::string_view name) {
  for (const BackendRow& row : kBackends) {
    if (row.name == name) return row.takes_device;
  }
  return false;
}

Result<std::unique_ptr<Backend>> make_backend(std::string_view name,
                                              const BackendOptions& options) {
  for (const BackendRow& row : kBackends) {
    if (row.name == name) return row.make(options);
  }
  std::string known;
  for (const BackendRow& row : kBackends) {
    known += known.empty() ? "" : ", ";
    known += row.name;
  }
  return Error{"unknown backend `" + std::string(name) + "`; known backends: " + known};
}

}  // namespace vyre
