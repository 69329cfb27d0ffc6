// The dataflow engine's pluggable transfer function (seed 000): given
// (source_id, current_node, target_node, metadata) it returns 0 to block the
// fact from crossing the edge current -> target, or 1 to let it through. It
// comes as an IR expression builder, spliced into the engine's level program,
// and its CPU twin, used by the oracle; the two must agree.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "spec/ir/expr.h"
#include "spec/support/result.h"

namespace vyre::dataflow {

/// The U32 expressions a transfer function's IR may read.
struct TransferArgs {
  /// Node id of the source the fact started from.
  ExprPtr source_id;
  /// Node being expanded.
  ExprPtr current;
  /// Edge target.
  ExprPtr target;
  /// node_metadata[target].
  ExprPtr metadata;
};

/// A transfer function: IR builder and CPU twin.
struct TransferFunction {
  std::string name;
  /// A U32 expression over the args, 0 (block) or 1 (allow). It may not bind
  /// names, read buffers or use atomics: it is spliced as one expression.
  std::function<ExprPtr(const TransferArgs&)> ir;
  /// The same function on the CPU.
  std::function<uint32_t(uint32_t source_id, uint32_t current, uint32_t target, uint32_t metadata)>
      cpu;
};

/// Named u32 parameters of a built-in transfer function.
using TransferParams = std::map<std::string, uint32_t, std::less<>>;

/// Bit of node_metadata that marks a sanitizer (set from TOML sanitizer patterns).
inline constexpr uint32_t kSanitizerMetadataBit = 1;

/// One built-in transfer function.
struct BuiltinTransfer {
  std::string_view name;
  std::string_view doc;
  /// Parameter names it takes, each with its default.
  std::vector<std::pair<std::string_view, uint32_t>> params;
  TransferFunction (*make)(const TransferParams& params);
  /// Whether it blocks sanitizer-marked targets with these parameters.
  bool (*blocks_sanitizers)(const TransferParams& params);
};

/// The built-in transfer functions, in table order.
std::span<const BuiltinTransfer> builtin_transfers();

/// A built-in by name with parameters (missing ones take their defaults).
/// Errors: an unknown name or parameter, listing the valid ones.
Result<TransferFunction> make_transfer(std::string_view name, const TransferParams& params = {});

/// Whether built-in `name` with `params` blocks sanitizer-marked targets;
/// false for unknown names.
bool blocks_sanitizers(std::string_view name, const TransferParams& params);

}  // namespace vyre::dataflow
