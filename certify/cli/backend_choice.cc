#include "certify/cli/backend_choice.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "backends/disk_cache.h"
#include "backends/isolation/isolate.h"
#include "backends/plugin/isolated_plugin.h"
#include "backends/registry/registry.h"

namespace vyre::cli {

bool take_backend_option(const std::string& flag, const std::string& value, BackendChoice& choice,
                         std::optional<std::string>& error) {
  const auto repeated = [&] { error = flag + " given twice; give it once"; };
  if (flag == "--backend") {
    if (!choice.backend.empty()) repeated();
    if (value.empty()) error = "--backend needs a name or a plugin path, not an empty string";
    choice.backend = value;
  } else if (flag == "--device") {
    if (choice.device) repeated();
    if (value.empty()) error = "--device needs an index or a name, not an empty string";
    choice.device = value;
  } else if (flag == "--timeout-ms") {
    if (choice.timeout) repeated();
    uint32_t ms = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), ms);
    if (ec != std::errc() || end != value.data() + value.size() || ms == 0) {
      error = "--timeout-ms takes a positive number of milliseconds";
    }
    choice.timeout = std::chrono::milliseconds(ms);
  } else if (flag == "--inject-faults") {
    if (choice.faults) repeated();
    auto plan = parse_fault_plan(value);
    auto calls = FaultCallCounter::make();
    if (!plan) {
      error = plan.error().message;
    } else if (!calls) {
      error = calls.error().message;
    } else {
      choice.faults = std::move(plan).value();
      choice.fault_calls = std::move(calls).value();
    }
  } else if (flag == "--cache-dir") {
    if (choice.cache_dir) repeated();
    if (value.empty()) error = "--cache-dir needs a folder, not an empty string";
    choice.cache_dir = value;
  } else {
    return false;
  }
  return true;
}

std::string built_in_backend_list(std::string_view except) {
  std::string list;
  for (std::string_view name : backend_names()) {
    if (name == except) continue;
    list += (list.empty() ? "" : ", ") + std::string(name);
  }
  return list;
}

bool take_backend_switch(const std::string& flag, BackendChoice& choice,
                         std::optional<std::string>& error) {
  bool* set = flag == kInProcessFlag ? &choice.in_process
              : flag == kNoCacheFlag ? &choice.no_cache
                                     : nullptr;
  if (set == nullptr) return false;
  if (*set) error = flag + " given twice; give it once";
  *set = true;
  return true;
}

bool take_backend_arg(std::span<const std::string> args, size_t& i, BackendChoice& choice,
                      std::optional<std::string>& error) {
  const std::string& a = args[i];
  if (a == "--backend" || a == "--device" || a == "--timeout-ms" || a == "--cache-dir") {
    if (i + 1 >= args.size()) {
      error = a + " needs a value";
    } else {
      take_backend_option(a, args[++i], choice, error);
    }
    return true;
  }
  return take_backend_switch(a, choice, error);
}

std::optional<std::string> check_backend_choice(const BackendChoice& choice) {
  if (choice.backend.empty()) return "--backend is required";
  if (choice.no_cache && choice.cache_dir) {
    return "--cache-dir and " + std::string(kNoCacheFlag) + " contradict each other; give one";
  }
  if (choice.faults && choice.faults->crashes() && !names_plugin(choice.backend) &&
      (choice.in_process || !backend_takes_device(choice.backend))) {
    return "--inject-faults: a `crash` fault needs a backend in a child process (a plugin, or "
           "vulkan or opencl without --in-process); `" +
           choice.backend + "` runs in the certifier's own process";
  }
  if (choice.in_process &&
      (names_plugin(choice.backend) || !backend_takes_device(choice.backend))) {
    return std::string(kInProcessFlag) +
           " applies to the built-in device backends (vulkan, opencl) only: a plugin always "
           "runs in a child process, and `reference` always in this one";
  }
  if (!choice.device) return std::nullopt;
  if (names_plugin(choice.backend)) {
    return "--device does not apply to a plugin backend (the plugin ABI's create() takes no "
           "device; a plugin picks its own)";
  }
  // An unknown name is left to open_backend, whose error lists the known ones.
  const std::vector<std::string_view> known = backend_names();
  if (std::find(known.begin(), known.end(), choice.backend) != known.end() &&
      !backend_takes_device(choice.backend)) {
    return "--device does not apply to backend `" + choice.backend + "`, which has one device";
  }
  return std::nullopt;
}

