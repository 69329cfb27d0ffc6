// A plugin backend in its own process: the way vyre-certify runs a
// `--backend ./libmybackend.so`, so a plugin that crashes or hangs fails a
// call, not the certification run.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "backends/backend.h"
#include "backends/isolation/isolate.h"
#include "spec/support/result.h"

namespace vyre {

/// Loads the plugin at `path` inside a child process (load_plugin_backend
/// there) and returns the isolated Backend; an Error when the plugin cannot be
/// loaded, created or probed, or crashes or hangs doing so.
Result<std::unique_ptr<Backend>> isolate_plugin_backend(const std::string& path,
                                                        const IsolationOptions& options = {});

/// Wraps the loaded plugin inside the child process (a fault injector); an
/// Error ends the child's start-up with that message.
using ChildBackendWrapper =
    std::function<Result<std::unique_ptr<Backend>>(std::unique_ptr<Backend>)>;

/// Like isolate_plugin_backend, with `wrap` applied to the plugin in the child.
Result<std::unique_ptr<Backend>> isolate_plugin_backend(const std::string& path,
                                                        const IsolationOptions& options,
                                                        ChildBackendWrapper wrap);

}  // namespace vyre
