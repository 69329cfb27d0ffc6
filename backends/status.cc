// Names of the closed Status set, listed once.
#include <array>
#include <utility>

#include "backends/backend.h"

namespace vyre {
namespace {

constexpr std::array<std::pair<Status, std::string_view>, 8> kStatusNames = {{
    {Status::Ok, "ok"},
    {Status::NotSupported, "not supported"},
    {Status::CompileError, "compile error"},
    {Status::DeviceLost, "device lost"},
    {Status::Timeout, "timeout"},
    {Status::BadOutput, "bad output"},
    {Status::Error, "error"},
    {Status::Crashed, "crashed"},
}};

}  // namespace

std::string_view name_of(Status s) {
  for (const auto& [status, name] : kStatusNames) {
    if (status == s) return name;
  }
  return "unknown status";
}

}  // namespace vyre
