// One created instance of a plugin: the handle from create(), destroyed with
// the last owner, and the lock that keeps calls into it from overlapping
// (the ABI promises plugins that much).
#pragma once

#include <array>
#include <memory>
#include <mutex>
#include <string>

#include "backends/backend.h"
#include "backends/plugin/plugin_library.h"
#include "backends/plugin_abi.h"
#include "spec/support/result.h"

namespace vyre::plugin {

/// A zeroed message buffer handed to a plugin call, read back defensively.
class PluginMessage {
 public:
  /// Bytes the plugin may write, NUL included.
  static constexpr size_t kCapacity = 4096;
  char* data() { return text_.data(); }
  size_t capacity() const { return kCapacity; }
  /// What the plugin wrote, cut at the last byte if it left it unterminated,
  /// with bytes that are not UTF-8 replaced by U+FFFD.
  std::string text();
  /// text(), or `fallback` when the plugin wrote nothing.
  std::string text_or(const std::string& fallback);

 private:
  std::array<char, kCapacity> text_{};
};

/// A live plugin instance; destroy() runs when the last owner lets go.
class PluginInstance {
 public:
  PluginInstance(std::shared_ptr<const PluginLibrary> library, vyre_plugin_instance* raw);
  ~PluginInstance();
  PluginInstance(const PluginInstance&) = delete;
  PluginInstance& operator=(const PluginInstance&) = delete;

  /// The library this instance came from.
  const PluginLibrary& library() const { return *library_; }
  /// The function table.
  const vyre_plugin_v1& table() const { return library_->table(); }
  /// The plugin's own instance pointer.
  vyre_plugin_instance* raw() const { return raw_; }
  /// Held around every call into the plugin.
  std::mutex& calls() const { return calls_; }

 private:
  std::shared_ptr<const PluginLibrary> library_;
  vyre_plugin_instance* raw_;
  mutable std::mutex calls_;
};

/// Calls create(); an Error carries the plugin's message.
Result<std::shared_ptr<PluginInstance>> create_plugin_instance(
    std::shared_ptr<const PluginLibrary> library);

/// Calls probe() and converts what it filled in.
Result<Capabilities> probe_plugin_instance(const PluginInstance& instance);

}  // namespace vyre::plugin
