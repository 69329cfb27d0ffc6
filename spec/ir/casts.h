// The cast table of pinned spec section 4, as data: which (from, to) pairs are
// valid and which rule rejects the rest. The value semantics of each valid
// cast live in reference/ (cast_semantics).
#pragma once

#include "spec/ir/types.h"

namespace vyre {

/// What the validator says of a cast.
enum class CastVerdict : uint8_t {
  Valid,
  Unsupported,  ///< V012: not in the table.
  ToBytes,      ///< V023: a non-Bytes value cast to Bytes.
};

/// The table's verdict for casting a value of `from` to `to`. Planned types
/// are Unsupported in both directions.
CastVerdict cast_verdict(DataType from, DataType to);

}  // namespace vyre
