#include "archetypes/dataflow/dataflow_engine.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "archetypes/dataflow/dataflow_oracle.h"
#include "archetypes/dataflow/dataflow_programs.h"
#include "backends/level_loop.h"
#include "backends/registry/registry.h"
#include "spec/ir/builder.h"
#include "spec/ir/host_words.h"
#include "spec/validate/validator.h"

namespace vyre::dataflow {
namespace {

using graph::Finding;
using ::testing::HasSubstr;

/// Delegates to the reference backend, counting dispatches; its limits and
/// dispatch status can be overridden to play a smaller or failing device.
class CountingBackend : public Backend {
 public:
  CountingBackend() : inner_(std::move(make_backend("reference").value())) {
    limits_ = inner_->probe();
  }
  std::string name() const override { return "counting"; }
  Capabilities probe() override { return limits_; }
  CompileOutcome compile(const Program& p) override { return inner_->compile(p); }
  DispatchOutcome dispatch(const CompiledProgram& p, const BufferSet& in, const Grid& g) override {
    ++dispatches;
    if (fail_with != Status::Ok) return {fail_with, "simulated", {}, {}};
    return inner_->dispatch(p, in, g);
  }

  /// The default loop, then `ahead` appended to its changed words, as a
  /// backend that ran levels ahead would report them.
  LevelLoopOutcome dispatch_levels(const CompiledProgram& p, const BufferSet& state, const Grid& g,
                                   const LevelLoop& loop) override {
    LevelLoopOutcome out = Backend::dispatch_levels(p, state, g, loop);
    out.changed_words.insert(out.changed_words.end(), ahead.begin(), ahead.end());
    if (drop_last_level && !out.changed_words.empty()) out.changed_words.pop_back();
    return out;
  }

  Capabilities limits_;
  Status fail_with = Status::Ok;
  int dispatches = 0;
  std::vector<uint32_t> ahead;
  bool drop_last_level = false;

 private:
  std::unique_ptr<Backend> inner_;
};

/// 0 (source) -> 1 -> 2 (sink) -> 3 (sink); 0 -> 4 (sink, metadata 1); 4 -> 3.
DataflowInput example() {
  DataflowInput in;
  in.graph =
      *graph::try_to_csr(5, std::vector<graph::Edge>{{0, 1}, {1, 2}, {2, 3}, {0, 4}, {4, 3}});
  in.graph.node_data = {1, 0, 2, 2, 2};
  in.node_metadata = {0, 0, 0, 0, 1};
  in.sources = {0};
  return in;
}

EngineResult<DataflowResult> run(CountingBackend& backend, const DataflowInput& in,
                                 std::string_view transfer = "block_mask") {
  auto engine = DataflowEngine::create(backend, *make_transfer(transfer));
  if (!engine) return engine.error();
  return engine->run(in);
}

TEST(DataflowEngine, AllowAllFindsEverySinkAtItsShortestDepth) {
  CountingBackend backend;
  auto r = run(backend, example(), "allow_all");
  ASSERT_TRUE(r.ok()) << r.error().message;
  // By hand: 4 at depth 1, 2 at depth 2, 3 at depth 2 (via 4, not 3 via 1, 2).
  EXPECT_EQ(r->findings, (std::vector<Finding>{{0, 2, 2, 0}, {0, 3, 2, 0}, {0, 4, 1, 0}}));
  // Levels 0, 1 add nodes; level 2 adds none and ends the run.
  EXPECT_EQ(r->levels, 3u);
  EXPECT_EQ(backend.dispatches, 4);
}

TEST(DataflowEngine, BlockMaskKeepsFactsOutOfMarkedNodes) {
  CountingBackend backend;
  auto r = run(backend, example());
  ASSERT_TRUE(r.ok()) << r.error().message;
  // Node 4 is marked: never entered, so 3 is only reached via 1, 2 at depth 3.
  EXPECT_EQ(r->findings, (std::vector<Finding>{{0, 2, 2, 0}, {0, 3, 3, 0}}));
}

TEST(DataflowEngine, MaxDepthStopsTheLevelLoop) {
  CountingBackend backend;
  DataflowInput in = example();
  in.max_depth = 1;
  auto r = run(backend, in, "allow_all");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->findings, (std::vector<Finding>{{0, 4, 1, 0}}));
  EXPECT_EQ(r->levels, 1u);
  in.max_depth = 0;
  auto zero = run(backend, in, "allow_all");
  ASSERT_TRUE(zero.ok());
  EXPECT_TRUE(zero->findings.empty());
  EXPECT_EQ(zero->levels, 0u);
}

TEST(DataflowEngine, SourceAndSinkStartAndRepeatedSources) {
  CountingBackend backend;
  DataflowInput in = example();
  in.graph.node_data[0] = 3;
  in.sources = {0, 2, 0};
  auto r = run(backend, in, "allow_all");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->findings, (std::vector<Finding>{{0, 0, 0, 0},
                                               {0, 0, 0, 2},
                                               {0, 2, 2, 0},
                                               {0, 2, 2, 2},
                                               {0, 3, 2, 0},
                                               {0, 3, 2, 2},
                                               {0, 4, 1, 0},
                                               {0, 4, 1, 2},
                                               {2, 2, 0, 1},
                                               {2, 3, 1, 1}}));
}

