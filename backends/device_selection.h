// How a user names one of the devices a backend lists (BackendOptions::device):
// by its index in the listing, or by words its name contains, in any case.
// The OpenCL and CUDA backends choose this way; each keeps its own default
// for an empty selector.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "spec/support/result.h"

namespace vyre {

/// One device as a selector sees it.
struct ListedDevice {
  std::string name;   ///< What a selector's words are matched against.
  std::string shown;  ///< The device in an error's listing: "name (driver)".
};

/// The index of the device `selector` (not empty) names among `devices`: the
/// selector as a decimal index, else the first device whose name contains it,
/// case-insensitively. An error names the `api` ("OpenCL", "CUDA") and lists
/// the devices.
Result<size_t> selected_device(const std::vector<ListedDevice>& devices, std::string_view selector,
                               std::string_view api);

}  // namespace vyre
