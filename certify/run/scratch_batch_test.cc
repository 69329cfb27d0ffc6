// Scratch buffers in the certification run and in a replayed repro: a case
// judged canonically (graph.bfs) asks its batches to leave out the buffers
// its judge never reads (visited_set and bfs_queue), a byte-compared case
// asks for none, and a differing run that comes back without them is judged
// on what it returned, not refused as malformed. The scratch names are
// written by hand from the graph.bfs interface (bfs_layout.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "archetypes/graph/archetype_cases.h"
#include "archetypes/graph/bfs_layout.h"
#include "backends/reference_backend.h"
#include "certify/run/case_runner.h"
#include "certify/run/output_judge.h"
#include "certify/run/plus_one_case_for_tests.h"
#include "certify/run/replay_dispatch.h"
#include "certify/suite/graph_suite_cases.h"
#include "spec/ir/host_words.h"

namespace vyre::certify {
namespace {

const std::vector<std::string> kBfsScratch = {"visited_set", "bfs_queue"};

/// The reference backend, recording the options of every batch; with
/// `add_differing_run`, each batch also lists run 1 as differing, returned
/// as `reshape` makes it from run 0's outputs (as a GPU's run whose findings
/// came in another order would be).
class RecordingBackend final : public Backend {
 public:
  std::vector<BatchOptions> seen;
  bool add_differing_run = false;
  std::function<void(BufferSet&)> reshape = [](BufferSet&) {};

  std::string name() const override { return "recording"; }
  Capabilities probe() override { return inner_->probe(); }
  CompileOutcome compile(const Program& p) override { return inner_->compile(p); }
  DispatchOutcome dispatch(const CompiledProgram& p, const BufferSet& in,
                           const Grid& grid) override {
    return inner_->dispatch(p, in, grid);
  }
  BatchOutcome dispatch_runs(const CompiledProgram& p, const BufferSet& in, const Grid& grid,
                             const BatchOptions& options) override {
    seen.push_back(options);
    BatchOutcome out = inner_->dispatch_runs(p, in, grid, options);
    if (out.status != Status::Ok || !add_differing_run || options.runs < 2) return out;
    BufferSet other = out.first_outputs;
    for (const std::string& name : options.scratch) other.erase(name);
    reshape(other);
    out.differing.insert(out.differing.begin(), DifferingRun{1, std::move(other)});
    ++out.differing_runs;
    return out;
  }