TEST(DataflowEngine, ACustomTransferFunctionReadsTheSourceId) {
  // Block edges into node source_id + 2: from source 0, node 2 is closed.
  using namespace vyre::build;
  TransferFunction skip_two{
      "skip_source_plus_two",
      [](const TransferArgs& a) { return ne(a.target, add(a.source_id, u32(2))); },
      [](uint32_t source, uint32_t, uint32_t target, uint32_t) -> uint32_t {
        return target != source + 2 ? 1 : 0;
      }};
  CountingBackend backend;
  auto engine = DataflowEngine::create(backend, skip_two);
  ASSERT_TRUE(engine.ok()) << engine.error().message;
  DataflowInput in = example();
  in.sources = {0, 1};
  auto r = engine->run(in);
  ASSERT_TRUE(r.ok()) << r.error().message;
  // Source 0: 4 at 1, 3 at 2 (via 4); 2 is closed. Source 1: 2 at 1, 3 at 2,
  // except 3 = 1 + 2 is closed for source 1.
  const std::vector<Finding> by_hand = {{0, 3, 2, 0}, {0, 4, 1, 0}, {1, 2, 1, 1}};
  EXPECT_EQ(r->findings, by_hand);
  EXPECT_EQ(*dataflow_oracle(in, skip_two), by_hand);
}

TEST(DataflowEngine, ATransferWhoseIrDoesNotValidateFailsAtCreate) {
  TransferFunction broken{"broken", [](const TransferArgs&) { return build::var("undeclared"); },
                          [](uint32_t, uint32_t, uint32_t, uint32_t) -> uint32_t { return 1; }};
  CountingBackend backend;
  auto engine = DataflowEngine::create(backend, broken);
  ASSERT_FALSE(engine.ok());
  EXPECT_THAT(engine.error().message, HasSubstr("transfer function 'broken' did not compile"));
  TransferFunction half{"half", nullptr, nullptr};
  EXPECT_FALSE(DataflowEngine::create(backend, half).ok());
}

/// Runs `in` and checks it is refused with `needle` before any dispatch.
void expect_refused(CountingBackend& backend, const DataflowInput& in, const std::string& needle) {
  auto r = run(backend, in);
  ASSERT_FALSE(r.ok()) << needle;
  EXPECT_THAT(r.error().message, HasSubstr(needle));
  EXPECT_THAT(r.error().message, HasSubstr("Fix:"));
  EXPECT_EQ(backend.dispatches, 0) << needle;
}

TEST(DataflowEngineValidation, MalformedCsrIsRefusedBeforeDispatch) {
  CountingBackend backend;
  DataflowInput a = example();
  a.graph.node_count = UINT32_MAX;
  expect_refused(backend, a, "offsets.len() == node_count + 1");
  DataflowInput b = example();
  b.graph.offsets[2] = 0;
  expect_refused(backend, b, "non-decreasing");
  DataflowInput c = example();
  c.graph.targets[0] = 5;
  expect_refused(backend, c, "targets[0] = 5");
}

