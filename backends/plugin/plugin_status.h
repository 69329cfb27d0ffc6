// The status codes of the plugin C ABI and the vyre::Status each one means,
// listed once so that the ABI and the enum cannot drift apart unnoticed.
#pragma once

#include <optional>
#include <string_view>

#include "backends/backend.h"
#include "backends/plugin_abi.h"

namespace vyre::plugin {

/// The Status a plugin's code stands for; nullopt for a code outside the ABI.
std::optional<Status> status_from_code(vyre_status code);

/// The code's macro name ("VYRE_STATUS_OK"), or "unknown" for one outside the ABI.
std::string_view code_name(vyre_status code);

}  // namespace vyre::plugin
