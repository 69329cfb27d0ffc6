// --backend, --device and --timeout-ms: how `vyre-certify` (certify) and
// `vyre-certify run` pick and open a backend, so a repro replays on every
// backend the certification run accepts.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "backends/backend.h"
#include "spec/support/result.h"

namespace vyre::cli {

/// The backend options as given on the command line.
struct BackendChoice {
  /// A built-in backend's name (reference, vulkan) or a plugin's path.
  std::string backend;
  std::optional<std::string> device;
  std::optional<std::chrono::milliseconds> timeout;
  /// --cache-dir: the folder of the on-disk driver cache (default:
  /// default_disk_cache_dir()); --no-cache keeps none.
  std::optional<std::string> cache_dir;
  bool no_cache = false;
};

/// Takes `flag value` when flag is --backend, --device, --timeout-ms or --cache-dir: true
/// when it was one of them. `error` gets a usage problem (a repeated option,
/// a bad number).
bool take_backend_option(const std::string& flag, const std::string& value, BackendChoice& choice,
                         std::optional<std::string>& error);

/// Usage problems of a complete choice: no backend, or --device where the
/// backend cannot use it.
std::optional<std::string> check_backend_choice(const BackendChoice& choice);

/// True when --backend names a plugin file rather than a built-in backend.
bool names_plugin(const std::string& backend);

/// Opens the backend: a built-in one by name, or a plugin loaded in a child
/// process (backends/isolation/isolate.h). An Error when it cannot be loaded;
/// the backend's probe() may still say it is unavailable.
Result<std::unique_ptr<Backend>> open_backend(const BackendChoice& choice);

}  // namespace vyre::cli