TEST(DataflowEngineValidation, BadRolesMetadataAndSources) {
  CountingBackend backend;
  DataflowInput a = example();
  a.graph.node_data[1] = 4;
  expect_refused(backend, a, "node_data[1] = 4 is not a taint role");
  DataflowInput b = example();
  b.node_metadata.pop_back();
  expect_refused(backend, b, "node_metadata has 4 words but the graph has 5 nodes");
  DataflowInput c = example();
  c.sources = {0, 5};
  expect_refused(backend, c, "sources[1] = 5 is outside the graph");
}

TEST(DataflowEngineValidation, SourceTimesNodeCountOverflow) {
  CountingBackend backend;
  DataflowInput in;
  in.graph = *graph::to_csr(1u << 20, {});
  in.sources.assign(4097, 0);
  expect_refused(backend, in, "source_count * node_count = 4097 x 1048576");
}

TEST(DataflowEngineValidation, OutputCapacityOverflow) {
  CountingBackend backend;
  DataflowInput in = example();
  in.sources = {0, 0};
  in.max_findings = 5;  // 2 sources x 3 sinks = 6 possible
  expect_refused(backend, in, "output capacity overflow: up to 6 findings");
}

TEST(DataflowEngineValidation, BackendLimitsAreCheckedBeforeDispatch) {
  CountingBackend small;
  small.limits_.max_storage_buffer_bytes = 16;
  expect_refused(small, example(), "edge_offsets needs 24 bytes, past counting's");
  CountingBackend narrow;
  narrow.limits_.max_workgroup_count = {65535, 1, 1};
  DataflowInput two = example();
  two.sources = {0, 1};
  expect_refused(narrow, two,
                 "the level dispatch needs a grid of 1 x 2 x 1 workgroups, past counting's "
                 "max_workgroup_count = 65535 x 1 x 1");
}

TEST(DataflowEngineValidation, OutputCapacityPastTwoToTheThirtyTwoWords) {
  CountingBackend backend;
  DataflowInput in;
  in.graph = *graph::to_csr(1u << 16, {});
  in.graph.node_data.assign(1u << 16, 2);  // every node a sink
  in.sources.assign((1u << 14) + 1, 0);
  // (2^14 + 1) x 2^16 = 2^30 + 2^16 rows of 4 words: past 2^32 words.
  expect_refused(backend, in, "output capacity overflow: 1073807360 finding rows");
  DataflowInput asked = example();
  asked.max_findings = (1u << 30) + 1;
  expect_refused(backend, asked, "output capacity overflow: 1073741825 finding rows");
}

TEST(DataflowEngineValidation, BuffersPastTheStorageAndStagingLimits) {
  DataflowInput in;
  in.graph = *graph::to_csr(1u << 16, {});
  in.graph.node_data.assign(1u << 16, 2);
  in.sources.assign(1u << 14, 0);
  // 2^14 x 2^16 = 2^30 finding rows of 16 bytes = 2^34 bytes.
  CountingBackend reference;
  expect_refused(reference, in,
                 "findings needs 17179869184 bytes, past counting's max_storage_buffer_bytes = "
                 "2147483648");
  CountingBackend unbounded;
  unbounded.limits_.max_storage_buffer_bytes = 0;
  expect_refused(unbounded, in, "past the 2147483648 bytes staged on the host per dispatch");
}

TEST(DataflowEngineValidation, WorkgroupsPastTheBackendAreRefusedBeforeDispatch) {
  CountingBackend few;
  few.limits_.max_workgroup_invocations = 32;
  expect_refused(few, example(),
                 "the seed dispatch has workgroups of 64 x 1 x 1 invocations, past counting's");
  CountingBackend narrow;
  narrow.limits_.max_workgroup_size = {32, 1, 1};
  expect_refused(narrow, example(), "max_workgroup_size = 32 x 1 x 1");
}

