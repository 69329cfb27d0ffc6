#include "spec/ir/encoding.h"

#include <array>
#include <utility>

namespace vyre {
namespace {

constexpr std::array<std::pair<Encoding, std::string_view>, 4> kNames = {{
    {Encoding::AsEmitted, "as-emitted"},
    {Encoding::SpirvOptPerformance, "spirv-opt-O"},
    {Encoding::SpirvOptSize, "spirv-opt-Os"},
    {Encoding::ClOptDisable, "cl-opt-disable"},
}};

}  // namespace

std::string_view name_of(Encoding e) {
  for (const auto& [encoding, name] : kNames) {
    if (encoding == e) return name;
  }
  return "as-emitted";
}

std::optional<Encoding> encoding_named(std::string_view name) {
  for (const auto& [encoding, word] : kNames) {
    if (word == name) return encoding;
  }
  return std::nullopt;
}

std::string_view encoding_names() {
  return "as-emitted, spirv-opt-O, spirv-opt-Os, cl-opt-disable";
}

}  // namespace vyre
