#include "backends/plugin/isolated_plugin.h"

#include "backends/plugin/plugin_loader.h"

namespace vyre {

Result<std::unique_ptr<Backend>> isolate_plugin_backend(const std::string& path,
                                                        const IsolationOptions& options) {
  return start_isolated([path] { return load_plugin_backend(path); }, options);
}

}  // namespace vyre
