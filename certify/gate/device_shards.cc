#include "certify/gate/device_shards.h"

#include <algorithm>

namespace vyre::certify {

bool names_several_devices(std::string_view device_option) {
  return device_option == "all" || device_option.find(',') != std::string_view::npos;
}

bool all_is_one_device(std::string_view device_option, bool backend_takes_device) {
  return device_option == "all" && !backend_takes_device;
}

Result<std::vector<std::string>> shard_devices(std::string_view device_option,
                                               std::string_view backend, bool backend_takes_device,
                                               const DeviceUsable& usable) {
  std::vector<std::string> devices;
  if (!backend_takes_device) {
    return Error{"--device " + std::string(device_option) + ": backend `" + std::string(backend) +
                 "` has one device; use --device all, or leave --device out"};
  }
  if (device_option == "all") {
    for (size_t i = 0; i < kMaxDevices; ++i) {
      const std::string selector = std::to_string(i);
      if (!usable(selector)) break;
      devices.push_back(selector);
    }
    if (devices.empty()) {
      return Error{"--device all: backend `" + std::string(backend) +
                   "` has no usable device (device 0 does not probe as usable); run "
                   "`vyre-certify --backend " +
                   std::string(backend) + "` to see why"};
    }
    return devices;
  }
  size_t start = 0;
  while (true) {
    const size_t comma = device_option.find(',', start);
    const std::string_view item = device_option.substr(start, comma - start);
    if (item.empty()) {
      return Error{"--device " + std::string(device_option) +
                   ": an empty item in the list; write indices or names separated by commas "
                   "(0,1)"};
    }
    devices.emplace_back(item);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return devices;
}

std::vector<std::string> inherited_arguments(std::span<const std::string> args) {
  std::vector<std::string> kept;
  for (size_t i = 0; i < args.size(); ++i) {
    const bool parent_only = std::find(std::begin(kParentOnlyOptions), std::end(kParentOnlyOptions),
                                       args[i]) != std::end(kParentOnlyOptions);
    if (parent_only) {
      ++i;  // and its value
      continue;
    }
    kept.push_back(args[i]);
  }
  return kept;
}

std::string shard_dir(const std::string& out, size_t index) {
  return out + "/shard-" + std::to_string(index);
}

std::vector<std::string> shard_command(const ShardPlan& plan, const std::string& device,
                                       size_t index, size_t count) {
  std::vector<std::string> argv = {plan.self};
  argv.insert(argv.end(), plan.inherited.begin(), plan.inherited.end());
  argv.insert(argv.end(),
              {"--device", device, "--seed", std::to_string(plan.seed), "--seed-policy",
               plan.seed_policy, "--shard", std::to_string(index) + "/" + std::to_string(count),
               "--out", shard_dir(plan.out, index)});
  // N children sharing one terminal would garble each other's live lines.
  if (std::find(argv.begin(), argv.end(), "--quiet") == argv.end()) argv.push_back("--quiet");
  return argv;
}

std::vector<std::string> merge_command(const ShardPlan& plan, size_t count) {
  std::vector<std::string> argv = {plan.self, "merge", "--out", plan.out};
  if (!plan.sign_key.empty()) argv.insert(argv.end(), {"--sign-key", plan.sign_key});
  for (size_t i = 1; i <= count; ++i) argv.push_back(shard_dir(plan.out, i));
  return argv;
}

}  // namespace vyre::certify
