// Solo stepping (Schedule::Stepping::Solo): between barriers the invocations
// of a workgroup run one at a time, each to its next barrier, its return or
// its end, in the schedule's lane order; and the schedule probes use it to
// flag what lockstep cannot show (a lost update between two invocations of
// one workgroup). Every expected word is worked out by hand in the comments.
#include <gtest/gtest.h>

#include "reference/exec/schedule_probe.h"
#include "reference/interpreter.h"
#include "spec/ir/builder.h"
#include "spec/ir/host_words.h"

namespace vyre::reference {
namespace {

using namespace vyre::build;

constexpr uint32_t kUntouched = 0xABABABAB;

/// An unchecked run (solo stepping is for unobserved runs) under `schedule`.
RunResult run_under(const Program& p, const BufferSet& inputs, Grid grid, Schedule schedule) {
  RunOptions options;
  options.checks = false;
  options.schedule = schedule;
  Result<RunResult> r = run(p, inputs, grid, options);
  EXPECT_TRUE(r.ok()) << r.error().message;
  return r.ok() ? std::move(*r) : RunResult{};
}

Schedule solo(Schedule::Kind kind, uint64_t seed = 0) {
  return Schedule{kind, seed, Schedule::Grouping::Default, Schedule::Stepping::Solo};
}

/// Reads c[0] with atomic_or(c, 0), then writes it back plus one by a
/// compare-exchange that is not retried.
Body lost_update() {
  return {let("seen", atomic(AtomicOp::Or, "c", u32(0), u32(0))),
          let("won", compare_exchange("c", u32(0), var("seen"), add(var("seen"), u32(1))))};
}

Program counter_only(std::array<uint32_t, 3> wg, Body body) {
  return Program{{storage("c", 0, BufferAccess::ReadWrite)}, wg, std::move(body)};
}

TEST(SoloStepping, NoUpdateIsLostOneInvocationAtATime) {
  // Four invocations of one workgroup. In lockstep all read 0 and only the
  // first compare-exchange (0 -> 1) succeeds: 1. Alone, each reads what the
  // previous one wrote and succeeds: 4.
  const Program p = counter_only({4, 1, 1}, lost_update());
  const BufferSet in = {{"c", to_bytes({0})}};
  EXPECT_EQ(to_words(run_under(p, in, Grid{}, Schedule{}).outputs.at("c")),
            std::vector<uint32_t>{1});
  for (const Schedule& s : {solo(Schedule::Kind::Canonical), solo(Schedule::Kind::Reversed),
                            solo(Schedule::Kind::Random, 9)}) {
    EXPECT_EQ(to_words(run_under(p, in, Grid{}, s).outputs.at("c")), std::vector<uint32_t>{4})
        << describe(s);
  }
}

TEST(SoloStepping, InvocationsTakeTurnsInTheKindsOrderAndStopAtEachBarrier) {
  // Each invocation takes two tickets, a barrier, two more; then stores them
  // and its right neighbour's slot of workgroup memory, written before the
  // barrier. Canonical solo: lane l takes 2l and 2l+1 before the barrier,
  // 8+2l and 9+2l after it. Reversed: lane 3 goes first, so lane l takes
  // 2(3-l), 2(3-l)+1, then 8+2(3-l), 9+2(3-l). A lane run past the barrier
  // would take four tickets in a row and read a neighbour's slot still 0.
  const ExprPtr lid = local_id(0);
  const Program p{
      {storage("c", 0, BufferAccess::ReadWrite), storage("out", 1, BufferAccess::ReadWrite),
       storage("nb", 2, BufferAccess::ReadWrite), workgroup("s", DataType::U32, 4)},
      {4, 1, 1},
      {store("s", lid, add(lid, u32(1))), let("a", atomic(AtomicOp::Add, "c", u32(0), u32(1))),
       let("b", atomic(AtomicOp::Add, "c", u32(0), u32(1))), barrier(),
       let("x", atomic(AtomicOp::Add, "c", u32(0), u32(1))),
       let("y", atomic(AtomicOp::Add, "c", u32(0), u32(1))),
       store("out", mul(lid, u32(4)), var("a")),
       store("out", add(mul(lid, u32(4)), u32(1)), var("b")),
       store("out", add(mul(lid, u32(4)), u32(2)), var("x")),
       store("out", add(mul(lid, u32(4)), u32(3)), var("y")),
       store("nb", lid, load("s", mod(add(lid, u32(1)), u32(4))))}};
  const BufferSet in = {{"c", to_bytes({0})},
                        {"out", to_bytes(std::vector<uint32_t>(16, kUntouched))},
                        {"nb", to_bytes(std::vector<uint32_t>(4, kUntouched))}};
  const RunResult canonical = run_under(p, in, Grid{}, solo(Schedule::Kind::Canonical));
  EXPECT_EQ(to_words(canonical.outputs.at("out")),
            (std::vector<uint32_t>{0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15}));
  EXPECT_EQ(to_words(canonical.outputs.at("nb")), (std::vector<uint32_t>{2, 3, 4, 1}));
  const RunResult reversed = run_under(p, in, Grid{}, solo(Schedule::Kind::Reversed));
  EXPECT_EQ(to_words(reversed.outputs.at("out")),
            (std::vector<uint32_t>{6, 7, 14, 15, 4, 5, 12, 13, 2, 3, 10, 11, 0, 1, 8, 9}));
  EXPECT_EQ(to_words(reversed.outputs.at("nb")), (std::vector<uint32_t>{2, 3, 4, 1}));
  // Lockstep, for contrast: every lane's first ticket before any second one.
  const RunResult lockstep = run_under(p, in, Grid{}, Schedule{});
  EXPECT_EQ(to_words(lockstep.outputs.at("out")),
            (std::vector<uint32_t>{0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15}));
}

TEST(SoloStepping, ABarrierInAUniformLoopEndsEachStretch) {
  // Three iterations of: two tickets, barrier, store them. In iteration i the
  // three lanes take tickets 6i.. one lane after another, so lane l gets
  // 6i+2l and 6i+2l+1, stored at 2(3i+l) and 2(3i+l)+1: out[k] = k.
  const ExprPtr slot = mul(add(mul(var("i"), u32(3)), local_id(0)), u32(2));
  const Program p{
      {storage("c", 0, BufferAccess::ReadWrite), storage("out", 1, BufferAccess::ReadWrite)},
      {3, 1, 1},
      {loop("i", u32(0), u32(3),
            {let("x", atomic(AtomicOp::Add, "c", u32(0), u32(1))),
             let("y", atomic(AtomicOp::Add, "c", u32(0), u32(1))), barrier(),
             store("out", slot, var("x")), store("out", add(slot, u32(1)), var("y"))})}};
  const BufferSet in = {{"c", to_bytes({0})},
                        {"out", to_bytes(std::vector<uint32_t>(18, kUntouched))}};
  std::vector<uint32_t> expected(18);
  for (uint32_t k = 0; k < 18; ++k) expected[k] = k;
  EXPECT_EQ(to_words(run_under(p, in, Grid{}, solo(Schedule::Kind::Canonical)).outputs.at("out")),
            expected);
}

TEST(SoloStepping, AReturnEndsOnlyItsInvocation) {
  // Lane 1 returns; lanes 0, 2, 3 take two tickets each in turn: 0 1, 2 3,
  // 4 5. Lane 1's slots keep their initial words.
  const ExprPtr lid = local_id(0);
  const Program p{
      {storage("c", 0, BufferAccess::ReadWrite), storage("out", 1, BufferAccess::ReadWrite)},
      {4, 1, 1},
      {if_(eq(lid, u32(1)), {ret()}), let("a", atomic(AtomicOp::Add, "c", u32(0), u32(1))),
       let("b", atomic(AtomicOp::Add, "c", u32(0), u32(1))),
       store("out", mul(lid, u32(2)), var("a")),
       store("out", add(mul(lid, u32(2)), u32(1)), var("b"))}};
  const BufferSet in = {{"c", to_bytes({0})},
                        {"out", to_bytes(std::vector<uint32_t>(8, kUntouched))}};
  EXPECT_EQ(to_words(run_under(p, in, Grid{}, solo(Schedule::Kind::Canonical)).outputs.at("out")),
            (std::vector<uint32_t>{0, 1, kUntouched, kUntouched, 2, 3, 4, 5}));
}

TEST(SoloStepping, AWorkgroupThatReturnsWholeNeverReachesTheBarrier) {
  // Two workgroups of two, one at a time. Workgroup 0's lanes take tickets
  // 0 1 and 2 3, then all return before the barrier; workgroup 1's take
  // 4 5 and 6 7 and store them after it.
  const ExprPtr lid = local_id(0);
  const Program p{
      {storage("c", 0, BufferAccess::ReadWrite), storage("out", 1, BufferAccess::ReadWrite)},
      {2, 1, 1},
      {let("a", atomic(AtomicOp::Add, "c", u32(0), u32(1))),
       let("b", atomic(AtomicOp::Add, "c", u32(0), u32(1))),
       if_(eq(workgroup_id(0), u32(0)), {ret()}), barrier(),
       store("out", mul(lid, u32(2)), var("a")),
       store("out", add(mul(lid, u32(2)), u32(1)), var("b"))}};
  const BufferSet in = {{"c", to_bytes({0})},
                        {"out", to_bytes(std::vector<uint32_t>(4, kUntouched))}};
  const RunResult r = run_under(p, in, Grid{{2, 1, 1}}, solo(Schedule::Kind::Canonical));
  EXPECT_EQ(to_words(r.outputs.at("out")), (std::vector<uint32_t>{4, 5, 6, 7}));
  EXPECT_EQ(to_words(r.outputs.at("c")), std::vector<uint32_t>{8});
}

TEST(SoloStepping, TheProbesFlagALostUpdateWithinAWorkgroup) {
  // Two invocations of one workgroup (reports/driver-bugs/UNTRIAGED.md):
  // c ends 1 in lockstep, 2 out of step.
  const Program p = counter_only({2, 1, 1}, lost_update());
  const Result<RunResult> r = run(p, {{"c", to_bytes({0})}}, Grid{});
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->violations.size(), 1u);
  const Violation& v = r->violations.front();
  EXPECT_EQ(v.kind, Violation::Kind::ScheduleDependence);
  EXPECT_NE(v.message.find("differ between the canonical and the canonical (invocations out of "
                           "step) schedule (c[0] 0x00000001 vs 0x00000002)"),
            std::string::npos)
      << v.message;
  // No lockstep schedule can tell: under each of them the counter ends 1.
  for (const Schedule& s : probe_schedules(Schedule{}, 8, false)) {
    EXPECT_EQ(to_words(run_under(p, {{"c", to_bytes({0})}}, Grid{}, s).outputs.at("c")),
              std::vector<uint32_t>{1})
        << describe(s);
  }
}

TEST(SoloStepping, TheProbesLeaveOrderFreeAtomicsWithinAWorkgroupAlone) {
  // A compare-exchange retried until it wins: a try fails only when another
  // invocation's succeeded, so four tries each suffice for four invocations;
  // the counter ends 4 and every invocation reads 4 after the barrier.
  const Program retried{
      {storage("c", 0, BufferAccess::ReadWrite), storage("out", 1, BufferAccess::ReadWrite)},
      {4, 1, 1},
      {let("done", u32(0)),
       loop("try", u32(0), u32(4),
            {if_(eq(var("done"), u32(0)),
                 {let("seen", atomic(AtomicOp::Or, "c", u32(0), u32(0))),
                  if_(eq(compare_exchange("c", u32(0), var("seen"), add(var("seen"), u32(1))),
                         var("seen")),
                      {assign("done", u32(1))})})}),
       barrier(), store("out", local_id(0), load("c", u32(0)))}};
  // Adds whose total is read after a barrier: 4 everywhere.
  const Program added{
      {storage("c", 0, BufferAccess::ReadWrite), storage("out", 1, BufferAccess::ReadWrite)},
      {4, 1, 1},
      {let("old", atomic(AtomicOp::Add, "c", u32(0), u32(1))), barrier(),
       store("out", local_id(0), load("c", u32(0)))}};
  for (const Program* p : {&retried, &added}) {
    const Result<RunResult> r =
        run(*p, {{"c", to_bytes({0})}, {"out", to_bytes({0, 0, 0, 0})}}, Grid{});
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_TRUE(r->conforming()) << r->violations.front().message;
    EXPECT_EQ(to_words(r->outputs.at("c")), std::vector<uint32_t>{4});
    EXPECT_EQ(to_words(r->outputs.at("out")), (std::vector<uint32_t>{4, 4, 4, 4}));
  }
}

TEST(SoloStepping, TheSoloProbeIsAddedOnlyWhereAWorkgroupHasTwoInvocations) {
  const Schedule own;
  const std::vector<Schedule> with = probe_schedules(own, 4, true);
  ASSERT_EQ(with.size(), 5u);
  EXPECT_EQ(with.back().stepping, Schedule::Stepping::Solo);
  for (size_t i = 0; i + 1 < with.size(); ++i) {
    EXPECT_EQ(with[i].stepping, Schedule::Stepping::Lockstep);
  }
  EXPECT_EQ(probe_schedules(own, 4, false).size(), 4u);
  EXPECT_TRUE(probe_schedules(own, 0, true).empty());
  // A run under the canonical solo schedule is probed by the reversed one.
  const std::vector<Schedule> from_solo = probe_schedules(solo(Schedule::Kind::Canonical), 1, true);
  ASSERT_EQ(from_solo.size(), 2u);
  EXPECT_EQ(from_solo.back().kind, Schedule::Kind::Reversed);
  EXPECT_EQ(from_solo.back().stepping, Schedule::Stepping::Solo);
  // One invocation per workgroup: nothing to put out of step.
  const Result<RunResult> r =
      run(counter_only({1, 1, 1}, {let("old", atomic(AtomicOp::Exchange, "c", u32(0), u32(5)))}),
          {{"c", to_bytes({0})}}, Grid{});
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->conforming());
}

