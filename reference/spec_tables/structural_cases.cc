// Structural archetypes of pinned spec section 8 with hand-written
// expectations: wide fan-out, workgroup-memory contention and uniqueness,
// atomic contention, and off-by-one buffer lengths (len - 1, len, len + 1).
// Large expected arrays are written as the closed form the spec gives them,
// computed here without the interpreter.
#include "reference/spec_tables/case_builder.h"
#include "reference/spec_tables/table_parts.h"

namespace vyre::reference {
namespace {

using namespace vyre::build;
using spec_tables::make_case;
using spec_tables::words;
using spec_tables::zero_words;

TestCase wide_fan_out() {
  // One loaded value used by 64 additions.
  ExprPtr sum = local_id(0);
  for (int k = 0; k < 64; ++k) sum = add(sum, var("x"));
  Program p{{storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
            {64, 1, 1},
            {let("x", load("in", u32(0))), store("out", local_id(0), sum)}};
  std::vector<uint32_t> expected;
  for (uint32_t lane = 0; lane < 64; ++lane) expected.push_back(lane + 64 * 3);
  return make_case("exec/wide_fan_out", std::move(p), Grid{},
                   {{"in", words({3})}, {"out", zero_words(64)}}, {{"out", words(expected)}});
}

TestCase workgroup_memory_contention_and_uniqueness() {
  // Each lane owns one slot (uniqueness); after the barrier every lane reads
  // slot 0 (contention) and the mirrored slot.
  const ExprPtr lane = local_id(0);
  Program p{
      {workgroup("shared", DataType::U32, 64), storage("out", 0, BufferAccess::ReadWrite)},
      {64, 1, 1},
      {store("shared", lane, add(mul(lane, u32(2)), mul(workgroup_id(0), u32(1000)))), barrier(),
       store("out", invocation_id(0),
             add(load("shared", sub(u32(63), lane)), load("shared", u32(0))))}};
  // out[64w + l] = (2(63 - l) + 1000w) + (0 + 1000w).
  std::vector<uint32_t> expected;
  for (uint32_t w = 0; w < 2; ++w) {
    for (uint32_t l = 0; l < 64; ++l) expected.push_back(2 * (63 - l) + 2000 * w);
  }
  return make_case("exec/workgroup_memory_contention", std::move(p), Grid{{2, 1, 1}},
                   {{"out", zero_words(128)}}, {{"out", words(expected)}});
}

TestCase atomic_contention() {
  // 256 invocations hit the same seven counters.
  const ExprPtr inv = invocation_id(0);
  const ExprPtr bit = shl(u32(1), bit_and(inv, u32(31)));
  Program p{{storage("ctr", 0, BufferAccess::ReadWrite)},
            {64, 1, 1},
            {let("a", atomic(AtomicOp::Add, "ctr", u32(0), u32(1))),
             let("b", atomic(AtomicOp::Max, "ctr", u32(1), inv)),
             let("c", atomic(AtomicOp::Min, "ctr", u32(2), inv)),
             let("d", atomic(AtomicOp::Or, "ctr", u32(3), bit)),
             let("e", atomic(AtomicOp::Xor, "ctr", u32(4), add(inv, u32(1)))),
             let("f", atomic(AtomicOp::And, "ctr", u32(5), unary(UnOp::BitNot, bit))),
             let("g", atomic(AtomicOp::Exchange, "ctr", u32(6), u32(42)))}};
  // count 256; max id 255; min id 0; all 32 bits set; 1 ^ 2 ^ ... ^ 256 = 256
  // (0 ^ ... ^ 255 is 0); every bit cleared; the one value exchanged in.
  return make_case("exec/atomic_contention", std::move(p), Grid{{4, 1, 1}},
                   {{"ctr", words({0, 0, 0xFFFFFFFF, 0, 0, 0xFFFFFFFF, 7})}},
                   {{"ctr", words({256, 255, 0, 0xFFFFFFFF, 256, 0, 42})}});
}

}  // namespace

/// The off-by-one program, shared with its strict-mode non-conforming twin.
TestCase off_by_one_lengths() {
  // `in` and `edge` hold 8 elements; lanes 0-2 touch index 7 + lane, that is
  // len - 1, len and len + 1.
  const ExprPtr lane = local_id(0);
  Program p{{storage("in", 0, BufferAccess::ReadOnly), storage("edge", 1, BufferAccess::ReadWrite),
             storage("probe", 2, BufferAccess::ReadWrite)},
            {8, 1, 1},
            {store("edge", lane, lane), barrier(),
             if_(lt(lane, u32(3)),
                 {store("edge", add(sub(buflen("edge"), u32(1)), lane), u32(0x77)),
                  store("probe", lane, load("in", add(sub(buflen("in"), u32(1)), lane)))})}};
  // len - 1 is read and written; len and len + 1 read 0 and drop the store.
  return make_case("exec/off_by_one_lengths", std::move(p), Grid{},
                   {{"in", words({10, 11, 12, 13, 14, 15, 16, 17})},
                    {"edge", zero_words(8)},
                    {"probe", zero_words(3)}},
                   {{"edge", words({0, 1, 2, 3, 4, 5, 6, 0x77})}, {"probe", words({17, 0, 0})}});
}

std::vector<TestCase> structural_cases() {
  return {wide_fan_out(), workgroup_memory_contention_and_uniqueness(), atomic_contention(),
          off_by_one_lengths()};
}

}  // namespace vyre::reference
