// The backends this build knows, by name: `make_backend("vulkan", options)`.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "backends/backend.h"
#include "backends/backend_options.h"
#include "spec/support/result.h"

namespace vyre {

/// Names make_backend accepts, in table order ("reference", "vulkan", "opencl", "cuda").
std::vector<std::string_view> backend_names();

/// True when the built-in backend `name` chooses among devices, so that
/// BackendOptions::device means something to it (vulkan, opencl, cuda); false for one with a
/// single device (reference) and for names that are not in the table.
bool backend_takes_device(std::string_view name);

/// A new backend of that name. Creating one touches no device (compile() must
/// work without one); device problems surface from probe() and dispatch().
/// Errors: an unknown name, with the list of known ones.
Result<std::unique_ptr<Backend>> make_backend(std::string_view name,
                                              const BackendOptions& options = {});

}  // namespace vyre
