// Structural archetypes of pinned spec section 8 with hand-written
// expectations (numbering in spec_tables.h): S8 wide fan-out, S9
// workgroup-memory contention and uniqueness, S10 atomic contention, S11
// off-by-one buffer lengths (len - 1, len, len + 1) on storage, atomics,
// uniform and workgroup buffers, and S13's conforming form.
// Large expected arrays are written as the closed form the spec gives them,
// computed here without the interpreter.
#include "reference/spec_tables/case_builder.h"
#include "reference/spec_tables/table_parts.h"

namespace vyre::reference {
namespace {

using namespace vyre::build;
using spec_tables::make_case;

TestCase wide_fan_out() {
  // One loaded value used by 64 additions.
  ExprPtr sum = local_id(0);
  for (int k = 0; k < 64; ++k) sum = add(sum, var("x"));
  Program p{{storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
            {64, 1, 1},
            {let("x", load("in", u32(0))), store("out", local_id(0), sum)}};
  std::vector<uint32_t> expected;
  for (uint32_t lane = 0; lane < 64; ++lane) expected.push_back(lane + 64 * 3);
  return make_case("exec/S8/wide_fan_out", std::move(p), Grid{},
                   {{"in", to_bytes({3})}, {"out", zero_words(64)}}, {{"out", to_bytes(expected)}});
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
  return make_case("exec/S9/workgroup_memory_contention_and_uniqueness", std::move(p),
                   Grid{{2, 1, 1}}, {{"out", zero_words(128)}}, {{"out", to_bytes(expected)}});
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
  return make_case("exec/S10/atomic_contention", std::move(p), Grid{{4, 1, 1}},
                   {{"ctr", to_bytes({0, 0, 0xFFFFFFFF, 0, 0, 0xFFFFFFFF, 7})}},
                   {{"ctr", to_bytes({256, 255, 0, 0xFFFFFFFF, 256, 0, 42})}});
}

TestCase off_by_one_storage() {
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
  return make_case(
      "exec/S11/off_by_one_storage", std::move(p), Grid{},
      {{"in", to_bytes({10, 11, 12, 13, 14, 15, 16, 17})},
       {"edge", zero_words(8)},
       {"probe", zero_words(3)}},
      {{"edge", to_bytes({0, 1, 2, 3, 4, 5, 6, 0x77})}, {"probe", to_bytes({17, 0, 0})}});
}

TestCase off_by_one_atomics() {
  // `ctr` holds 8 counters; lanes 0-2 apply an Add, then a CompareExchange
  // expecting the sum, at index 7 + lane: len - 1, len and len + 1.
  const ExprPtr lane = local_id(0);
  Program p{
      {storage("ctr", 0, BufferAccess::ReadWrite), storage("old_add", 1, BufferAccess::ReadWrite),
       storage("old_cas", 2, BufferAccess::ReadWrite)},
      {8, 1, 1},
      {if_(lt(lane, u32(3)),
           {let("at", add(sub(buflen("ctr"), u32(1)), lane)),
            store("old_add", lane, atomic(AtomicOp::Add, "ctr", var("at"), u32(0x100))),
            store("old_cas", lane, compare_exchange("ctr", var("at"), u32(0x111), u32(0x77)))})}};
  // Lane 0: ctr[7] goes 17 -> 0x111 (Add returns 17) -> 0x77 (the exchange
  // sees 0x111). Lanes 1 and 2 are out of bounds: both atomics return 0 and
  // write nothing.
  return make_case("exec/S11/off_by_one_atomics", std::move(p), Grid{},
                   {{"ctr", to_bytes({10, 11, 12, 13, 14, 15, 16, 17})},
                    {"old_add", zero_words(3)},
                    {"old_cas", zero_words(3)}},
                   {{"ctr", to_bytes({10, 11, 12, 13, 14, 15, 16, 0x77})},
                    {"old_add", to_bytes({17, 0, 0})},
                    {"old_cas", to_bytes({0x111, 0, 0})}});
}

TestCase off_by_one_uniform() {
  // Two Uniform buffers whose sizes are not a multiple of the 16-byte rows a
  // std140 lowering reads them through: 5 u32 (20 bytes) and 3 U64 (24
  // bytes). Lanes 0-2 load index len - 1 + lane; lane 3 records both BufLens.
  const ExprPtr lane = local_id(0);
  Program p{{storage("params", 0, BufferAccess::Uniform),
             storage("wide", 1, BufferAccess::Uniform, DataType::U64),
             storage("probe", 2, BufferAccess::ReadWrite),
             storage("probe64", 3, BufferAccess::ReadWrite, DataType::U64)},
            {4, 1, 1},
            {if_(lt(lane, u32(3)),
                 {store("probe", lane, load("params", add(sub(buflen("params"), u32(1)), lane))),
                  store("probe64", lane, load("wide", add(sub(buflen("wide"), u32(1)), lane)))},
                 {store("probe", lane, buflen("params")),
                  store("probe64", lane, cast(DataType::U64, buflen("wide")))})}};
  // len - 1 reads the last element; len and len + 1 read zero (S5 holds for
  // uniform buffers too); BufLen is 5 and 3 (widened to U64: (3, 0)).
  return make_case(
      "exec/S11/off_by_one_uniform", std::move(p), Grid{},
      {{"params", to_bytes({20, 21, 22, 23, 24})},
       {"wide", to_bytes({1, 2, 3, 4, 5, 6})},
       {"probe", zero_words(4)},
       {"probe64", zero_words(8)}},
      {{"probe", to_bytes({24, 0, 0, 5})}, {"probe64", to_bytes({5, 6, 0, 0, 0, 0, 3, 0})}});
}

TestCase off_by_one_workgroup() {
  // An 8-element workgroup buffer in two workgroups of 8. Every lane fills
  // its slot; lanes 0-2 then store at index 7 + lane (len - 1, len, len + 1)
  // and, after a barrier, load from there again.
  const ExprPtr lane = local_id(0);
  const ExprPtr at = add(sub(buflen("shared"), u32(1)), lane);
  Program p{
      {workgroup("shared", DataType::U32, 8), storage("out", 0, BufferAccess::ReadWrite),
       storage("probe", 1, BufferAccess::ReadWrite)},
      {8, 1, 1},
      {store("shared", lane, add(add(lane, u32(100)), mul(workgroup_id(0), u32(1000)))), barrier(),
       if_(lt(lane, u32(3)), {store("shared", at, add(u32(0x77), workgroup_id(0)))}), barrier(),
       store("out", invocation_id(0), load("shared", lane)),
       if_(lt(lane, u32(3)),
           {store("probe", add(mul(workgroup_id(0), u32(3)), lane), load("shared", at))})}};
  // Workgroup w: slots 0-6 keep 100 + l + 1000w, slot 7 becomes 0x77 + w;
  // the stores at len and len + 1 are dropped and the loads there read 0.
  return make_case("exec/S11/off_by_one_workgroup", std::move(p), Grid{{2, 1, 1}},
                   {{"out", zero_words(16)}, {"probe", zero_words(6)}},
                   {{"out", to_bytes({100, 101, 102, 103, 104, 105, 106, 0x77, 1100, 1101, 1102,
                                      1103, 1104, 1105, 1106, 0x78})},
                    {"probe", to_bytes({0x77, 0, 0, 0x78, 0, 0})}});
}

TestCase store_past_workgroup_buffer_spares_its_neighbour() {
  // Two 4-element workgroup buffers, likely laid out side by side: a store at
  // index len of either must be dropped (S5), not land in the other one.
  Program p{{workgroup("a", DataType::U32, 4), workgroup("b", DataType::U32, 4),
             storage("out", 0, BufferAccess::ReadWrite)},
            {1, 1, 1},
            {store("a", buflen("a"), u32(0x55)), store("b", buflen("b"), u32(0x66)), barrier(),
             loop("k", u32(0), u32(4),
                  {store("out", var("k"), load("a", var("k"))),
                   store("out", add(var("k"), u32(4)), load("b", var("k")))})}};
  // Both buffers start zeroed and both stores are out of bounds: all zero.
  return make_case("exec/S11/store_past_workgroup_buffer", std::move(p), Grid{},
                   {{"out", to_bytes({9, 9, 9, 9, 9, 9, 9, 9})}}, {{"out", zero_words(8)}});
}

TestCase workgroup_memory_zeroed_past_the_invocations() {
  // 16 workgroup elements, 2 invocations a workgroup, 8 workgroups: the
  // zeroing at entry must cover elements 2-15 too, though no invocation owns
  // them. Lane 0 sums all 16 before anyone writes; then every lane dirties
  // its half, which a later workgroup reusing the memory must not see.
  const ExprPtr lane = local_id(0);
  Program p{{workgroup("s", DataType::U32, 16), storage("out", 0, BufferAccess::ReadWrite)},
            {2, 1, 1},
            {if_(eq(lane, u32(0)),
                 {let("sum", u32(0)),
                  loop("k", u32(0), u32(16), {assign("sum", add(var("sum"), load("s", var("k"))))}),
                  store("out", workgroup_id(0), var("sum"))}),
             barrier(),
             loop("k", u32(0), u32(8),
                  {store("s", add(mul(var("k"), u32(2)), lane), add(workgroup_id(0), u32(1)))})}};
  // Every workgroup starts from zeros: every sum is 0.
  return make_case("exec/S9/workgroup_memory_zeroed_past_invocations", std::move(p),
                   Grid{{8, 1, 1}}, {{"out", to_bytes({9, 9, 9, 9, 9, 9, 9, 9})}},
                   {{"out", zero_words(8)}});
}

TestCase barrier_under_workgroup_uniform_divergence() {
  // Control diverges, but never splits a workgroup at a barrier (S6), so the
  // validator accepts it (V010 is about uniformity within a workgroup):
  // workgroup 2 returns as a whole; lanes diverge and reconverge before a
  // barrier; the loop around two barriers runs once in workgroup 0 and twice
  // in workgroup 1; only workgroup 0 takes a branch holding a barrier.
  const ExprPtr lane = local_id(0);
  const ExprPtr wg = workgroup_id(0);
  Program p{
      {workgroup("s", DataType::U32, 4), storage("out", 0, BufferAccess::ReadWrite)},
      {4, 1, 1},
      {if_(eq(wg, u32(2)), {store("out", invocation_id(0), add(u32(0xDEAD0000), lane)), ret()}),
       if_(lt(lane, u32(2)), {store("s", lane, add(u32(10), lane))},
           {store("s", lane, add(u32(20), lane))}),
       barrier(),
       loop("i", u32(0), add(wg, u32(1)),
            {let("v", load("s", bit_and(add(lane, u32(1)), u32(3)))), barrier(),
             store("s", lane, add(var("v"), u32(1))), barrier()}),
       if_(eq(wg, u32(0)), {barrier()}), store("out", invocation_id(0), load("s", lane))}};
  // s starts [10, 11, 22, 23]; one rotation step s[l] = s[(l + 1) & 3] + 1
  // gives [12, 23, 24, 11], a second [24, 25, 12, 13].
  return make_case("exec/S13/barrier_under_workgroup_uniform_divergence", std::move(p),
                   Grid{{3, 1, 1}}, {{"out", zero_words(12)}},
                   {{"out", to_bytes({12, 23, 24, 11, 24, 25, 12, 13, 0xDEAD0000, 0xDEAD0001,
                                      0xDEAD0002, 0xDEAD0003})}});
}

}  // namespace

std::vector<TestCase> off_by_one_cases() {
  return {off_by_one_storage(), off_by_one_atomics(), off_by_one_uniform(), off_by_one_workgroup(),
          store_past_workgroup_buffer_spares_its_neighbour()};
}

std::vector<TestCase> structural_cases() {
  std::vector<TestCase> out = {wide_fan_out(), workgroup_memory_contention_and_uniqueness(),
                               atomic_contention(), barrier_under_workgroup_uniform_divergence(),
                               workgroup_memory_zeroed_past_the_invocations()};
  for (TestCase& c : off_by_one_cases()) out.push_back(std::move(c));
  return out;
}

}  // namespace vyre::reference
