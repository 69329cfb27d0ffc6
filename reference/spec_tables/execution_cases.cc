// Execution-model cases with hand-written expectations: ids on three axes,
// barrier visibility, workgroup memory zeroing, and the normative order of
// evaluation (pinned spec sections 1, 2 and 5; SEMANTICS S4-S6).
#include <array>

#include "reference/spec_tables/case_builder.h"
#include "reference/spec_tables/table_parts.h"

namespace vyre::reference {
namespace {

using namespace vyre::build;
using spec_tables::make_case;

/// x | y << 8 | z << 16 of an id.
ExprPtr packed(ExprPtr x, ExprPtr y, ExprPtr z) {
  return bit_or(bit_or(x, shl(y, u32(8))), shl(z, u32(16)));
}

// The three-axis id case uses a workgroup size and a grid above 1 on every
// axis, and different on each, so that a swapped or ignored axis shows.
/// Workgroup size of the three-axis id case.
constexpr std::array<uint32_t, 3> kIdsWorkgroupSize = {4, 2, 3};
/// Grid of the three-axis id case; the global size is (8, 6, 6).
constexpr std::array<uint32_t, 3> kIdsGrid = {2, 3, 2};
/// Invocation (x, y, z) writes slot x + kIdsRow * y + kIdsPlane * z.
constexpr uint32_t kIdsRow = 8;
/// Slots per z plane: 8 x 6.
constexpr uint32_t kIdsPlane = 8 * 6;
/// Invocations in the dispatch, one slot each.
constexpr uint32_t kIdsSlots = 8 * 6 * 6;

TestCase ids_on_three_axes() {
  const ExprPtr g = add(add(invocation_id(0), mul(invocation_id(1), u32(kIdsRow))),
                        mul(invocation_id(2), u32(kIdsPlane)));
  Program p{{storage("inv", 0, BufferAccess::ReadWrite), storage("wg", 1, BufferAccess::ReadWrite),
             storage("local", 2, BufferAccess::ReadWrite)},
            kIdsWorkgroupSize,
            {let("g", g),
             store("inv", var("g"), packed(invocation_id(0), invocation_id(1), invocation_id(2))),
             store("wg", var("g"), packed(workgroup_id(0), workgroup_id(1), workgroup_id(2))),
             store("local", var("g"), packed(local_id(0), local_id(1), local_id(2)))}};
  // Every (WorkgroupId w, LocalId l) pair of the dispatch is one invocation,
  // whose InvocationId is w * workgroup_size + l on each axis (pinned spec
  // section 1, SEMANTICS S1); its slot holds the three packed ids.
  std::vector<uint32_t> inv(kIdsSlots), wg(kIdsSlots), local(kIdsSlots);
  const auto& s = kIdsWorkgroupSize;
  for (uint32_t wz = 0; wz < kIdsGrid[2]; ++wz) {
    for (uint32_t wy = 0; wy < kIdsGrid[1]; ++wy) {
      for (uint32_t wx = 0; wx < kIdsGrid[0]; ++wx) {
        for (uint32_t lz = 0; lz < s[2]; ++lz) {
          for (uint32_t ly = 0; ly < s[1]; ++ly) {
            for (uint32_t lx = 0; lx < s[0]; ++lx) {
              const uint32_t x = wx * s[0] + lx;
              const uint32_t y = wy * s[1] + ly;
              const uint32_t z = wz * s[2] + lz;
              const uint32_t slot = x + kIdsRow * y + kIdsPlane * z;
              inv[slot] = x | y << 8 | z << 16;
              wg[slot] = wx | wy << 8 | wz << 16;
              local[slot] = lx | ly << 8 | lz << 16;
            }
          }
        }
      }
    }
  }
  return make_case("exec/ids_on_three_axes", std::move(p), Grid{kIdsGrid},
                   {{"inv", zero_words(kIdsSlots)},
                    {"wg", zero_words(kIdsSlots)},
                    {"local", zero_words(kIdsSlots)}},
                   {{"inv", to_bytes(inv)}, {"wg", to_bytes(wg)}, {"local", to_bytes(local)}});
}

TestCase barrier_visibility() {
  // Each lane writes workgroup memory and storage, then after the barrier
  // reads what two other lanes of its workgroup wrote.
  const ExprPtr lane = local_id(0);
  const ExprPtr wg = workgroup_id(0);
  Program p{
      {workgroup("shared", DataType::U32, 8), storage("staging", 0, BufferAccess::ReadWrite),
       storage("out", 1, BufferAccess::ReadWrite)},
      {8, 1, 1},
      {store("shared", lane, add(mul(lane, u32(3)), mul(wg, u32(100)))),
       store("staging", invocation_id(0), add(invocation_id(0), u32(1000))), barrier(),
       store("out", invocation_id(0),
             add(load("shared", bit_and(add(lane, u32(1)), u32(7))),
                 load("staging", add(mul(wg, u32(8)), bit_and(add(lane, u32(7)), u32(7))))))}};
  // out = shared[(l + 1) & 7] + staging[8w + ((l + 7) & 7)]
  //     = 3((l + 1) & 7) + 100w + 8w + ((l + 7) & 7) + 1000.
  return make_case("exec/barrier_visibility", std::move(p), Grid{{2, 1, 1}},
                   {{"staging", zero_words(16)}, {"out", zero_words(16)}},
                   {{"staging", to_bytes({1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008,
                                          1009, 1010, 1011, 1012, 1013, 1014, 1015})},
                    {"out", to_bytes({1010, 1006, 1010, 1014, 1018, 1022, 1026, 1006, 1118, 1114,
                                      1118, 1122, 1126, 1130, 1134, 1114})}});
}

TestCase workgroup_memory_is_zeroed_per_workgroup() {
  // Each lane reads its slot before writing it; a workgroup that saw the
  // previous workgroup's 0xFFFF would break the expectation.
  Program p{{workgroup("shared", DataType::U32, 4), storage("out", 0, BufferAccess::ReadWrite)},
            {4, 1, 1},
            {store("out", invocation_id(0),
                   add(load("shared", local_id(0)), add(invocation_id(0), u32(100)))),
             store("shared", local_id(0), u32(0xFFFF))}};
  return make_case(
      "exec/workgroup_memory_zeroed", std::move(p), Grid{{3, 1, 1}}, {{"out", zero_words(12)}},
      {{"out", to_bytes({100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111})}});
}

TestCase select_evaluates_both_arms() {
  const ExprPtr i = local_id(0);
  Program p{{storage("a", 0, BufferAccess::ReadWrite), storage("b", 1, BufferAccess::ReadWrite),
             storage("out", 2, BufferAccess::ReadWrite)},
            {4, 1, 1},
            {store("out", i,
                   select(bit_and(i, u32(1)), atomic(AtomicOp::Add, "a", i, u32(1)),
                          atomic(AtomicOp::Add, "b", i, u32(5))))}};
  // Both atomics happen on every lane; odd lanes pick a's old value.
  return make_case(
      "exec/select_evaluates_both_arms", std::move(p), Grid{},
      {{"a", to_bytes({10, 20, 30, 40})}, {"b", to_bytes({1, 2, 3, 4})}, {"out", zero_words(4)}},
      {{"a", to_bytes({11, 21, 31, 41})},
       {"b", to_bytes({6, 7, 8, 9})},
       {"out", to_bytes({1, 20, 3, 40})}});
}

TestCase binop_evaluates_left_then_right() {
  const ExprPtr i = local_id(0);
  Program p{
      {storage("c", 0, BufferAccess::ReadWrite), storage("out", 1, BufferAccess::ReadWrite)},
      {4, 1, 1},
      {store("out", i,
             sub(atomic(AtomicOp::Add, "c", i, u32(1)), atomic(AtomicOp::Add, "c", i, u32(10))))}};
  // left yields c0 and right c0 + 1, so c0 - (c0 + 1) wraps to 0xFFFFFFFF;
  // right-then-left would give 10.
  return make_case("exec/binop_left_then_right", std::move(p), Grid{},
                   {{"c", to_bytes({5, 50, 500, 0xFFFFFFFF})}, {"out", zero_words(4)}},
                   {{"c", to_bytes({16, 61, 511, 10})},
                    {"out", to_bytes({0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF})}});
}

TestCase store_evaluates_index_then_value() {
  const ExprPtr i = local_id(0);
  Program p{
      {storage("c", 0, BufferAccess::ReadWrite), storage("out", 1, BufferAccess::ReadWrite)},
      {4, 1, 1},
      {store("out", atomic(AtomicOp::Add, "c", i, u32(1)), atomic(AtomicOp::Add, "c", i, u32(1))),
       store("out", add(mul(i, u32(2)), u32(1)), u32(0xAB))}};
  // c starts at 2i: the index is 2i, the value 2i + 1.
  return make_case(
      "exec/store_index_then_value", std::move(p), Grid{},
      {{"c", to_bytes({0, 2, 4, 6})}, {"out", zero_words(8)}},
      {{"c", to_bytes({2, 4, 6, 8})}, {"out", to_bytes({1, 0xAB, 3, 0xAB, 5, 0xAB, 7, 0xAB})}});
}

TestCase atomic_evaluates_index_expected_value() {
  const ExprPtr i = local_id(0);
  const ExprPtr next = atomic(AtomicOp::Add, "c", i, u32(1));
  Program p{{storage("c", 0, BufferAccess::ReadWrite), storage("t", 1, BufferAccess::ReadWrite),
             storage("old", 2, BufferAccess::ReadWrite)},
            {4, 1, 1},
            {store("old", i, compare_exchange("t", next, next, next))}};
  // c starts at i: index i, expected i + 1 (= t[i]), value i + 2.
  return make_case(
      "exec/atomic_index_expected_value", std::move(p), Grid{},
      {{"c", to_bytes({0, 1, 2, 3})}, {"t", to_bytes({1, 2, 3, 4})}, {"old", zero_words(4)}},
      {{"c", to_bytes({3, 4, 5, 6})},
       {"t", to_bytes({2, 3, 4, 5})},
       {"old", to_bytes({1, 2, 3, 4})}});
}

TestCase call_arguments_once_left_to_right() {
  // primitive.sub uses each parameter once: left-to-right arguments give
  // c0 - (c0 + 1). primitive.abs_diff uses each parameter three times: an
  // argument evaluated per use would apply its atomic more than once.
  const ExprPtr i = local_id(0);
  Program p{
      {storage("c", 0, BufferAccess::ReadWrite), storage("d", 1, BufferAccess::ReadWrite),
       storage("sub", 2, BufferAccess::ReadWrite), storage("diff", 3, BufferAccess::ReadWrite)},
      {2, 1, 1},
      {store("sub", i,
             call("primitive.sub", {atomic(AtomicOp::Add, "c", i, u32(1)),
                                    atomic(AtomicOp::Add, "c", i, u32(100))})),
       store("diff", i,
             call("primitive.abs_diff", {atomic(AtomicOp::Add, "d", i, u32(1)),
                                         atomic(AtomicOp::Add, "d", i, u32(100))}))}};
  return make_case("exec/call_arguments_once_left_to_right", std::move(p), Grid{},
                   {{"c", to_bytes({10, 20})},
                    {"d", to_bytes({5, 7})},
                    {"sub", zero_words(2)},
                    {"diff", zero_words(2)}},
                   {{"c", to_bytes({111, 121})},
                    {"d", to_bytes({106, 108})},
                    {"sub", to_bytes({0xFFFFFFFF, 0xFFFFFFFF})},
                    {"diff", to_bytes({1, 1})}});
}

}  // namespace

std::vector<TestCase> execution_cases() {
  return {ids_on_three_axes(),
          barrier_visibility(),
          workgroup_memory_is_zeroed_per_workgroup(),
          select_evaluates_both_arms(),
          binop_evaluates_left_then_right(),
          store_evaluates_index_then_value(),
          atomic_evaluates_index_expected_value(),
          call_arguments_once_left_to_right()};
}

}  // namespace vyre::reference
