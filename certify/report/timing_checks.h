// What `vyre-certify verify` checks of a report's device/host timing split:
// every figure consistent with the others, so that a report edited and
// resealed by hand cannot claim a device floor its own numbers contradict.
#pragma once

#include <nlohmann/json.hpp>

#include "spec/support/result.h"

namespace vyre::certify {

/// Checks a report body (schema-checked, certificate removed): each case's
/// device time at most its backend time; the dispatch split's device and
/// host adding up to the dispatch phase, its measured and unmeasured cases
/// to the cases, measured exactly those with a device time; and the slowest
/// list present exactly with the split, naming the slowest cases in order
/// with their own times. An Error names the first problem by JSON pointer.
Result<Ok> check_timing(const nlohmann::json& body);

}  // namespace vyre::certify
