// run(): the lockstep core on small programs with hand-written expectations,
// scopes, control flow and the step budget. Operator tables and the
// execution-model archetypes are in spec_tables/; bad input in
// run_checks_test.cc; observers in observers/*_test.cc.
#include "reference/interpreter.h"

#include <gtest/gtest.h>

#include "spec/ir/builder.h"
#include "spec/ir/host_words.h"

namespace vyre::reference {
namespace {

using namespace vyre::build;

std::vector<uint32_t> run_words(const Program& p, const BufferSet& inputs, const Grid& grid,
                                const std::string& output, RunOptions options = {}) {
  const Result<RunResult> r = run(p, inputs, grid, options);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  if (!r.ok()) return {};
  EXPECT_TRUE(r->conforming()) << r->violations.front().message;
  return to_words(r->outputs.at(output));
}

Program elementwise_add_one() {
  return Program{
      {storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
      {4, 1, 1},
      {if_(lt(invocation_id(0), buflen("out")),
           {store("out", invocation_id(0), add(load("in", invocation_id(0)), u32(1)))})}};
}

TEST(Interpreter, ElementwiseAddAcrossWorkgroups) {
  const std::vector<uint32_t> out =
      run_words(elementwise_add_one(),
                {{"in", to_bytes({0, 1, 0xFFFFFFFF, 41, 7, 8, 9, 10, 11, 12})},
                 {"out", to_bytes({0, 0, 0, 0, 0, 0, 0, 0, 0, 0})}},
                Grid{{3, 1, 1}}, "out");
  EXPECT_EQ(out, (std::vector<uint32_t>{1, 2, 0, 42, 8, 9, 10, 11, 12, 13}));
}

TEST(Interpreter, LaneOpsCountsEveryNodePerActiveLane) {
  // 1 invocation: Store (1) + InvocationId (1) + LitU32 (1) = 3 lane-operations.
  const Program p{{storage("out", 0, BufferAccess::ReadWrite)},
                  {1, 1, 1},
                  {store("out", invocation_id(0), u32(5))}};
  const Result<RunResult> r = run(p, {{"out", to_bytes({0})}}, Grid{});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->lane_ops, 3u);
  EXPECT_EQ(to_words(r->outputs.at("out")), std::vector<uint32_t>{5});
}

TEST(Interpreter, Semantics_S4_LetAssignAndScopes) {
  // let x = 1; { let y = 2; x = x + y; } if 1 { x = x * 10; } out[0] = x;
  const Program p{
      {storage("out", 0, BufferAccess::ReadWrite)},
      {1, 1, 1},
      {let("x", u32(1)), block({let("y", u32(2)), assign("x", add(var("x"), var("y")))}),
       if_(u32(1), {assign("x", mul(var("x"), u32(10)))}), store("out", u32(0), var("x"))}};
  EXPECT_EQ(run_words(p, {{"out", to_bytes({0})}}, Grid{}, "out"), std::vector<uint32_t>{30});
}

TEST(Interpreter, Semantics_S4_AssignOnlyChangesActiveLanes) {
  // Lanes with odd id take the branch; the others keep x = 7.
  const Program p{{storage("out", 0, BufferAccess::ReadWrite)},
                  {4, 1, 1},
                  {let("x", u32(7)), if_(bit_and(local_id(0), u32(1)), {assign("x", local_id(0))}),
                   store("out", local_id(0), var("x"))}};
  EXPECT_EQ(run_words(p, {{"out", to_bytes({0, 0, 0, 0})}}, Grid{}, "out"),
            (std::vector<uint32_t>{7, 1, 7, 3}));
}

TEST(Interpreter, Semantics_S4_LoopWithPerLaneBoundsSumsHalfOpenRange) {
  // sum of i in [lid, 2*lid) per lane: lane 3 -> 3+4+5 = 12.
  const Program p{
      {storage("out", 0, BufferAccess::ReadWrite)},
      {4, 1, 1},
      {let("s", u32(0)),
       loop("i", local_id(0), mul(local_id(0), u32(2)), {assign("s", add(var("s"), var("i")))}),
       store("out", local_id(0), var("s"))}};
  EXPECT_EQ(run_words(p, {{"out", to_bytes({9, 9, 9, 9})}}, Grid{}, "out"),
            (std::vector<uint32_t>{0, 1, 5, 12}));
}

TEST(Interpreter, Semantics_S4_ReturnInsideLoopEndsOnlyThoseLanes) {
  // Lane l counts iterations until i == l, where it returns before storing.
  const Program p{
      {storage("out", 0, BufferAccess::ReadWrite)},
      {4, 1, 1},
      {let("n", u32(0)),
       loop("i", u32(0), u32(3),
            {if_(eq(var("i"), local_id(0)), {ret()}), assign("n", add(var("n"), u32(1)))}),
       store("out", local_id(0), var("n"))}};
  // Lanes 0-2 return in iteration i == lane; lane 3 runs all 3 iterations.
  EXPECT_EQ(run_words(p, {{"out", to_bytes({9, 9, 9, 9})}}, Grid{}, "out"),
            (std::vector<uint32_t>{9, 9, 9, 3}));
}

TEST(Interpreter, Semantics_S4_CallInlinesComposition) {
  // primitive.clamp(a, b, c) = min(max(a, b), c); the call's args see caller locals.
  const Program p{{storage("out", 0, BufferAccess::ReadWrite)},
                  {1, 1, 1},
                  {let("a", u32(50)),
                   store("out", u32(0), call("primitive.clamp", {var("a"), u32(10), u32(20)})),
                   store("out", u32(1), call("primitive.clamp", {u32(3), u32(10), u32(20)})),
                   store("out", u32(2), call("primitive.rotl", {u32(0x80000001), u32(33)}))}};
  EXPECT_EQ(run_words(p, {{"out", to_bytes({0, 0, 0})}}, Grid{}, "out"),
            (std::vector<uint32_t>{20, 10, 3}));
}

TEST(Interpreter, Semantics_S1_TrailingPartialElementIsUnchanged) {
  const Program p{{storage("out", 0, BufferAccess::ReadWrite)},
                  {1, 1, 1},
                  {store("out", u32(0), buflen("out"))}};
  ByteBuffer in = to_bytes({0xAAAAAAAA});
  in.push_back(0x5A);
  in.push_back(0xA5);
  const Result<RunResult> r = run(p, {{"out", in}}, Grid{});
  ASSERT_TRUE(r.ok()) << r.error().message;
  const ByteBuffer expected = {1, 0, 0, 0, 0x5A, 0xA5};
  EXPECT_EQ(r->outputs.at("out"), expected);
}

TEST(Interpreter, StepBudgetStopsNestedHugeLoops) {
  const Program p{{storage("out", 0, BufferAccess::ReadWrite)},
                  {1, 1, 1},
                  {loop("i", u32(0), u32(0xFFFFFFFF),
                        {loop("j", u32(0), u32(0xFFFFFFFF), {store("out", u32(0), var("j"))})})}};
  RunOptions options;
  options.step_budget = 1'000'000;
  const Result<RunResult> r = run(p, {{"out", to_bytes({0})}}, Grid{}, options);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("step budget"), std::string::npos) << r.error().message;
}

TEST(Interpreter, StepBudgetStopsEmptyLoopBody) {
  const Program p{{storage("out", 0, BufferAccess::ReadWrite)},
                  {1, 1, 1},
                  {loop("i", u32(0), u32(0xFFFFFFFF), {})}};
  RunOptions options;
  options.step_budget = 100'000;
  const Result<RunResult> r = run(p, {{"out", to_bytes({0})}}, Grid{}, options);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("step budget"), std::string::npos);
}

