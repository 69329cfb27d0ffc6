#include "backends/plugin/isolated_plugin.h"

#include "backends/plugin/plugin_loader.h"

namespace vyre {

Result<std::unique_ptr<Backend>> isolate_plugin_backend(const std::string& path,
                                                        const IsolationOptions& options) {
  return start_isolated([path] { return load_plugin_backend(path); }, options);
}

Result<std::unique_ptr<Backend>> isolate_plugin_backend(const std::string& path,
                                                        const IsolationOptions& options,
                                                        ChildBackendWrapper wrap) {
  return start_isolated(
      [path, wrap = std::move(wrap)]() -> Result<std::unique_ptr<Backend>> {
        auto plugin = load_plugin_backend(path);
        if (!plugin) return plugin.error();
        return wrap(std::move(plugin).value());
      },
      options);
}

}  // namespace vyre
