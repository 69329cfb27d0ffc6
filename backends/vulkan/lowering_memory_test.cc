// SEMANTICS S1, S2 and S5 memory rules on the Vulkan backend: explicit bounds
// checks, element counts, Bool/U64/vector layouts, packed uniform buffers,
// workgroup memory zeroing and barrier visibility.
#include <gtest/gtest.h>

#include "backends/vulkan/vulkan_test_support.h"
#include "spec/ir/builder.h"

namespace vyre::vulkan {
namespace {

using namespace vyre::build;
using testing::Case;
using testing::expect_case;
using testing::repeat;
using testing::words;

TEST(VulkanLowering, S5_OutOfBoundsLoadIsZeroOfTheType) {
  Case c{
      {{storage("u", 0, BufferAccess::ReadOnly),
        storage("v", 1, BufferAccess::ReadOnly, DataType::U64),
        storage("b", 2, BufferAccess::ReadOnly, DataType::Bool),
        storage("un", 3, BufferAccess::Uniform), storage("out", 4, BufferAccess::ReadWrite),
        storage("out64", 5, BufferAccess::ReadWrite, DataType::U64)},
       {1, 1, 1},
       {store("out", u32(0), load("u", u32(2))), store("out", u32(1), load("u", u32(0xFFFFFFFF))),
        store("out64", u32(0), load("v", u32(1))),
        store("out", u32(2), cast(DataType::U32, load("b", u32(1)))),
        store("out", u32(3), load("un", u32(1))), store("out", u32(4), load("u", u32(1)))}},
      1,
      true,
      {{"u", words({1, 2})}, {"v", words({3, 4})}, {"b", words({1})}, {"un", words({5})}},
      {{"out", 5}, {"out64", 2}},
      {{"out", words({0, 0, 0, 0, 2})}, {"out64", words({0, 0})}}};
  expect_case(c);
}

TEST(VulkanLowering, S5_OutOfBoundsStoreAndAtomicDoNothing) {
  Case c{{{storage("out", 0, BufferAccess::ReadWrite), storage("ctr", 1, BufferAccess::ReadWrite)},
          {1, 1, 1},
          {store("out", u32(0), u32(1)), store("out", u32(1), u32(2)),
           store("out", u32(0xFFFFFFFF), u32(3)),
           store("ctr", u32(1), atomic(AtomicOp::Add, "ctr", u32(3), u32(10))),
           store("ctr", u32(2), atomic(AtomicOp::Exchange, "ctr", u32(5), u32(10)))}},
         1,
         true,
         {{"ctr", words({7, 7, 7})}},
         {{"out", 2}},
         {{"out", words({1, 2})}, {"ctr", words({7, 0, 0})}}};
  expect_case(c);
}

TEST(VulkanLowering, S1_BufLenIsHostBytesOverElementSize) {
  Case c{{{storage("u", 0, BufferAccess::ReadOnly),
           storage("v4", 1, BufferAccess::ReadOnly, DataType::Vec4U32),
           storage("empty", 2, BufferAccess::ReadOnly),
           storage("bytes", 3, BufferAccess::ReadOnly, DataType::Bytes),
           storage("un", 4, BufferAccess::Uniform, DataType::U64),
           workgroup("scratch", DataType::U32, 7), storage("out", 5, BufferAccess::ReadWrite)},
          {1, 1, 1},
          {store("out", u32(0), buflen("u")), store("out", u32(1), buflen("v4")),
           store("out", u32(2), buflen("empty")), store("out", u32(3), buflen("bytes")),
           store("out", u32(4), buflen("un")), store("out", u32(5), buflen("scratch")),
           store("out", u32(6), buflen("out")), store("out", u32(7), load("empty", u32(0)))}},
         1,
         true,
         // u: 3 words and a trailing partial element (not addressable).
         // bytes: 9 bytes are 3 backing words, the last padded (seed 003).
         {{"u", ByteBuffer(14, 1)},
          {"v4", ByteBuffer(40, 0)},
          {"empty", {}},
          {"bytes", ByteBuffer(9, 0)},
          {"un", ByteBuffer(24, 0)}},
         {{"out", 8}},
         {{"out", words({3, 2, 0, 3, 3, 7, 8, 0})}}};
  expect_case(c);
}

TEST(VulkanLowering, S1_TrailingPartialElementIsReturnedUnchanged) {
  VulkanBackend& backend = testing::shared_backend();
  const Program p{{storage("out", 0, BufferAccess::ReadWrite)},
                  {1, 1, 1},
                  {store("out", u32(0), buflen("out")), store("out", u32(1), u32(9))}};
  BufferSet out = testing::run_ok(backend, p, {{"out", {1, 2, 3, 4, 5, 6}}});
  EXPECT_EQ(out, (BufferSet{{"out", {1, 0, 0, 0, 5, 6}}}));
}

TEST(VulkanLowering, S2_BoolStoresZeroOrOneAndLoadsNonZeroAsTrue) {
  Case c{{{storage("in", 0, BufferAccess::ReadOnly, DataType::Bool),
           storage("out", 1, BufferAccess::ReadWrite, DataType::Bool)},
          {1, 1, 1},
          {store("out", invocation_id(0), load("in", invocation_id(0)))}},
         4,
         true,
         {{"in", words({0, 1, 0x80000000, 0xFFFFFFFF})}},
         {{"out", 4}},
         {{"out", words({0, 1, 1, 1})}}};
  expect_case(c);
}

TEST(VulkanLowering, S2_WideTypesRoundTripAndSelect) {
  Case c{{{storage("a", 0, BufferAccess::ReadOnly, DataType::U64),
           storage("b", 1, BufferAccess::ReadOnly, DataType::Vec4U32),
           storage("o64", 2, BufferAccess::ReadWrite, DataType::U64),
           storage("o2", 3, BufferAccess::ReadWrite, DataType::Vec2U32),
           storage("o4", 4, BufferAccess::ReadWrite, DataType::Vec4U32)},
          {1, 1, 1},
          {store("o64", invocation_id(0),
                 select(eq(invocation_id(0), u32(0)), load("a", u32(1)), load("a", u32(0)))),
           store("o2", invocation_id(0), cast(DataType::Vec2U32, load("a", invocation_id(0)))),
           store("o4", invocation_id(0), load("b", invocation_id(0)))}},
         2,
         true,
         {{"a", words({1, 2, 3, 4})}, {"b", words({5, 6, 7, 8, 9, 10, 11, 12})}},
         {{"o64", 4}, {"o2", 4}, {"o4", 8}},
         {{"o64", words({3, 4, 1, 2})},
          {"o2", words({1, 2, 3, 4})},
          {"o4", words({5, 6, 7, 8, 9, 10, 11, 12})}}};
  expect_case(c);
}

TEST(VulkanLowering, S1_UniformBuffersArePacked) {
  // std140 would place each u32 element at 16 bytes; vyre's host layout is packed.
  Case c{{{storage("u", 0, BufferAccess::Uniform),
           storage("w", 1, BufferAccess::Uniform, DataType::U64),
           storage("q", 2, BufferAccess::Uniform, DataType::Vec4U32),
           storage("i", 3, BufferAccess::Uniform, DataType::I32, 3),
           storage("out", 4, BufferAccess::ReadWrite)},
          {1, 1, 1},
          {store("out", invocation_id(0), load("u", invocation_id(0))),
           store("out", add(invocation_id(0), u32(5)),
                 cast(DataType::U32, load("w", invocation_id(0)))),
           store("out", add(invocation_id(0), u32(10)),
                 cast(DataType::U32, load("q", invocation_id(0)))),
           store("out", add(invocation_id(0), u32(15)),
                 cast(DataType::U32, load("i", invocation_id(0))))}},
         5,
         true,
         {{"u", words({1, 2, 3, 4, 5})},
          {"w", words({10, 0, 11, 0, 12, 0, 13, 0, 14, 0})},
          {"q", words({20, 0, 0, 0, 21, 0, 0, 0, 22, 0, 0, 0, 23, 0, 0, 0, 24, 0, 0, 0})},
          {"i", words({0xFFFFFFFF, 31, 32})}},
         {{"out", 20}},
         {{"out", words({1,  2,  3,  4,  5,  10,         11, 12, 13, 14,
                         20, 21, 22, 23, 24, 0xFFFFFFFF, 31, 32, 0,  0})}}};
  expect_case(c);
}

TEST(VulkanLowering, S1_FullSizeUniformBuffer) {
  // 65536 bytes, the most a uniform buffer holds; read its last element.
  std::vector<uint32_t> values(16384);
  for (uint32_t i = 0; i < values.size(); ++i) values[i] = i * 3;
  Case c{
      {{storage("u", 0, BufferAccess::Uniform), storage("out", 1, BufferAccess::ReadWrite)},
       {1, 1, 1},
       {store("out", u32(0), load("u", u32(16383))), store("out", u32(1), load("u", u32(16384)))}},
      1,
      true,
      {{"u", words(values)}},
      {{"out", 2}},
      {{"out", words({16383 * 3, 0})}}};
  expect_case(c);
}

TEST(VulkanLowering, S5_WorkgroupMemoryStartsZeroInEveryWorkgroup) {
  // Each invocation reads its slot (must be 0), then dirties it. With 4
  // workgroups, a later workgroup would see an earlier one's 99 if shared
  // memory were not zeroed. The array is longer than the workgroup, so the
  // strided zeroing loop must cover every element.
  Case c{
      {{workgroup("scratch", DataType::U32, 130), workgroup("wide", DataType::Vec2U32, 3),
        storage("out", 0, BufferAccess::ReadWrite)},
       {1, 1, 1},
       {let("sum", u32(0)),
        loop("k", u32(0), u32(130), {assign("sum", add(var("sum"), load("scratch", var("k"))))}),
        assign("sum", add(var("sum"), cast(DataType::U32, load("wide", u32(2))))),
        store("out", invocation_id(0), var("sum")), barrier(),
        store("scratch", local_id(0), u32(99)),
        if_(eq(local_id(0), u32(0)), {store("wide", u32(2), cast(DataType::Vec2U32, u32(99)))})}},
      256,
      false,
      {},
      {{"out", 256}},
      {{"out", repeat(0, 256)}}};
  expect_case(c);
}

TEST(VulkanLowering, S6_BarrierMakesWorkgroupAndStorageWritesVisible) {
  // Invocation l writes slot l of shared and storage memory, then after the
  // barrier reads its neighbour's slot (l + 1 mod workgroup size).
  for (uint32_t wg : {1u, 64u}) {
    const uint32_t groups = 3;
    const Program p{
        {workgroup("shared", DataType::U32, 64), storage("scratch", 0, BufferAccess::ReadWrite),
         storage("out", 1, BufferAccess::ReadWrite)},
        {wg, 1, 1},
        {store("shared", local_id(0), add(invocation_id(0), u32(1000))),
         store("scratch", invocation_id(0), add(invocation_id(0), u32(2000))), barrier(),
         let("next", mod(add(local_id(0), u32(1)), u32(wg))),
         store("out", mul(invocation_id(0), u32(2)), load("shared", var("next"))),
         store("out", add(mul(invocation_id(0), u32(2)), u32(1)),
               load("scratch", add(mul(workgroup_id(0), u32(wg)), var("next"))))}};
    std::vector<uint32_t> expected;
    for (uint32_t g = 0; g < groups; ++g) {
      for (uint32_t l = 0; l < wg; ++l) {
        const uint32_t neighbour = g * wg + (l + 1) % wg;
        expected.push_back(neighbour + 1000);
        expected.push_back(neighbour + 2000);
      }
    }
    for (uint8_t fill : {uint8_t{0}, uint8_t{0xAB}}) {
      BufferSet out = testing::run_ok(testing::shared_backend(), p,
                                      {{"scratch", ByteBuffer(groups * wg * 4, fill)},
                                       {"out", ByteBuffer(groups * wg * 8, fill)}},
                                      Grid{{groups, 1, 1}});
      EXPECT_EQ(out["out"], words(expected)) << "workgroup size " << wg;
    }
  }
}

}  // namespace
}  // namespace vyre::vulkan
