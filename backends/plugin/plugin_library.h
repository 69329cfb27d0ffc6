// A plugin shared library, opened and checked: its ABI version, name and
// function table, and the dlopen handle that keeps it loaded.
#pragma once

#include <memory>
#include <string>

#include "backends/plugin_abi.h"
#include "spec/support/result.h"

namespace vyre::plugin {

/// An opened plugin whose table passed every check.
class PluginLibrary {
 public:
  PluginLibrary(std::string path, void* handle, const vyre_plugin_v1* table, std::string name);
  ~PluginLibrary();
  PluginLibrary(const PluginLibrary&) = delete;
  PluginLibrary& operator=(const PluginLibrary&) = delete;

  /// The path it was opened from.
  const std::string& path() const { return path_; }
  /// The plugin's backend name, checked printable.
  const std::string& name() const { return name_; }
  /// The function table; every pointer is non-null.
  const vyre_plugin_v1& table() const { return *table_; }

 private:
  std::string path_;
  void* handle_;
  const vyre_plugin_v1* table_;
  std::string name_;
};

/// Longest backend name a plugin may declare.
inline constexpr size_t kMaxPluginNameLength = 64;

/// Opens the shared library at `path` (a bare file name means one in the
/// current folder, never a library search path), finds vyre_plugin_entry and
/// checks the table it returns. Errors say which of these steps failed.
Result<std::shared_ptr<const PluginLibrary>> open_plugin_library(const std::string& path);

}  // namespace vyre::plugin
