// Literals as the program text writes them (pinned spec section 2): i32
// literals of both signs and the extremes, u32 literals with the top bit set.
// The operator and cast tables load their operands from buffers, so without
// these rows no case would see how a backend spells a constant.
#include <cstdint>

#include "reference/spec_tables/case_builder.h"
#include "reference/spec_tables/table_parts.h"

namespace vyre::reference {
namespace {

using namespace vyre::build;
using spec_tables::make_case;

/// Each literal stored as a u32 word; i32 literals through the i32 -> u32
/// cast, which keeps the two's-complement bits (S3).
TestCase literal_words() {
  const std::vector<ExprPtr> literals = {
      cast(DataType::U32, i32(-5)), cast(DataType::U32, i32(-1)),
      cast(DataType::U32, i32(INT32_MIN)), cast(DataType::U32, i32(INT32_MAX)),
      cast(DataType::U32, i32(7)), u32(0xFFFFFFFF), u32(0x80000000), u32(0),
      add(cast(DataType::U32, i32(-2)), u32(3)),
      // Literal-only operations: the operands' type, not a loaded value's,
      // decides the shift and the comparison (u32: logical, unsigned).
      shr(u32(0x80000000), u32(4)), lt(u32(0xFFFFFFFF), u32(1))};
  Body body;
  for (uint32_t k = 0; k < literals.size(); ++k) body.push_back(store("out", u32(k), literals[k]));
  // One invocation writes: the suite resizes workgroups and grids of L1 cases.
  Program p{{storage("out", 0, BufferAccess::ReadWrite)},
            {1, 1, 1},
            {if_(eq(invocation_id(0), u32(0)), std::move(body))}};
  // Hand-computed: -5 = 0xFFFFFFFB, -1 = 0xFFFFFFFF, i32 min and max, and
  // -2 + 3 wraps to 1, 0x80000000 >> 4 = 0x08000000, and 0xFFFFFFFF < 1 is 0.
  return make_case("spec/literal/signed_and_unsigned_words", std::move(p), Grid{},
                   {{"out", zero_words(11)}},
                   {{"out", to_bytes({0xFFFFFFFB, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 7, 0xFFFFFFFF,
                                      0x80000000, 0, 1, 0x08000000, 0})}});
}

}  // namespace

std::vector<TestCase> literal_cases() {
  return {literal_words()};
}

}  // namespace vyre::reference
