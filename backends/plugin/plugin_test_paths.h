// Where the build put the plugins the tests load (set by CMake), and a guard
// that sets VYRE_TEST_PLUGIN_MODE for the misbehaving plugin.
#pragma once

#include <cstdlib>
#include <string>

namespace vyre::plugin::testing {

/// examples/plugin_backend/example_plugin.cc, built.
inline const std::string kExamplePlugin = VYRE_EXAMPLE_PLUGIN_PATH;
/// examples/plugin_backend/misbehaving_plugin.cc, built.
inline const std::string kMisbehavingPlugin = VYRE_MISBEHAVING_PLUGIN_PATH;
/// examples/plugin_backend/no_entry_library.c, built.
inline const std::string kNoEntryLibrary = VYRE_NO_ENTRY_LIBRARY_PATH;

/// Sets the misbehaving plugin's mode for its lifetime.
class PluginMode {
 public:
  explicit PluginMode(const std::string& mode) { set(mode); }
  ~PluginMode() { ::unsetenv("VYRE_TEST_PLUGIN_MODE"); }
  PluginMode(const PluginMode&) = delete;
  PluginMode& operator=(const PluginMode&) = delete;
  /// Changes the mode (an isolated plugin sees it in its next child process).
  void set(const std::string& mode) { ::setenv("VYRE_TEST_PLUGIN_MODE", mode.c_str(), 1); }
};

}  // namespace vyre::plugin::testing
