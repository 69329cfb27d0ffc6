#include "spec/ir/casts.h"

namespace vyre {

CastVerdict cast_verdict(DataType from, DataType to) {
  if (!is_stable(from) || !is_stable(to)) return CastVerdict::Unsupported;
  if (from == to) return CastVerdict::Valid;
  if (to == DataType::Bytes) return CastVerdict::ToBytes;
  if (from == DataType::Bytes) return CastVerdict::Unsupported;
  // Only widening 8-byte values to Vec4U32 is missing from the table.
  if (to == DataType::Vec4U32 && (from == DataType::U64 || from == DataType::Vec2U32)) {
    return CastVerdict::Unsupported;
  }
  return CastVerdict::Valid;
}

}  // namespace vyre
