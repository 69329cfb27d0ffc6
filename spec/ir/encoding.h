// The encodings of one program a backend may hand its driver: legal
// lowerings that must all give the program's bytes (issue 23, item 6). A
// case names the one it runs in, so a failure's repro replays the same
// lowering.
#pragma once

#include <optional>
#include <string_view>

namespace vyre {

/// How a backend encodes a program for its driver.
enum class Encoding : uint8_t {
  /// The backend's lowering as it emits it (every backend).
  AsEmitted,
  /// SPIR-V after SPIRV-Tools' optimizer, `spirv-opt -O` (Vulkan).
  SpirvOptPerformance,
  /// SPIR-V after SPIRV-Tools' optimizer, `spirv-opt -Os` (Vulkan).
  SpirvOptSize,
  /// OpenCL C built with `-cl-opt-disable` (OpenCL).
  ClOptDisable,
};

/// The case file's word for `e`: "as-emitted", "spirv-opt-O", "spirv-opt-Os",
/// "cl-opt-disable".
std::string_view name_of(Encoding e);

/// The encoding named `name` (name_of's words); nullopt for any other.
std::optional<Encoding> encoding_named(std::string_view name);

/// Every encoding's word, comma-separated, for error messages.
std::string_view encoding_names();

}  // namespace vyre
