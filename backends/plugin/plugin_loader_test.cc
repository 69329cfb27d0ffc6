// load_plugin_backend: every way a library can fail to be a plugin gets its
// own clear Error.
#include "backends/plugin/plugin_loader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "backends/plugin/plugin_test_paths.h"

namespace vyre {
namespace {

using plugin::testing::kExamplePlugin;
using plugin::testing::kMisbehavingPlugin;
using plugin::testing::kNoEntryLibrary;
using plugin::testing::PluginMode;

std::string load_error(const std::string& path) {
  auto loaded = load_plugin_backend(path);
  return loaded.ok() ? "loaded" : loaded.error().message;
}

TEST(PluginLoader, LoadsTheExamplePlugin) {
  auto loaded = load_plugin_backend(kExamplePlugin);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ((*loaded)->name(), "example-reference");
}

TEST(PluginLoader, MissingFile) {
  EXPECT_EQ(load_error("/nonexistent/libnothing.so"),
            "plugin '/nonexistent/libnothing.so': no such file");
  EXPECT_EQ(load_error(""), "plugin path is empty");
}

TEST(PluginLoader, Directory) {
  EXPECT_EQ(load_error("/tmp"), "plugin '/tmp': is a directory, not a shared library");
}

TEST(PluginLoader, FileThatIsNotASharedLibrary) {
  std::string path = ::testing::TempDir() + "not_a_library.so";
  std::ofstream(path) << std::string(200, 'x') << "\n";
  std::string error = load_error(path);
  EXPECT_EQ(error.rfind("plugin '" + path + "': not a loadable shared library: ", 0), 0u) << error;
  std::filesystem::remove(path);
}

TEST(PluginLoader, LibraryWithoutTheEntrySymbol) {
  EXPECT_EQ(load_error(kNoEntryLibrary),
            "plugin '" + kNoEntryLibrary +
                "': does not export the symbol vyre_plugin_entry (define it extern \"C\" with "
                "VYRE_PLUGIN_EXPORT; see backends/PLUGINS.md)");
}

TEST(PluginLoader, WrongAbiVersion) {
  PluginMode mode("abi_mismatch");
  EXPECT_EQ(load_error(kMisbehavingPlugin),
            "plugin '" + kMisbehavingPlugin +
                "': implements vyre plugin ABI version 99, but this host supports version 1; "
                "rebuild it against this vyre-certify's plugin_abi.h");
}

TEST(PluginLoader, BrokenTables) {
  struct Row {
    const char* mode;
    std::string error;
  };
  const std::string prefix = "plugin '" + kMisbehavingPlugin + "': ";
  const Row rows[] = {
      {"null_table", prefix + "vyre_plugin_entry() returned NULL"},
      {"null_function",
       prefix + "its table leaves the function 'dispatch' NULL; every function must be set"},
      {"bad_name", prefix + "its name has a character that is not printable ASCII (or is a "
                            "quote, backslash or space) at position 3"},
  };
  for (const Row& row : rows) {
    PluginMode mode(row.mode);
    EXPECT_EQ(load_error(kMisbehavingPlugin), row.error) << row.mode;
  }
}

TEST(PluginLoader, CreateAndProbeFailuresCarryThePluginsMessage) {
  const std::string who = "plugin 'misbehaving' (" + kMisbehavingPlugin + "): ";
  {
    PluginMode mode("create_fails");
    EXPECT_EQ(load_error(kMisbehavingPlugin),
              who + "create() returned VYRE_STATUS_ERROR (6): no device for you");
  }
  {
    PluginMode mode("probe_fails");
    EXPECT_EQ(load_error(kMisbehavingPlugin),
              who + "probe() returned VYRE_STATUS_DEVICE_LOST (3): device fell off the bus");
  }
}

// A bare name is a file in the current folder, never a library search path.
TEST(PluginLoader, BareNameMeansTheCurrentFolder) {
  auto previous = std::filesystem::current_path();
  std::filesystem::path plugin(kExamplePlugin);
  std::filesystem::current_path(plugin.parent_path());
  auto loaded = load_plugin_backend(plugin.filename().string());
  std::string system_library = load_error("libc.so.6");
  std::filesystem::current_path(previous);
  EXPECT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(system_library, "plugin 'libc.so.6': no such file");
}

}  // namespace
}  // namespace vyre
