// Runs a certification as one child process per device, in parallel, then
// the merge of their reports (device_shards.h builds the command lines).
#pragma once

#include <string>
#include <vector>

#include "certify/gate/device_shards.h"

namespace vyre::certify {

/// The running vyre-certify's own path (/proc/self/exe), for its children.
std::string self_executable();

/// Starts one shard child per entry of `devices` at once, waits for all of
/// them, then runs the merge; returns the merge's exit status (2 when a
/// child could not be started or ended by a signal).
int run_device_shards(const ShardPlan& plan, const std::vector<std::string>& devices);

}  // namespace vyre::certify
