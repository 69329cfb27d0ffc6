// Loading a backend from a shared library that implements the plugin C ABI
// (backends/plugin_abi.h, walkthrough in backends/PLUGINS.md).
#pragma once

#include <memory>
#include <string>

#include "backends/backend.h"
#include "spec/support/result.h"

namespace vyre {

/// Opens the plugin at `path` in THIS process (a bare file name means one in
/// the current folder), checks its ABI version and table, creates an instance
/// and probes it once. Errors say what failed: no such file, not a shared
/// library, missing entry symbol, wrong ABI version, create or probe failing.
/// To survive a plugin that crashes or hangs, use isolate_plugin_backend().
Result<std::unique_ptr<Backend>> load_plugin_backend(const std::string& path);

}  // namespace vyre