 private:
  std::unique_ptr<Backend> inner_ = make_reference_backend({});
};

/// The first graph.bfs archetype with at least two findings, as the suite runs it.
SuiteCase bfs_case_with_two_findings() {
  auto cases = archetypes::graph_cases();
  EXPECT_TRUE(cases.ok()) << cases.error().message;
  for (archetypes::GraphCase& gc : *cases) {
    const std::vector<uint32_t> count =
        to_words(gc.canonical_expected.at(std::string(archetypes::bfs::kFindingCount)));
    if (count.at(0) < 2) continue;
    std::string id = "L3/" + gc.test_case.name;
    return bfs_suite_case(std::move(id), Level::L3, "hand-computed findings", std::move(gc));
  }
  ADD_FAILURE() << "no graph.bfs archetype has two findings";
  return plus_one_case();
}

/// Swaps the first two finding rows (4 words each): the same finding set.
void swap_first_two_findings(BufferSet& outputs) {
  ByteBuffer& rows = outputs.at(std::string(archetypes::bfs::kFindings));
  ASSERT_GE(rows.size(), 32u);
  std::swap_ranges(rows.begin(), rows.begin() + 16, rows.begin() + 16);
}

/// Three runs of each variant.
CaseRunOptions three_runs() {
  CaseRunOptions o;
  o.runs = 3;
  return o;
}

TEST(ScratchBatches, AGraphBfsCaseLeavesVisitedSetAndQueueOutOfItsBatches) {
  RecordingBackend backend;
  CaseResult r = run_case(backend, bfs_case_with_two_findings(), three_runs(), nullptr);
  EXPECT_EQ(r.verdict, Verdict::Pass) << r.message;
  ASSERT_FALSE(backend.seen.empty());
  for (const BatchOptions& options : backend.seen) {
    EXPECT_EQ(options.scratch, kBfsScratch);
    EXPECT_EQ(options.reported_differing, 3u);
  }
}

TEST(ScratchBatches, AByteComparedCaseJudgesEveryBuffer) {
  RecordingBackend backend;
  CaseResult r = run_case(backend, plus_one_case(), three_runs(), nullptr);
  EXPECT_EQ(r.verdict, Verdict::Pass) << r.message;
  ASSERT_EQ(backend.seen.size(), 1u);
  EXPECT_TRUE(backend.seen[0].scratch.empty());
}

TEST(ScratchBatches, ADifferingRunWithoutScratchIsJudgedOnItsFindings) {
  RecordingBackend backend;
  backend.add_differing_run = true;
  backend.reshape = swap_first_two_findings;
  CaseResult r = run_case(backend, bfs_case_with_two_findings(), three_runs(), nullptr);
  EXPECT_EQ(r.verdict, Verdict::Pass) << r.message;
}

TEST(ScratchBatches, ADifferingRunMissingAJudgedBufferIsMalformed) {
  RecordingBackend backend;
  backend.add_differing_run = true;
  backend.reshape = [](BufferSet& outputs) {
    outputs.erase(std::string(archetypes::bfs::kFindingCount));
  };
  CaseResult r = run_case(backend, bfs_case_with_two_findings(), three_runs(), nullptr);
  EXPECT_EQ(r.verdict, Verdict::BadOutput) << r.message;
  EXPECT_NE(r.message.find("'finding_count' did not come back"), std::string::npos) << r.message;
}

TEST(ScratchBatches, AReplayedGraphBfsBatchJudgesAsTheRunDid) {
  SuiteCase c = bfs_case_with_two_findings();
  TestCase repro = std::get<DispatchCase>(c.body).test_case;
  repro.batch = BatchDispatch{4, 2, 2};
  EXPECT_EQ(unjudged_buffers(repro), kBfsScratch);
  RecordingBackend backend;
  backend.add_differing_run = true;
  backend.reshape = swap_first_two_findings;
  CompileOutcome compiled = backend.compile(repro.program);
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
  const ReplayOutcome out = replay_dispatch(backend, *compiled.program, repro);
  ASSERT_EQ(backend.seen.size(), 1u);
  EXPECT_EQ(backend.seen[0].scratch, kBfsScratch);
  ASSERT_EQ(out.outputs.size(), 2u);
  EXPECT_TRUE(out.outputs[0].second.contains("visited_set"));
  EXPECT_FALSE(out.outputs[1].second.contains("visited_set"));
  EXPECT_EQ(first_failing_run(repro, out), std::nullopt);
}

TEST(ScratchBatches, UnjudgedBuffersAreThoseNeitherExpectedNorReadByTheComparison) {
  SuiteCase c = bfs_case_with_two_findings();
  TestCase bfs = std::get<DispatchCase>(c.body).test_case;
  EXPECT_EQ(unjudged_buffers(bfs), kBfsScratch);
  // An expected scratch buffer is judged byte for byte, so it comes back.
  TestCase expects_queue = bfs;
  expects_queue.expected->emplace("bfs_queue", ByteBuffer{});
  EXPECT_EQ(unjudged_buffers(expects_queue), std::vector<std::string>{"visited_set"});
  // The comparison reads its three buffers whether expected or not.
  TestCase no_overflow = bfs;
  no_overflow.expected->erase("queue_overflow");
  EXPECT_EQ(unjudged_buffers(no_overflow), kBfsScratch);
  TestCase unexpected = bfs;
  unexpected.expected.reset();
  EXPECT_TRUE(unjudged_buffers(unexpected).empty());
  TestCase bytes = bfs;
  bytes.comparison = Comparison::Bytes;
  EXPECT_TRUE(unjudged_buffers(bytes).empty());
}

}  // namespace
}  // namespace vyre::certify
