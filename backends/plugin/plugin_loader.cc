#include "backends/plugin/plugin_loader.h"

#include <utility>

#include "backends/plugin/plugin_backend.h"
#include "backends/plugin/plugin_instance.h"
#include "backends/plugin/plugin_library.h"

namespace vyre {

Result<std::unique_ptr<Backend>> load_plugin_backend(const std::string& path) {
  auto library = plugin::open_plugin_library(path);
  if (!library) return library.error();
  auto instance = plugin::create_plugin_instance(std::move(library.value()));
  if (!instance) return instance.error();
  auto capabilities = plugin::probe_plugin_instance(*instance.value());
  if (!capabilities) return capabilities.error();
  return std::unique_ptr<Backend>(std::make_unique<plugin::PluginBackend>(
      std::move(instance.value()), std::move(capabilities.value())));
}

}  // namespace vyre
