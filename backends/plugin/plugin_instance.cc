#include "backends/plugin/plugin_instance.h"

#include <cstring>
#include <utility>

#include "backends/plugin/plugin_status.h"
#include "spec/support/utf8.h"

namespace vyre::plugin {
namespace {

// A fixed-size capability string, cut at its last byte if unterminated and
// made valid UTF-8 (it ends up in JSON and XML reports).
std::string text_field(const char (&field)[VYRE_PLUGIN_TEXT_CAPACITY]) {
  return valid_utf8(std::string_view(field, ::strnlen(field, VYRE_PLUGIN_TEXT_CAPACITY - 1)));
}

std::string describe(const PluginLibrary& library) {
  return "plugin '" + library.name() + "' (" + valid_utf8(library.path()) + ")";
}

Error call_failed(const PluginLibrary& library, const char* function, vyre_status code,
                  PluginMessage& message) {
  return Error{describe(library) + ": " + function + "() returned " + std::string(code_name(code)) +
               " (" + std::to_string(code) + "): " + message.text_or("(no message)")};
}

}  // namespace

std::string PluginMessage::text() {
  text_.back() = '\0';
  return valid_utf8(text_.data());
}

std::string PluginMessage::text_or(const std::string& fallback) {
  std::string written = text();
  return written.empty() ? fallback : written;
}

PluginInstance::PluginInstance(std::shared_ptr<const PluginLibrary> library,
                               vyre_plugin_instance* raw)
    : library_(std::move(library)), raw_(raw) {}

PluginInstance::~PluginInstance() {
  std::lock_guard lock(calls_);
  table().destroy(raw_);
}

Result<std::shared_ptr<PluginInstance>> create_plugin_instance(
    std::shared_ptr<const PluginLibrary> library) {
  vyre_plugin_instance* raw = nullptr;
  PluginMessage message;
  vyre_status code = library->table().create(&raw, message.data(), message.capacity());
  if (code != VYRE_STATUS_OK) return call_failed(*library, "create", code, message);
  if (raw == nullptr) {
    return Error{describe(*library) + ": create() returned VYRE_STATUS_OK but no instance"};
  }
  return std::make_shared<PluginInstance>(std::move(library), raw);
}

Result<Capabilities> probe_plugin_instance(const PluginInstance& instance) {
  vyre_capabilities raw;
  std::memset(&raw, 0, sizeof raw);
  PluginMessage message;
  vyre_status code;
  {
    std::lock_guard lock(instance.calls());
    code = instance.table().probe(instance.raw(), &raw, message.data(), message.capacity());
  }
  if (code != VYRE_STATUS_OK) return call_failed(instance.library(), "probe", code, message);
  Capabilities caps;
  caps.device_name = text_field(raw.device_name);
  caps.driver = text_field(raw.driver);
  caps.api = text_field(raw.api);
  caps.max_workgroup_invocations = raw.max_workgroup_invocations;
  for (size_t axis = 0; axis < 3; ++axis) {
    caps.max_workgroup_size[axis] = raw.max_workgroup_size[axis];
    caps.max_workgroup_count[axis] = raw.max_workgroup_count[axis];
  }
  caps.max_storage_buffer_bytes = raw.max_storage_buffer_bytes;
  caps.max_uniform_buffer_bytes = raw.max_uniform_buffer_bytes;
  caps.max_workgroup_memory_bytes = raw.max_workgroup_memory_bytes;
  // ABI version 1 has no field for max_dispatch_invocations (adding one would
  // let a newer plugin write past an older host's struct), so it stays 0: a
  // plugin reports no limit on invocations per dispatch.
  // Left unset (0), it means what plugin_abi.h asks for when unknown (64);
  // passed on, 0 would be a workgroup size the certifier divides by.
  caps.preferred_workgroup_size = raw.preferred_workgroup_size != 0
                                      ? raw.preferred_workgroup_size
                                      : Capabilities{}.preferred_workgroup_size;
  return caps;
}

}  // namespace vyre::plugin
