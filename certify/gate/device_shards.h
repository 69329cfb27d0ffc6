// `--device all` or `--device 0,1`: the selection split into one shard per
// device, each certified by a child process `<self> ... --device D --shard
// I/N --out OUT/shard-I`, then joined by `<self> merge --out OUT
// OUT/shard-1 ... OUT/shard-N`. This file decides the devices and builds
// the command lines; device_runs.h runs them.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "spec/support/result.h"

namespace vyre::certify {

/// True when a --device value asks for several devices: "all" or a comma list.
bool names_several_devices(std::string_view device_option);

/// Whether the built-in backend's device `selector` ("0", "1", ...) exists and is usable.
using DeviceUsable = std::function<bool(const std::string& selector)>;

/// Most devices "all" looks for (indices 0 .. kMaxDevices - 1).
inline constexpr size_t kMaxDevices = 64;

/// True when `--device all` on this backend is simply one ordinary run: a
/// backend with one device (reference, a plugin) has nothing to split over.
bool all_is_one_device(std::string_view device_option, bool backend_takes_device);

/// The devices a --device value names, each the --device value of one
/// shard. "all" is every index from 0 up to the first one `usable` rejects;
/// a list is split at commas, and an item may repeat (several shards on one
/// device). Errors: a backend with one device, an empty item, no usable
/// device.
Result<std::vector<std::string>> shard_devices(std::string_view device_option,
                                               std::string_view backend, bool backend_takes_device,
                                               const DeviceUsable& usable);

/// Options of the parent's command line that a shard child does not inherit:
/// the child gets its own --device and --out, and the parent's resolved seed.
inline constexpr std::string_view kParentOnlyOptions[] = {"--device", "--out", "--seed",
                                                          "--seed-policy"};

/// The parent's arguments without kParentOnlyOptions (and their values).
std::vector<std::string> inherited_arguments(std::span<const std::string> args);

/// What every shard child is told besides its inherited arguments.
struct ShardPlan {
  /// The vyre-certify executable.
  std::string self;
  /// inherited_arguments() of the parent's command line.
  std::vector<std::string> inherited;
  /// The seed the parent resolved, and its policy's name: every shard draws
  /// the same cases even when a date-seeded run crosses midnight.
  uint64_t seed = 1;
  std::string seed_policy = "fixed";
  /// The merged report's folder; shard I writes OUT/shard-I.
  std::string out;
  /// The --sign-key that signs the merged report (the shards inherit it); empty: unsigned.
  std::string sign_key;
};

/// Shard `index` (1-based) of `count`'s folder: OUT/shard-INDEX.
std::string shard_dir(const std::string& out, size_t index);

/// The argv of shard `index` (1-based) of `count` on `device`.
std::vector<std::string> shard_command(const ShardPlan& plan, const std::string& device,
                                       size_t index, size_t count);

/// The argv that merges `count` shards into plan.out.
std::vector<std::string> merge_command(const ShardPlan& plan, size_t count);

}  // namespace vyre::certify
