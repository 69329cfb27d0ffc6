#include "backends/plugin/plugin_status.h"

#include <array>

namespace vyre::plugin {
namespace {

struct StatusCodeRow {
  vyre_status code;
  Status status;
  std::string_view name;
};

constexpr std::array<StatusCodeRow, 7> kStatusCodes = {{
    {VYRE_STATUS_OK, Status::Ok, "VYRE_STATUS_OK"},
    {VYRE_STATUS_NOT_SUPPORTED, Status::NotSupported, "VYRE_STATUS_NOT_SUPPORTED"},
    {VYRE_STATUS_COMPILE_ERROR, Status::CompileError, "VYRE_STATUS_COMPILE_ERROR"},
    {VYRE_STATUS_DEVICE_LOST, Status::DeviceLost, "VYRE_STATUS_DEVICE_LOST"},
    {VYRE_STATUS_TIMEOUT, Status::Timeout, "VYRE_STATUS_TIMEOUT"},
    {VYRE_STATUS_BAD_OUTPUT, Status::BadOutput, "VYRE_STATUS_BAD_OUTPUT"},
    {VYRE_STATUS_ERROR, Status::Error, "VYRE_STATUS_ERROR"},
}};

// The ABI promises codes equal to the enum's order; a new Status a plugin may
// return must get a row. Status::Crashed is not one: only isolation, which
// watches the plugin's process, reports it.
constexpr bool codes_follow_enum_order() {
  for (size_t i = 0; i < kStatusCodes.size(); ++i) {
    if (kStatusCodes[i].code != static_cast<vyre_status>(i)) return false;
    if (static_cast<size_t>(kStatusCodes[i].status) != i) return false;
  }
  return static_cast<size_t>(Status::Error) + 1 == kStatusCodes.size();
}
static_assert(codes_follow_enum_order(), "plugin_abi.h status codes must mirror vyre::Status");

const StatusCodeRow* row_of(vyre_status code) {
  for (const StatusCodeRow& row : kStatusCodes) {
    if (row.code == code) return &row;
  }
  return nullptr;
}

}  // namespace

std::optional<Status> status_from_code(vyre_status code) {
  const StatusCodeRow* row = row_of(code);
  if (row == nullptr) return std::nullopt;
  return row->status;
}

std::string_view code_name(vyre_status code) {
  const StatusCodeRow* row = row_of(code);
  return row == nullptr ? std::string_view("unknown") : row->name;
}

}  // namespace vyre::plugin