// The reference interpreter runs at most 2^26 invocations per dispatch, on all
// axes together. 33 nodes need 2 words per source, so the level grid is
// 1 x sources workgroups of 64: 64 x (2^20 + 1) = 67108928 invocations. The
// seed dispatch (16385 workgroups of 64) fits, so without the check it ran and
// the level dispatch failed.
TEST(DataflowEngineValidation, InvocationsPastTheBackendLimitAreRefusedBeforeDispatch) {
  CountingBackend backend;
  ASSERT_EQ(backend.limits_.max_dispatch_invocations, uint64_t{1} << 26);
  DataflowInput in;
  in.graph = *graph::to_csr(33, {});
  in.sources.assign((1u << 20) + 1, 0);
  expect_refused(backend, in,
                 "the level dispatch runs 67108928 invocations (workgroups of 64 x 1 x 1 on a "
                 "grid of 1 x 1048577 x 1), past counting's max_dispatch_invocations = 67108864. "
                 "Fix: split the sources into runs of at most 1048576 sources");
  // 64 x 2^20 = 2^26 invocations: exactly the limit, accepted.
  in.sources.pop_back();
  auto engine = DataflowEngine::create(backend, *make_transfer("allow_all"));
  ASSERT_TRUE(engine.ok()) << engine.error().message;
  EXPECT_TRUE(engine->check(in).ok());
  EXPECT_EQ(backend.dispatches, 0);
}

TEST(DataflowEngineValidation, InvocationLimitCoversOnlyTheDispatchesARunMakes) {
  CountingBackend backend;
  backend.limits_.max_dispatch_invocations = 128;
  DataflowInput in = example();
  in.sources = {0, 0, 0};
  // Level: 3 rows of one workgroup of 64 = 192; 2 sources give 128.
  expect_refused(backend, in, "the level dispatch runs 192 invocations");
  expect_refused(backend, in, "runs of at most 2 sources");
  // max_depth 0 makes no level dispatch; the seed (one workgroup of 64) fits.
  in.max_depth = 0;
  auto r = run(backend, in);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(backend.dispatches, 1);
  CountingBackend tiny;
  tiny.limits_.max_dispatch_invocations = 32;
  expect_refused(tiny, example(),
                 "the seed dispatch runs 64 invocations (workgroups of 64 x 1 x 1 on a grid of "
                 "1 x 1 x 1), past counting's max_dispatch_invocations = 32. Fix: even one "
                 "source needs 64 invocations in one dispatch");
}

TEST(DataflowEngine, DispatchFailuresAreReportedWithTheirStatus) {
  CountingBackend backend;
  backend.fail_with = Status::DeviceLost;
  auto r = run(backend, example());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("seed dispatch failed: device lost: simulated"));
  // The backend's own status travels with the error, so a certifier keeps
  // device lost, timeout and not supported apart from a wrong answer.
  EXPECT_EQ(r.error().status, Status::DeviceLost);
  backend.fail_with = Status::Timeout;
  EXPECT_EQ(run(backend, example()).error().status, Status::Timeout);
}

TEST(DataflowEngine, LevelsRunAheadThatChangeNothingLeaveTheResultAsItWas) {
  CountingBackend plain;
  auto expected = run(plain, example(), "allow_all");
  ASSERT_TRUE(expected.ok()) << expected.error().message;
  ASSERT_EQ(expected->levels, 3u);  // Of at most 5 (node_count).
  CountingBackend ahead;
  ahead.ahead = {0, 0};
  auto observed = run(ahead, example(), "allow_all");
  ASSERT_TRUE(observed.ok()) << observed.error().message;
  EXPECT_EQ(observed->levels, expected->levels);
  EXPECT_EQ(observed->findings, expected->findings);
  // Past the levels the run allows is the backend's defect.
  ahead.ahead = {0, 0, 0};
  auto past = run(ahead, example(), "allow_all");
  ASSERT_FALSE(past.ok());
  EXPECT_EQ(past.error().status, Status::BadOutput);
  EXPECT_THAT(past.error().message, HasSubstr("counting ran 6 levels of at most 5"));
}

TEST(DataflowEngine, AChangeReportedAfterAnUnchangedLevelIsTheBackendsDefect) {
  CountingBackend backend;
  backend.ahead = {0, 1};
  auto r = run(backend, example(), "allow_all");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().status, Status::BadOutput);
  EXPECT_THAT(r.error().message, HasSubstr("counting reported a change at level"));
  EXPECT_THAT(r.error().message, HasSubstr("a backend defect"));
}