/// Lane 0 alone loops `trips` times in workgroups of 64 lanes; the others
/// skip the loop. A workgroup is a batch of 64 lanes (kTargetBatchLanes).
Program one_lane_loops(uint32_t trips) {
  return Program{{storage("out", 0, BufferAccess::ReadWrite)},
                 {64, 1, 1},
                 {if_(eq(invocation_id(0), u32(0)),
                      {loop("i", u32(0), u32(trips), {store("out", u32(0), var("i"))})})}};
}

TEST(Interpreter, StepBudgetChargesTheLanesComputedNotJustTheActiveOnes) {
  // Each iteration's four nodes compute the 64 lanes of the batch: 1000
  // iterations take ~1000 * (64 * 4 + 4 * 16) = 320,000 steps, past a budget
  // of 200,000. Counting active lanes only (1 per node, +16 per node) they
  // would take ~68,000.
  const BufferSet out = {{"out", to_bytes({0})}};
  RunOptions tight;
  tight.step_budget = 200'000;
  const Result<RunResult> stopped = run(one_lane_loops(1000), out, Grid{{1, 1, 1}}, tight);
  ASSERT_FALSE(stopped.ok());
  EXPECT_NE(stopped.error().message.find("step budget"), std::string::npos)
      << stopped.error().message;
  RunOptions roomy;
  roomy.step_budget = 1'000'000;
  const Result<RunResult> done = run(one_lane_loops(1000), out, Grid{{1, 1, 1}}, roomy);
  ASSERT_TRUE(done.ok()) << done.error().message;
  EXPECT_EQ(to_words(done->outputs.at("out")), std::vector<uint32_t>{999});
}

TEST(Interpreter, StepBudgetStopsARunawayLaneInAWideGrid) {
  RunOptions options;
  options.step_budget = 50'000'000;
  const Result<RunResult> r =
      run(one_lane_loops(0xFFFFFFFF), {{"out", to_bytes({0})}}, Grid{{32, 1, 1}}, options);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("step budget"), std::string::npos) << r.error().message;
}

TEST(Interpreter, StepBudgetChargesZeroingWorkgroupMemoryPerWorkgroup) {
  // Each workgroup starts by zeroing 2^20 words: 100 workgroups are
  // > 10^8 steps, 50 are ~5.2 * 10^7, and their statements only ~100 each.
  const Program p{
      {storage("out", 0, BufferAccess::ReadWrite), workgroup("t", DataType::U32, 1u << 20)},
      {1, 1, 1},
      {store("out", workgroup_id(0), load("t", workgroup_id(0)))}};
  RunOptions options;
  options.step_budget = 100'000'000;
  options.checks = false;
  const Result<RunResult> many =
      run(p, {{"out", to_bytes(std::vector<uint32_t>(100, 9))}}, Grid{{100, 1, 1}}, options);
  ASSERT_FALSE(many.ok());
  EXPECT_NE(many.error().message.find("zeroes 1048576 words of workgroup memory"),
            std::string::npos)
      << many.error().message;
  const Result<RunResult> few =
      run(p, {{"out", to_bytes(std::vector<uint32_t>(50, 9))}}, Grid{{50, 1, 1}}, options);
  ASSERT_TRUE(few.ok()) << few.error().message;
  EXPECT_EQ(to_words(few->outputs.at("out")), std::vector<uint32_t>(50, 0));
}

TEST(Interpreter, InvalidProgramIsAnErrorWithRuleIds) {
  const Program p{
      {storage("out", 0, BufferAccess::ReadWrite)}, {1, 1, 1}, {store("nowhere", u32(0), u32(1))}};
  const Result<RunResult> r = run(p, {{"out", to_bytes({0})}}, Grid{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("V004"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace vyre::reference