TEST(SoloStepping, TheSoloProbeMayOutspendTheBudgetByItsPerLaneOverhead) {
  // 64 invocations add in a loop; the total, read after the barrier, is
  // 64 * 32 in any order. With the budget just what the checked run spent,
  // a solo run (each node dispatched per lane) needs more: the probe's
  // allowance keeps that from looking like a schedule the program cannot
  // finish under.
  const Program p{
      {storage("c", 0, BufferAccess::ReadWrite), storage("out", 1, BufferAccess::ReadWrite)},
      {64, 1, 1},
      {loop("i", u32(0), u32(32), {let("old", atomic(AtomicOp::Add, "c", u32(0), u32(1)))}),
       barrier(), store("out", local_id(0), load("c", u32(0)))}};
  const BufferSet in = {{"c", to_bytes({0})}, {"out", to_bytes(std::vector<uint32_t>(64, 0))}};
  const Result<RunResult> generous = run(p, in, Grid{});
  ASSERT_TRUE(generous.ok()) << generous.error().message;
  ASSERT_TRUE(generous->conforming()) << generous->violations.front().message;
  RunOptions tight;
  tight.step_budget = generous->steps;
  const Result<RunResult> r = run(p, in, Grid{}, tight);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->conforming()) << r->violations.front().message;
  EXPECT_EQ(to_words(r->outputs.at("c")), std::vector<uint32_t>{64 * 32});
  // The allowance is needed: alone under that budget, the solo run stops.
  RunOptions solo_tight = tight;
  solo_tight.checks = false;
  solo_tight.schedule = solo(Schedule::Kind::Canonical);
  const Result<RunResult> alone = run(p, in, Grid{}, solo_tight);
  ASSERT_FALSE(alone.ok());
  EXPECT_NE(alone.error().message.find("step budget"), std::string::npos) << alone.error().message;
}

}  // namespace
}  // namespace vyre::reference