TEST(DataflowEngine, ALoopThatStopsWhileEveryLevelChangedIsTheBackendsDefect) {
  CountingBackend backend;
  backend.drop_last_level = true;  // The unchanged level that ended the loop.
  auto r = run(backend, example(), "allow_all");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().status, Status::BadOutput);
  EXPECT_THAT(r.error().message, HasSubstr("counting stopped after"));
}

// Why levels run ahead of the first unchanged one are harmless: on the
// reference, a level dispatched on the state the loop ended with (its
// frontier empty) returns that state unchanged, for every transfer function.
TEST(DataflowEngine, ALevelAfterTheFixpointChangesNothing) {
  for (std::string_view transfer : {"allow_all", "block_mask", "forward_only"}) {
    auto backend = make_backend("reference");
    ASSERT_TRUE(backend.ok());
    CompileOutcome level = (*backend)->compile(level_program(*make_transfer(transfer)));
    ASSERT_EQ(level.status, Status::Ok) << level.message;
    const DataflowInput in = example();
    BufferSet state;
    state[std::string(kOffsets)] = to_bytes(in.graph.offsets);
    state[std::string(kTargets)] = to_bytes(in.graph.targets);
    state[std::string(kNodeData)] = to_bytes(in.graph.node_data);
    state[std::string(kNodeMetadata)] = to_bytes(in.node_metadata);
    state[std::string(kSources)] = to_bytes(in.sources);
    state[std::string(kVisited)] = to_bytes(std::vector<uint32_t>{1});
    state[std::string(kFrontier)] = to_bytes(std::vector<uint32_t>{1});
    state[std::string(kNextFrontier)] = zero_words(1);
    state[std::string(kChanged)] = zero_words(1);
    state[std::string(kFindings)] = zero_words(4 * 3);
    state[std::string(kFindingCount)] = zero_words(1);
    state[std::string(kParams)] = to_bytes(std::vector<uint32_t>{1, 5, 1, 0, 3});
    const LevelLoop loop = engine_level_loop(5);
    LevelLoopOutcome fixpoint = (*backend)->dispatch_levels(*level.program, state, {}, loop);
    ASSERT_EQ(fixpoint.status, Status::Ok) << fixpoint.message;
    ASSERT_EQ(fixpoint.changed_words.back(), 0u) << transfer;
    for (auto& [name, bytes] : fixpoint.state) state[name] = bytes;
    auto params = to_words(state[std::string(kParams)]);
    params[kLevel] = static_cast<uint32_t>(fixpoint.changed_words.size());
    state[std::string(kParams)] = to_bytes(params);
    DispatchOutcome again = (*backend)->dispatch(*level.program, state, {});
    ASSERT_EQ(again.status, Status::Ok) << again.message;
    for (const auto& [name, bytes] : again.outputs) {
      EXPECT_EQ(bytes, state.at(name)) << transfer << ": " << name;
    }
  }
}

TEST(DataflowEngineValidation, AnInputPastTheBackendsLimitsIsNotSupported) {
  CountingBackend small;
  small.limits_.max_storage_buffer_bytes = 16;
  auto engine = DataflowEngine::create(small, *make_transfer("block_mask"));
  ASSERT_TRUE(engine.ok()) << engine.error().message;
  auto checked = engine->check(example());
  ASSERT_FALSE(checked.ok());
  EXPECT_EQ(checked.error().status, Status::NotSupported);
}

TEST(DataflowEngine, ProgramsShareOneInterface) {
  const Program seed = seed_program();
  const Program level = level_program(*make_transfer("allow_all"));
  EXPECT_EQ(seed.buffers, level.buffers);
  for (const Program& p : {seed, level, level_program(*make_transfer("block_mask")),
                           level_program(*make_transfer("forward_only"))}) {
    const std::vector<Diagnostic> diagnostics = validate(p);
    EXPECT_TRUE(diagnostics.empty()) << diagnostics.front().message;
  }
  EXPECT_EQ(seed.workgroup_size, (std::array<uint32_t, 3>{64, 1, 1}));
}

}  // namespace
}  // namespace vyre::dataflow
