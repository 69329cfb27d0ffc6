// SEMANTICS S4 control flow and the id builtins on the Vulkan backend.
#include <gtest/gtest.h>

#include "backends/vulkan/vulkan_test_support.h"
#include "spec/ir/builder.h"

namespace vyre::vulkan {
namespace {

using namespace vyre::build;
using testing::Case;
using testing::expect_case;
using testing::words;

const BufferDecl kOutput = storage("out", 0, BufferAccess::ReadWrite);

TEST(VulkanLowering, S4_LoopBoundsAreEvaluatedOnce) {
  // The body raises `n`, the upper bound's variable: still 3 iterations.
  Case c{{{kOutput},
          {1, 1, 1},
          {let("n", u32(3)), let("count", u32(0)),
           loop("i", u32(0), var("n"),
                {assign("n", add(var("n"), u32(1))), assign("count", add(var("count"), u32(1)))}),
           store("out", u32(0), var("count")), store("out", u32(1), var("n"))}},
         1,
         true,
         {},
         {{"out", 2}},
         {{"out", words({3, 6})}}};
  expect_case(c);
}

TEST(VulkanLowering, S4_LoopIsHalfOpenAndSkipsEmptyRanges) {
  Case c{
      {{kOutput},
       {1, 1, 1},
       {let("sum", u32(0)), loop("i", u32(2), u32(5), {assign("sum", add(var("sum"), var("i")))}),
        let("empty", u32(0)), loop("j", u32(5), u32(2), {assign("empty", u32(1))}),
        loop("k", u32(4), u32(4), {assign("empty", u32(1))}),
        // The last value of u32: one iteration, and the counter must not wrap.
        let("top", u32(0)),
        loop("t", u32(0xFFFFFFFE), u32(0xFFFFFFFF), {assign("top", add(var("top"), var("t")))}),
        store("out", u32(0), var("sum")), store("out", u32(1), var("empty")),
        store("out", u32(2), var("top"))}},
      1,
      true,
      {},
      {{"out", 3}},
      {{"out", words({9, 0, 0xFFFFFFFE})}}};
  expect_case(c);
}

TEST(VulkanLowering, S4_NestedLoopsAndFreshIterationScopes) {
  // `x` is a fresh binding each iteration: it starts at 0 every time.
  Case c{
      {{kOutput},
       {1, 1, 1},
       {let("total", u32(0)),
        loop("i", u32(0), u32(4),
             {let("x", u32(0)), loop("j", u32(0), var("i"), {assign("x", add(var("x"), u32(1)))}),
              assign("total", add(var("total"), var("x")))}),
        store("out", u32(0), var("total"))}},
      1,
      true,
      {},
      {{"out", 1}},
      {{"out", words({6})}}};
  expect_case(c);
}

TEST(VulkanLowering, S4_ReturnEndsTheInvocation) {
  Case c{{{kOutput},
          {1, 1, 1},
          {store("out", invocation_id(0), u32(7)),
           if_(eq(mod(invocation_id(0), u32(2)), u32(0)),
               {store("out", invocation_id(0), u32(5)), ret()}),
           loop("i", u32(0), u32(10),
                {if_(eq(var("i"), u32(3)), {ret()}), store("out", invocation_id(0), var("i"))})}},
         4,
         true,
         {},
         {{"out", 4}},
         {{"out", words({5, 2, 5, 2})}}};
  expect_case(c);
}

TEST(VulkanLowering, S4_IfTakesTruthinessOrBool) {
  Case c{{{kOutput},
          {1, 1, 1},
          {if_(u32(0x80000000), {store("out", u32(0), u32(1))}, {store("out", u32(0), u32(2))}),
           if_(u32(0), {store("out", u32(1), u32(1))}, {store("out", u32(1), u32(2))}),
           if_(boolean(false), {store("out", u32(2), u32(1))}, {store("out", u32(2), u32(2))}),
           block({let("inner", u32(4)), store("out", u32(3), var("inner"))})}},
         1,
         true,
         {},
         {{"out", 4}},
         {{"out", words({1, 2, 2, 4})}}};
  expect_case(c);
}

TEST(VulkanLowering, S1_IdsOnAllThreeAxes) {
  // Workgroup (2, 3, 2) and grid (2, 1, 3): each invocation writes its ids at
  // its linear global index.
  const std::array<uint32_t, 3> size = {2, 3, 2};
  const std::array<uint32_t, 3> grid = {2, 1, 3};
  const uint32_t nx = size[0] * grid[0];
  const uint32_t ny = size[1] * grid[1];
  const ExprPtr linear =
      add(invocation_id(0), mul(u32(nx), add(invocation_id(1), mul(u32(ny), invocation_id(2)))));
  Body body;
  for (uint32_t axis = 0; axis < 3; ++axis) {
    body.push_back(store("out", add(mul(linear, u32(9)), u32(axis)), invocation_id(axis)));
    body.push_back(store("out", add(mul(linear, u32(9)), u32(3 + axis)), workgroup_id(axis)));
    body.push_back(store("out", add(mul(linear, u32(9)), u32(6 + axis)), local_id(axis)));
  }
  const Program p{{kOutput}, size, body};
  const uint32_t total = nx * ny * size[2] * grid[2];
  std::vector<uint32_t> expected(total * 9);
  for (uint32_t z = 0; z < size[2] * grid[2]; ++z) {
    for (uint32_t y = 0; y < ny; ++y) {
      for (uint32_t x = 0; x < nx; ++x) {
        const uint32_t g[3] = {x, y, z};
        uint32_t* row = &expected[(x + nx * (y + ny * z)) * 9];
        for (uint32_t a = 0; a < 3; ++a) {
          row[a] = g[a];
          row[3 + a] = g[a] / size[a];
          row[6 + a] = g[a] % size[a];
        }
      }
    }
  }
  BufferSet out = testing::run_ok(testing::shared_backend(), p,
                                  {{"out", ByteBuffer(total * 36, 0xAB)}}, Grid{grid});
  EXPECT_EQ(out["out"], words(expected));
}

}  // namespace
}  // namespace vyre::vulkan
