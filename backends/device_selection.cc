// Choosing a listed device by index or name.
#include "backends/device_selection.h"

#include <cctype>
#include <charconv>

namespace vyre {
namespace {

std::string lower_case(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string listing(const std::vector<ListedDevice>& devices) {
  std::string out;
  for (size_t i = 0; i < devices.size(); ++i) {
    out += "\n  " + std::to_string(i) + ": " + devices[i].shown;
  }
  return out;
}

}  // namespace

Result<size_t> selected_device(const std::vector<ListedDevice>& devices, std::string_view selector,
                               std::string_view api) {
  size_t index = 0;
  const auto [end, ec] = std::from_chars(selector.data(), selector.data() + selector.size(), index);
  if (ec == std::errc() && end == selector.data() + selector.size()) {
    if (index < devices.size()) return index;
    return Error{std::string(api) + " device index " + std::string(selector) +
                 " is out of range; devices:" + listing(devices)};
  }
  const std::string wanted = lower_case(selector);
  for (size_t i = 0; i < devices.size(); ++i) {
    if (lower_case(devices[i].name).find(wanted) != std::string::npos) return i;
  }
  return Error{"no " + std::string(api) + " device matches `" + std::string(selector) +
               "`; devices:" + listing(devices)};
}

}  // namespace vyre
