// The observers on small programs whose verdict is known by construction:
// races (SEMANTICS S6), divergent barriers (dynamic V010), and out-of-bounds
// counting with strict mode (S5).
#include <gtest/gtest.h>

#include "reference/interpreter.h"
#include "reference/observers/observer.h"
#include "spec/ir/builder.h"
#include "spec/ir/host_words.h"

namespace vyre::reference {
namespace {

using namespace vyre::build;
using Kind = Violation::Kind;

RunResult run_ok(const Program& p, const BufferSet& in, Grid grid = {}, RunOptions options = {}) {
  Result<RunResult> r = run(p, in, grid, options);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(r).value() : RunResult{};
}

/// Runs without validation: the static V010 rejects every program that could
/// reach a barrier divergently, so the dynamic check needs this entry point.
RunResult run_unchecked_program(const Program& p, const BufferSet& in) {
  Result<RunResult> r = run_unvalidated(p, in, Grid{});
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(r).value() : RunResult{};
}

BufferSet zeros(const std::string& name, size_t words) {
  return {{name, to_bytes(std::vector<uint32_t>(words, 0))}};
}

Program with_body(std::array<uint32_t, 3> wg, Body body, std::vector<BufferDecl> extra = {}) {
  std::vector<BufferDecl> buffers = {storage("out", 0, BufferAccess::ReadWrite)};
  for (BufferDecl& b : extra) buffers.push_back(std::move(b));
  return Program{std::move(buffers), wg, std::move(body)};
}

TEST(RaceDetector, Semantics_S6_TwoStoresToOneElementRace) {
  const RunResult r =
      run_ok(with_body({2, 1, 1}, {store("out", u32(0), local_id(0))}), zeros("out", 1));
  ASSERT_EQ(r.count(Kind::DataRace), 1u);
  const Violation& v = r.violations.front();
  EXPECT_EQ(v.buffer, "out");
  EXPECT_EQ(v.index, 0u);
  ASSERT_EQ(v.invocations.size(), 2u);
  EXPECT_NE(v.invocations[0], v.invocations[1]);
  EXPECT_NE(v.message.find("data race on `out`[0]"), std::string::npos) << v.message;
}

/// `n` as written at line `line`, column 1.
Node at_line(Node n, uint32_t line) {
  n.loc = SourceLoc{line, 1};
  return n;
}

TEST(RaceDetector, Semantics_S6_ARaceNamesBothAccessesNodes) {
  // Lane 0 stores at line 3, then (next statement) lane 1 stores at line 4.
  const Body body = {if_(eq(local_id(0), u32(0)), {at_line(store("out", u32(0), u32(1)), 3)}),
                     if_(eq(local_id(0), u32(1)), {at_line(store("out", u32(0), u32(2)), 4)})};
  const RunResult r = run_ok(with_body({2, 1, 1}, body), zeros("out", 1));
  ASSERT_EQ(r.count(Kind::DataRace), 1u);
  const Violation& v = r.violations.front();
  EXPECT_EQ(v.loc.line, 4u);
  EXPECT_EQ(v.earlier_loc.line, 3u);
  EXPECT_EQ(v.invocations[0], (std::array<uint32_t, 3>{0, 0, 0}));
  EXPECT_EQ(v.invocations[1], (std::array<uint32_t, 3>{1, 0, 0}));
  EXPECT_NE(v.message.find("writes it at line 4:1"), std::string::npos) << v.message;
  EXPECT_NE(v.message.find("wrote it at line 3:1"), std::string::npos) << v.message;
}

TEST(RaceDetector, Semantics_S6_ARaceNamesTheNodeOfTheOnlyStore) {
  // One Store node at line 5, both lanes on out[0]: the earlier access is that
  // node too (the detector keeps no per-element node when only one node writes).
  const RunResult r = run_ok(with_body({2, 1, 1}, {at_line(store("out", u32(0), local_id(0)), 5)}),
                             zeros("out", 1));
  ASSERT_EQ(r.count(Kind::DataRace), 1u);
  EXPECT_EQ(r.violations.front().loc.line, 5u);
  EXPECT_EQ(r.violations.front().earlier_loc.line, 5u);
}

/// load(buf, index) as written at line `line`, column 1.
ExprPtr load_at(std::string buf, ExprPtr index, uint32_t line) {
  return std::make_shared<const Expr>(
      Expr{expr::Load{std::move(buf), std::move(index)}, SourceLoc{line, 1}});
}

TEST(RaceDetector, Semantics_S6_ARaceWithTheSecondRecordNamesItsNode) {
  // Lane 0 reads out[0] at line 3, lane 1 at line 4, then lane 1 writes it at
  // line 5: the latest read is lane 1's own, so the race is with lane 0's
  // read, which only the element's second record remembers.
  const Body body = {if_(eq(local_id(0), u32(0)), {let("a", load_at("out", u32(0), 3))}),
                     if_(eq(local_id(0), u32(1)), {let("b", load_at("out", u32(0), 4)),
                                                   at_line(store("out", u32(0), u32(9)), 5)})};
  const RunResult r = run_ok(with_body({2, 1, 1}, body), zeros("out", 1));
  ASSERT_EQ(r.count(Kind::DataRace), 1u);
  const Violation& v = r.violations.front();
  EXPECT_EQ(v.loc.line, 5u);
  EXPECT_EQ(v.earlier_loc.line, 3u);
  EXPECT_EQ(v.invocations[0], (std::array<uint32_t, 3>{0, 0, 0}));
  EXPECT_EQ(v.invocations[1], (std::array<uint32_t, 3>{1, 0, 0}));
}

TEST(RaceDetector, SecondRecordsCountAgainstTheMemoryLimitAsTheyGrow) {
  // Two invocations both read every element of a 2^16-word buffer: race-free,
  // but each element needs a second record. Up front the run needs the
  // buffer and its output copy (512 KiB), its latest-read slots (512 KiB) and
  // reported bits (8 KiB), about 1.03 MiB. The second records then grow to
  // 64K x 12 bytes (768 KiB), passing through a 32768-slot hash table of
  // 16-byte slots (512 KiB): past 1.5 MiB, so the run ends with the
  // memory-limit Error naming them; 4 MiB is enough.
  const Program p{
      {storage("data", 0, BufferAccess::ReadWrite), storage("out", 1, BufferAccess::ReadWrite)},
      {2, 1, 1},
      {loop("j", u32(0), u32(1u << 16), {store("out", local_id(0), load("data", var("j")))})}};
  BufferSet in = zeros("data", size_t{1} << 16);
  in["out"] = to_bytes({0, 0});
  RunOptions options;
  options.max_memory_bytes = 1536 * 1024;
  const Result<RunResult> refused = run(p, in, Grid{}, options);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find(
                "the race detector's records of elements that several invocations access, more "
                "than the limit of 1572864"),
            std::string::npos)
      << refused.error().message;
  EXPECT_NE(refused.error().message.find("Fix:"), std::string::npos);
  options.max_memory_bytes = 4u << 20;
  const RunResult r = run_ok(p, in, Grid{}, options);
  EXPECT_TRUE(r.conforming());
  options.checks = false;
  options.max_memory_bytes = 1536 * 1024;
  run_ok(p, in, Grid{}, options);
}

TEST(RaceDetector, Semantics_S6_WorkgroupMemoryOfEarlierWorkgroupsNeverRaces) {
  // Each workgroup's lane 0 writes s[0] and its lane 1 reads it after a
  // barrier: race-free, and workgroup 1's accesses touch other memory than
  // workgroup 0's (records of earlier workgroups must not count).
  const Body body = {
      if_(eq(local_id(0), u32(0)), {store("s", u32(0), add(workgroup_id(0), u32(5)))}), barrier(),
      if_(eq(local_id(0), u32(1)), {store("out", workgroup_id(0), load("s", u32(0)))})};
  const RunResult r = run_ok(with_body({2, 1, 1}, body, {workgroup("s", DataType::U32, 1)}),
                             zeros("out", 3), Grid{{3, 1, 1}});
  EXPECT_TRUE(r.conforming()) << r.violations.front().message;
  EXPECT_EQ(to_words(r.outputs.at("out")), (std::vector<uint32_t>{5, 6, 7}));
  // Without the barrier, every workgroup races on its own s[0].
  const Body unfenced = {
      if_(eq(local_id(0), u32(0)), {store("s", u32(0), add(workgroup_id(0), u32(5)))}),
      if_(eq(local_id(0), u32(1)), {store("out", workgroup_id(0), load("s", u32(0)))})};
  const RunResult racy = run_ok(with_body({2, 1, 1}, unfenced, {workgroup("s", DataType::U32, 1)}),
                                zeros("out", 3), Grid{{3, 1, 1}});
  EXPECT_EQ(racy.count(Kind::DataRace), 1u);  // s[0] is reported once per run
}

TEST(RaceDetector, Semantics_S6_WriteThenOtherInvocationReadRacesWithoutBarrier) {
  // Lane 0 writes out[0]; lane 1 reads it into out[1].
  const Body body = {if_(eq(local_id(0), u32(0)), {store("out", u32(0), u32(7))}),
                     if_(eq(local_id(0), u32(1)), {store("out", u32(1), load("out", u32(0)))})};
  const RunResult racy = run_ok(with_body({2, 1, 1}, body), zeros("out", 2));
  EXPECT_EQ(racy.count(Kind::DataRace), 1u);
  EXPECT_EQ(racy.violations.front().index, 0u);

  const Body fenced = {if_(eq(local_id(0), u32(0)), {store("out", u32(0), u32(7))}), barrier(),
                       if_(eq(local_id(0), u32(1)), {store("out", u32(1), load("out", u32(0)))})};
  const RunResult ok = run_ok(with_body({2, 1, 1}, fenced), zeros("out", 2));
  EXPECT_TRUE(ok.conforming()) << ok.violations.front().message;
  EXPECT_EQ(to_words(ok.outputs.at("out")), (std::vector<uint32_t>{7, 7}));
}

TEST(RaceDetector, Semantics_S6_AcrossWorkgroupsABarrierDoesNotHelp) {
  const Body body = {if_(eq(workgroup_id(0), u32(0)), {store("out", u32(0), u32(7))}), barrier(),
                     if_(eq(workgroup_id(0), u32(1)), {store("out", u32(1), load("out", u32(0)))})};
  const RunResult r = run_ok(with_body({1, 1, 1}, body), zeros("out", 2), Grid{{2, 1, 1}});
  ASSERT_EQ(r.count(Kind::DataRace), 1u);
  EXPECT_NE(r.violations.front().message.find("different workgroups"), std::string::npos);
}

TEST(RaceDetector, Semantics_S6_AtomicsDoNotRaceWithAtomics) {
  const Body body = {let("old", atomic(AtomicOp::Add, "out", u32(0), u32(1)))};
  const RunResult r = run_ok(with_body({8, 1, 1}, body), zeros("out", 1), Grid{{4, 1, 1}});
  EXPECT_TRUE(r.conforming());
  EXPECT_EQ(to_words(r.outputs.at("out")), std::vector<uint32_t>{32});
}

TEST(RaceDetector, Semantics_S6_AtomicAndPlainReadRace) {
  const Body body = {
      if_(eq(local_id(0), u32(0)), {let("old", atomic(AtomicOp::Add, "out", u32(0), u32(1)))}),
      if_(eq(local_id(0), u32(1)), {store("out", u32(1), load("out", u32(0)))})};
  const RunResult r = run_ok(with_body({2, 1, 1}, body), zeros("out", 2));
  EXPECT_EQ(r.count(Kind::DataRace), 1u);
}

TEST(RaceDetector, Semantics_S6_ManyReadersThenOneOfThemWritesIsARace) {
  // Every lane reads out[0]; then lane 3 writes it: it conflicts with the
  // other lanes' reads even though the latest read was its own.
  const Body body = {let("x", load("out", u32(0))),
                     if_(eq(local_id(0), u32(3)), {store("out", u32(0), var("x"))})};
  for (Schedule::Kind kind : {Schedule::Kind::Canonical, Schedule::Kind::Reversed}) {
    RunOptions options;
    options.schedule.kind = kind;
    const RunResult r = run_ok(with_body({4, 1, 1}, body), zeros("out", 1), {}, options);
    EXPECT_EQ(r.count(Kind::DataRace), 1u);
  }
}

TEST(RaceDetector, Semantics_S6_OwnElementsAndSameInvocationAccessesDoNotRace) {
  const Body body = {store("out", invocation_id(0), invocation_id(0)),
                     store("out", invocation_id(0), add(load("out", invocation_id(0)), u32(1)))};
  const RunResult r = run_ok(with_body({4, 1, 1}, body), zeros("out", 8), Grid{{2, 1, 1}});
  EXPECT_TRUE(r.conforming());
  EXPECT_EQ(to_words(r.outputs.at("out")), (std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(RaceDetector, Semantics_S6_WorkgroupMemoryExchangeNeedsBarrier) {
  const std::vector<BufferDecl> shared = {workgroup("s", DataType::U32, 4)};
  const Body exchange_fenced = {
      store("s", local_id(0), local_id(0)), barrier(),
      store("out", invocation_id(0), load("s", bit_xor(local_id(0), u32(1))))};
  const RunResult ok =
      run_ok(with_body({4, 1, 1}, exchange_fenced, shared), zeros("out", 8), Grid{{2, 1, 1}});
  EXPECT_TRUE(ok.conforming()) << ok.violations.front().message;
  EXPECT_EQ(to_words(ok.outputs.at("out")), (std::vector<uint32_t>{1, 0, 3, 2, 1, 0, 3, 2}));

  const Body exchange_racy = {
      store("s", local_id(0), local_id(0)),
      store("out", invocation_id(0), load("s", bit_xor(local_id(0), u32(1))))};
  const RunResult racy =
      run_ok(with_body({4, 1, 1}, exchange_racy, shared), zeros("out", 8), Grid{{2, 1, 1}});
  EXPECT_GE(racy.count(Kind::DataRace), 1u);
  EXPECT_EQ(racy.violations.front().buffer, "s");
}

TEST(RaceDetector, ChecksOffReportsNothing) {
  RunOptions options;
  options.checks = false;
  const RunResult r = run_ok(with_body({2, 1, 1}, {store("out", u32(0), local_id(0))}),
                             zeros("out", 1), {}, options);
  EXPECT_TRUE(r.conforming());
}

TEST(RaceDetector, ManyRacesAreCappedWithASummary) {
  // 1000 elements each written by two workgroups: one report per element,
  // the first 64 in full and one summary for the rest.
  const Body body = {store("out", local_id(0), workgroup_id(0))};
  const RunResult r = run_ok(with_body({1000, 1, 1}, body), zeros("out", 1000), Grid{{2, 1, 1}});
  ASSERT_EQ(r.violations.size(), 65u);
  EXPECT_NE(r.violations.back().message.find("936 more"), std::string::npos)
      << r.violations.back().message;
}

TEST(BarrierDivergence, Semantics_S6_BarrierInDivergentBranch) {
  const Body body = {if_(lt(local_id(0), u32(2)), {barrier()}), store("out", local_id(0), u32(1))};
  const RunResult r = run_unchecked_program(with_body({4, 1, 1}, body), zeros("out", 4));
  ASSERT_EQ(r.count(Kind::DivergentBarrier), 1u);
  const Violation& v = r.violations.front();
  EXPECT_NE(v.message.find("only 2 of 4"), std::string::npos) << v.message;
  EXPECT_NE(v.message.find("V010"), std::string::npos);
  ASSERT_EQ(v.invocations.size(), 1u);
  EXPECT_EQ(v.invocations[0], (std::array<uint32_t, 3>{2, 0, 0}));
}

TEST(BarrierDivergence, Semantics_S6_ReturnedLanesMakeABarrierDivergent) {
  const Body body = {if_(eq(local_id(0), u32(3)), {ret()}), barrier(),
                     store("out", local_id(0), u32(1))};
  const RunResult r = run_unchecked_program(with_body({4, 1, 1}, body), zeros("out", 4));
  ASSERT_EQ(r.count(Kind::DivergentBarrier), 1u);
  EXPECT_NE(r.violations.front().message.find("it had returned"), std::string::npos);
}

TEST(BarrierDivergence, Semantics_S6_BarrierInLoopWithPerLaneTripCounts) {
  const Body body = {loop("i", u32(0), add(local_id(0), u32(1)), {barrier()})};
  const RunResult r = run_unchecked_program(with_body({2, 1, 1}, body), zeros("out", 1));
  EXPECT_EQ(r.count(Kind::DivergentBarrier), 1u);
}

TEST(BarrierDivergence, Semantics_S6_ValidationRejectsItStatically) {
  const Body body = {if_(lt(local_id(0), u32(2)), {barrier()}), store("out", local_id(0), u32(1))};
  const Result<RunResult> r = run(with_body({4, 1, 1}, body), zeros("out", 4), Grid{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("V010"), std::string::npos) << r.error().message;
}

TEST(BarrierDivergence, UniformBarriersAreFine) {
  const Body body = {loop("i", u32(0), u32(3), {barrier()}),
                     if_(lt(workgroup_id(0), u32(5)), {barrier()}),
                     store("out", invocation_id(0), u32(1))};
  const RunResult r = run_ok(with_body({4, 1, 1}, body), zeros("out", 8), Grid{{2, 1, 1}});
  EXPECT_TRUE(r.conforming()) << r.violations.front().message;
}

TEST(OutOfBounds, Semantics_S5_CountedPerKindAndMasked) {
  // Two lanes: lane 1 is out of bounds on a 1-element buffer for each kind.
  const Body body = {let("v", load("out", local_id(0))),
                     store("out", local_id(0), add(var("v"), u32(5))),
                     let("o", atomic(AtomicOp::Add, "out", add(local_id(0), u32(1)), u32(1)))};
  const RunResult r = run_ok(with_body({2, 1, 1}, body), {{"out", to_bytes({10})}});
  EXPECT_EQ(r.oob.loads, 1u);
  EXPECT_EQ(r.oob.stores, 1u);
  EXPECT_EQ(r.oob.atomics, 2u);
  EXPECT_EQ(r.oob.total(), 4u);
  EXPECT_TRUE(r.conforming());
  EXPECT_EQ(to_words(r.outputs.at("out")), std::vector<uint32_t>{15});
}

TEST(OutOfBounds, Semantics_S5_StrictModeMakesEachAViolation) {
  const Body body = {store("out", add(local_id(0), u32(1)), load("out", u32(9)))};
  RunOptions options;
  options.strict_oob = true;
  const RunResult r = run_ok(with_body({1, 1, 1}, body), {{"out", to_bytes({10})}}, {}, options);
  ASSERT_EQ(r.count(Kind::OutOfBounds), 2u);
  EXPECT_NE(r.violations[0].message.find("out-of-bounds read of `out`[9]"), std::string::npos)
      << r.violations[0].message;
  EXPECT_NE(r.violations[1].message.find("out-of-bounds write of `out`[1]"), std::string::npos)
      << r.violations[1].message;
  EXPECT_EQ(r.violations[1].buffer, "out");
  EXPECT_EQ(r.violations[1].index, 1u);
}

/// Records what the core reports, to check the observer interface itself.
class RecordingObserver final : public Observer {
 public:
  bool watches(uint32_t, const BufferDecl& decl) const override {
    return decl.access == BufferAccess::ReadWrite;
  }
  void on_batch_begin(const BatchView& batch) override {
    batches.push_back(batch.invocation.size());
  }
  void on_access(const BatchView& batch, const AccessEvent& e) override {
    for (size_t i = 0; i < e.lanes.size(); ++i) {
      accesses.push_back({batch.invocation[e.lanes[i]], e.indices[i], e.kind});
    }
  }
  void on_barrier(const BatchView&, const BarrierEvent& e) override {
    uint32_t arrived = 0;
    for (uint32_t m : e.arrived) arrived += m != 0;
    barriers.push_back(arrived);
  }
  void collect(std::vector<Violation>&) override {}

  struct Seen {
    uint32_t invocation;
    uint32_t index;
    AccessKind kind;
    bool operator==(const Seen&) const = default;
  };
  std::vector<size_t> batches;
  std::vector<Seen> accesses;
  std::vector<uint32_t> barriers;
};

TEST(ObserverInterface, CoreReportsBatchesAccessesInLaneOrderAndBarriers) {
  // Two workgroups of 3 lanes (a barrier keeps them in separate batches).
  const Body body = {store("out", invocation_id(0), u32(1)), barrier()};
  RecordingObserver recorder;
  Observer* extra[] = {&recorder};
  RunOptions options;
  options.checks = false;
  options.schedule.kind = Schedule::Kind::Reversed;
  const Result<RunResult> r =
      run_unvalidated(with_body({3, 1, 1}, body), zeros("out", 6), Grid{{2, 1, 1}}, options, extra);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(recorder.batches, (std::vector<size_t>{3, 3}));
  // Reversed: workgroup 1 first, lanes last to first.
  using S = RecordingObserver::Seen;
  const std::vector<S> expected = {{5, 5, AccessKind::Write}, {4, 4, AccessKind::Write},
                                   {3, 3, AccessKind::Write}, {2, 2, AccessKind::Write},
                                   {1, 1, AccessKind::Write}, {0, 0, AccessKind::Write}};
  EXPECT_EQ(recorder.accesses, expected);
  EXPECT_EQ(recorder.barriers, (std::vector<uint32_t>{3, 3}));
}

TEST(ObserverInterface, UnvalidatedRunStillRefusesIllTypedPrograms) {
  const Body body = {store("out", u32(0), add(boolean(true), u32(1)))};
  const Result<RunResult> r = run_unvalidated(with_body({1, 1, 1}, body), zeros("out", 1), Grid{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("must be `u32`, got `bool`"), std::string::npos)
      << r.error().message;
}

}  // namespace
}  // namespace vyre::reference
