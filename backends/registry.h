// The backends this build knows, by name: `make_backend("vulkan", options)`.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "backends/backend.h"
#include "backends/backend_options.h"
#include "spec/support/result.h"

namespace vyre {

/// Names make_backend accepts, in table order ("reference", "vulkan").
std::vector<std::string_view> backend_names();

/// A new backend of that name. Creating one touches no device (compile() must
/// work without one); device problems surface from probe() and dispatch().
/// Errors: an unknown name, with the list of known ones.
Result<std::unique_ptr<Backend>> make_backend(std::string_view name,
                                              const BackendOptions& options = {});

}  // namespace vyre
