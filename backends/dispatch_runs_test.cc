// The default dispatch_runs (a loop over dispatch()), checked with a backend
// backend that scripts every run's outcome (scratch buffers included), and
// the reference backend's parallel dispatch_runs against its own dispatch()
// and hand-computed bytes.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "backends/backend.h"
#include "backends/reference_backend.h"
#include "spec/ir/builder.h"

namespace vyre {
namespace {

using namespace vyre::build;

/// The compiled program of ScriptedBackend, which needs none.
class NoProgram final : public CompiledProgram {};

/// Run n returns {"out": {byte}} with the byte scripted for n (7 unless
/// told), or the scripted failure; with `scratch_each_run`, also {"work": {n}}, a
/// scratch buffer that differs in every run, as graph.bfs's visited_set may.
class ScriptedBackend final : public Backend {
 public:
  std::map<uint32_t, uint8_t> bytes;
  std::map<uint32_t, Status> failures;
  bool scratch_each_run = false;
  /// Runs that return no "out" buffer at all.
  std::set<uint32_t> without_out;
  uint32_t dispatched = 0;

  std::string name() const override { return "backend"; }
  Capabilities probe() override { return {}; }
  CompileOutcome compile(const Program&) override {
    return {Status::Ok, "", std::make_shared<NoProgram>()};
  }
  DispatchOutcome dispatch(const CompiledProgram&, const BufferSet&, const Grid&) override {
    const uint32_t run = dispatched++;
    if (auto it = failures.find(run); it != failures.end()) {
      return {it->second, "scripted failure of run " + std::to_string(run), {}, {}};
    }
    BufferSet outputs;
    if (scratch_each_run) outputs["work"] = {static_cast<uint8_t>(run)};
    const auto it = bytes.find(run);
    if (!without_out.contains(run)) outputs["out"] = {it == bytes.end() ? uint8_t{7} : it->second};
    return {Status::Ok, "", std::move(outputs), {}};
  }
};

TEST(DefaultDispatchRuns, IdenticalRunsReportRunZeroAndNoDifference) {
  ScriptedBackend backend;
  const BatchOutcome batch = backend.dispatch_runs(NoProgram{}, {}, Grid{}, {100, 10});
  ASSERT_EQ(batch.status, Status::Ok);
  EXPECT_EQ(backend.dispatched, 100u);
  EXPECT_EQ(batch.dispatches, 100u);
  EXPECT_EQ(batch.submissions, 100u);  // Every dispatch() is a submission of its own.
  EXPECT_EQ(batch.first_outputs, (BufferSet{{"out", {7}}}));
  EXPECT_EQ(batch.differing_runs, 0u);
  EXPECT_TRUE(batch.differing.empty());
  EXPECT_GE(batch.timing.total_ms, 0.0);
}

TEST(DefaultDispatchRuns, ReportsTheFirstFourDifferingRunsAndCountsAll) {
  ScriptedBackend backend;
  backend.bytes = {{3, 1}, {5, 2}, {6, 3}, {40, 4}, {41, 5}, {99, 6}};
  const BatchOutcome batch = backend.dispatch_runs(NoProgram{}, {}, Grid{}, {100, 1});
  ASSERT_EQ(batch.status, Status::Ok);
  EXPECT_EQ(batch.differing_runs, 6u);
  ASSERT_EQ(batch.differing.size(), kMaxReportedDifferingRuns);
  const uint32_t runs[] = {3, 5, 6, 40};
  const uint8_t values[] = {1, 2, 3, 4};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(batch.differing[i].run, runs[i]);
    EXPECT_EQ(batch.differing[i].outputs, (BufferSet{{"out", {values[i]}}}));
  }
}

TEST(DefaultDispatchRuns, ADifferentRunZeroMakesEveryOtherRunDiffer) {
  ScriptedBackend backend;
  backend.bytes = {{0, 9}};
  const BatchOutcome batch = backend.dispatch_runs(NoProgram{}, {}, Grid{}, {5, 1});
  EXPECT_EQ(batch.first_outputs, (BufferSet{{"out", {9}}}));
  EXPECT_EQ(batch.differing_runs, 4u);
}

TEST(DefaultDispatchRuns, StopsAtTheFirstFailureAndNamesTheRun) {
  ScriptedBackend backend;
  backend.failures = {{2, Status::Timeout}, {3, Status::DeviceLost}};
  const BatchOutcome batch = backend.dispatch_runs(NoProgram{}, {}, Grid{}, {10, 2});
  EXPECT_EQ(batch.status, Status::Timeout);
  EXPECT_EQ(batch.failed_run, 2u);
  EXPECT_EQ(batch.message, "scripted failure of run 2");
  EXPECT_EQ(batch.dispatches, 3u);
  EXPECT_TRUE(batch.first_outputs.empty());
}

TEST(DefaultDispatchRuns, ZeroRunsRunsOnce) {
  ScriptedBackend backend;
  const BatchOutcome batch = backend.dispatch_runs(NoProgram{}, {}, Grid{}, {0, 0});
  EXPECT_EQ(batch.status, Status::Ok);
  EXPECT_EQ(batch.dispatches, 1u);
}

BatchOptions with_scratch(uint32_t runs, std::vector<std::string> scratch) {
  BatchOptions options;
  options.runs = runs;
  options.reported_differing = runs;
  options.scratch = std::move(scratch);
  return options;
}

TEST(DefaultDispatchRuns, RunsDifferingOnlyInScratchAreNeitherCountedNorReturned) {
  ScriptedBackend backend;
  backend.scratch_each_run = true;
  const BatchOutcome batch =
      backend.dispatch_runs(NoProgram{}, {}, Grid{}, with_scratch(20, {"work"}));
  ASSERT_EQ(batch.status, Status::Ok);
  EXPECT_EQ(batch.differing_runs, 0u);
  EXPECT_TRUE(batch.differing.empty());
  // Run 0 keeps its scratch buffer for reports and repros.
  EXPECT_EQ(batch.first_outputs, (BufferSet{{"out", {7}}, {"work", {0}}}));
}

TEST(DefaultDispatchRuns, WithoutScratchEveryRunDiffersInTheWorkBuffer) {
  ScriptedBackend backend;
  backend.scratch_each_run = true;
  const BatchOutcome batch = backend.dispatch_runs(NoProgram{}, {}, Grid{}, with_scratch(20, {}));
  EXPECT_EQ(batch.differing_runs, 19u);
  ASSERT_EQ(batch.differing.size(), 19u);
  EXPECT_EQ(batch.differing[0].outputs, (BufferSet{{"out", {7}}, {"work", {1}}}));
}

TEST(DefaultDispatchRuns, ARunDifferingInAJudgedBufferComesBackWithoutScratch) {
  ScriptedBackend backend;
  backend.scratch_each_run = true;
  backend.bytes = {{4, 1}, {9, 2}};
  const BatchOutcome batch =
      backend.dispatch_runs(NoProgram{}, {}, Grid{}, with_scratch(12, {"work", "absent"}));
  ASSERT_EQ(batch.status, Status::Ok);
  EXPECT_EQ(batch.first_outputs, (BufferSet{{"out", {7}}, {"work", {0}}}));
  EXPECT_EQ(batch.differing_runs, 2u);
  ASSERT_EQ(batch.differing.size(), 2u);
  EXPECT_EQ(batch.differing[0].run, 4u);
  EXPECT_EQ(batch.differing[0].outputs, (BufferSet{{"out", {1}}}));
  EXPECT_EQ(batch.differing[1].run, 9u);
  EXPECT_EQ(batch.differing[1].outputs, (BufferSet{{"out", {2}}}));
}

TEST(DefaultDispatchRuns, AJudgedBufferMissingFromARunMakesItDiffer) {
  ScriptedBackend backend;
  backend.scratch_each_run = true;
  backend.without_out = {3};
  const BatchOutcome batch =
      backend.dispatch_runs(NoProgram{}, {}, Grid{}, with_scratch(5, {"work"}));
  EXPECT_EQ(batch.differing_runs, 1u);
  ASSERT_EQ(batch.differing.size(), 1u);
  EXPECT_EQ(batch.differing[0].run, 3u);
  EXPECT_TRUE(batch.differing[0].outputs.empty());
}

TEST(SameJudgedOutputs, ComparesEveryBufferButScratchBothWays) {
  const BatchOptions scratch = with_scratch(2, {"s"});
  const BufferSet first{{"a", {1}}, {"s", {2}}};
  EXPECT_TRUE(same_judged_outputs(first, {{"a", {1}}}, scratch));
  EXPECT_TRUE(same_judged_outputs(first, {{"a", {1}}, {"s", {9}}}, scratch));
  EXPECT_FALSE(same_judged_outputs(first, {{"a", {3}}}, scratch));
  EXPECT_FALSE(same_judged_outputs(first, {{"a", {1}}, {"b", {1}}}, scratch));
  EXPECT_FALSE(same_judged_outputs(first, {{"s", {2}}}, scratch));
  EXPECT_FALSE(same_judged_outputs(first, {{"a", {1}}}, with_scratch(2, {})));
}

ByteBuffer words(std::initializer_list<uint32_t> values) {
  ByteBuffer bytes;
  for (uint32_t v : values) {
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  return bytes;
}

TEST(ReferenceDispatchRuns, EveryRunStartsFromTheGivenBytes) {
  auto backend = make_reference_backend({});
  // Each of 4 invocations adds its id + 1 to out[0]: 10 + 1 + 2 + 3 + 4 = 20.
  const Program p{
      {storage("out", 0, BufferAccess::ReadWrite)},
      {4, 1, 1},
      {let("old", atomic(AtomicOp::Add, "out", u32(0), add(invocation_id(0), u32(1))))}};
  CompileOutcome compiled = backend->compile(p);
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
  const BatchOutcome batch =
      backend->dispatch_runs(*compiled.program, {{"out", words({10})}}, Grid{}, {50, 5});
  ASSERT_EQ(batch.status, Status::Ok) << batch.message;
  EXPECT_EQ(batch.first_outputs, (BufferSet{{"out", words({20})}}));
  EXPECT_EQ(batch.differing_runs, 0u);
  EXPECT_EQ(batch.dispatches, 50u);
}

TEST(ReferenceDispatchRuns, ScratchStaysInRunZeroAndMakesNoRunDiffer) {
  auto backend = make_reference_backend({});
  // out[0] = 3; work[0] = 4 (the reference's runs never differ: this checks
  // that naming scratch keeps run 0 whole and reports nothing).
  const Program p{
      {storage("out", 0, BufferAccess::ReadWrite), storage("work", 1, BufferAccess::ReadWrite)},
      {1, 1, 1},
      {store("out", u32(0), u32(3)), store("work", u32(0), u32(4))}};
  CompileOutcome compiled = backend->compile(p);
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
  const BatchOutcome batch =
      backend->dispatch_runs(*compiled.program, {{"out", words({0})}, {"work", words({0})}}, Grid{},
                             with_scratch(30, {"work"}));
  ASSERT_EQ(batch.status, Status::Ok) << batch.message;
  EXPECT_EQ(batch.first_outputs, (BufferSet{{"out", words({3})}, {"work", words({4})}}));
  EXPECT_EQ(batch.differing_runs, 0u);
  EXPECT_TRUE(batch.differing.empty());
  EXPECT_EQ(batch.dispatches, 30u);
}

TEST(ReferenceDispatchRuns, AFailingProgramFailsTheBatch) {
  auto backend = make_reference_backend({});
  // Two invocations store different values to one element: a data race.
  const Program racy{{storage("out", 0, BufferAccess::ReadWrite)},
                     {2, 1, 1},
                     {store("out", u32(0), invocation_id(0))}};
  CompileOutcome compiled = backend->compile(racy);
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
  const BatchOutcome batch =
      backend->dispatch_runs(*compiled.program, {{"out", words({0})}}, Grid{}, {8, 1});
  EXPECT_EQ(batch.status, Status::Error);
  EXPECT_EQ(batch.failed_run, 0u);
  EXPECT_TRUE(batch.first_outputs.empty());
}

}  // namespace
}  // namespace vyre