bool names_plugin(const std::string& backend) {
  return backend.find('/') != std::string::npos || backend.ends_with(".so");
}

bool runs_in_child_process(const BackendChoice& choice) {
  return names_plugin(choice.backend) ||
         (!choice.in_process && backend_takes_device(choice.backend));
}

Result<std::unique_ptr<Backend>> open_backend(const BackendChoice& choice) {
  if (!names_plugin(choice.backend)) {
    BackendOptions options;
    if (choice.device) options.device = *choice.device;
    if (choice.timeout) options.fence_timeout = *choice.timeout;
    if (!choice.no_cache) options.cache_dir = choice.cache_dir.value_or(default_disk_cache_dir());
    auto builtin = make_backend(choice.backend, options);
    if (!builtin) {
      return Error{builtin.error().message + "; or give a plugin's path (./libmybackend.so)"};
    }
    if (!runs_in_child_process(choice)) {
      if (!choice.faults) return builtin;
      return inject_faults(std::move(builtin).value(),
                           {*choice.faults, choice.fault_calls, false, options.fence_timeout});
    }
    // A driver is code the suite does not trust to stay up either: the
    // backend is made again in a child (this one only checked the name),
    // faults injected there, and its compiles and calls are bounded by the
    // same limit as a submission.
    IsolationOptions isolation;
    isolation.call_timeout = options.fence_timeout;
    std::string shortfall;
    auto isolated = start_isolated_spread(
        [name = choice.backend, options, faults = choice.faults,
         calls = choice.fault_calls]() -> Result<std::unique_ptr<Backend>> {
          auto made = make_backend(name, options);
          if (!made || !faults) return made;
          return inject_faults(std::move(made).value(),
                               {*faults, calls, true, options.fence_timeout});
        },
        isolation, choice.max_processes, &shortfall);
    // Fewer processes only make the run slower, so it goes on; the user
    // learns why it is slower than it should be.
    if (isolated && !shortfall.empty()) {
      std::fprintf(stderr, "vyre-certify: warning: `%s`: %s\n", choice.backend.c_str(),
                   shortfall.c_str());
    }
    if (!isolated) {
      return Error{"cannot start the `" + choice.backend +
                   "` backend in its child process: " + isolated.error().message + " (" +
                   std::string(kInProcessFlag) + " runs it in this process)"};
    }
    return isolated;
  }
  // A plugin is code the suite does not trust to stay up: it runs in a child.
  IsolationOptions isolation;
  if (choice.timeout) isolation.call_timeout = *choice.timeout;
  auto plugin =
      choice.faults
          ? isolate_plugin_backend(choice.backend, isolation,
                                   [faults = *choice.faults,
                                    calls = choice.fault_calls](std::unique_ptr<Backend> loaded) {
                                     return inject_faults(std::move(loaded), {faults, calls, true});
                                   })
          : isolate_plugin_backend(choice.backend, isolation);
  if (!plugin) {
    return Error{"cannot load the plugin backend `" + choice.backend +
                 "`: " + plugin.error().message};
  }
  return plugin;
}

Result<UsableBackend> open_usable_backend(const BackendChoice& choice) {
  auto opened = open_backend(choice);
  if (!opened) return opened.error();
  // The probe may start the device (vulkan creates its instance there); the
  // caller keeps this answer for the whole run.
  Capabilities device = (*opened)->probe();
  if (!device.unavailable.empty()) {
    return Error{"backend `" + choice.backend + "` is not usable: " + device.unavailable};
  }
  return UsableBackend{std::move(opened).value(), std::move(device)};
}

}  // namespace vyre::cli
