// Batched runs (dispatch_runs) on an OpenCL device (PoCL in CI): the same
// bytes and statuses as single dispatches and the reference interpreter on
// the spec-table and execution-model cases, fresh outputs for every run, a
// differing run reported with its bytes (scratch buffers neither compared
// nor returned), failures per run, also with the runs spread over four
// queues; and the disk cache seen through the backend.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <initializer_list>

#include "backends/opencl/opencl_test_support.h"
#include "backends/two_outputs_test_program.h"
#include "reference/interpreter.h"
#include "reference/spec_tables/spec_tables.h"
#include "spec/ir/builder.h"

namespace vyre::opencl {
namespace {

using namespace vyre::build;
using testing::words;
using vyre::testing::two_outputs_a;
using vyre::testing::two_outputs_b;
using vyre::testing::two_outputs_program;

/// 64 invocations each add 1 to out[0] with an atomic; `out` starts at 5, so
/// every run that starts from fresh outputs ends with 69.
const Program kCounter{{storage("out", 0, BufferAccess::ReadWrite)},
                       {64, 1, 1},
                       {let("old", atomic(AtomicOp::Add, "out", u32(0), u32(1)))}};

/// out[i] = in[i] * 3 + 1.
const Program kTimesThree{
    {storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
    {64, 1, 1},
    {store("out", invocation_id(0), add(mul(load("in", invocation_id(0)), u32(3)), u32(1)))}};

std::shared_ptr<const CompiledProgram> compiled_ok(Backend& backend, const Program& p) {
  CompileOutcome compiled = backend.compile(p);
  EXPECT_EQ(compiled.status, Status::Ok) << compiled.message;
  return compiled.program;
}

/// Every case as a batch of 6 runs over 2 submissions and as one dispatch:
/// same status, run 0's bytes equal to the dispatch's and the reference's,
/// no run differing. Returns how many cases were compared.
int expect_batches_match(Backend& backend, const std::vector<TestCase>& cases) {
  int compared = 0;
  for (const TestCase& c : cases) {
    auto program = compiled_ok(backend, c.program);
    if (!program) continue;
    Result<reference::RunResult> expected = reference::run(c.program, c.inputs, c.grid);
    if (!expected.ok() || !expected->conforming()) continue;
    const DispatchOutcome single = backend.dispatch(*program, c.inputs, c.grid);
    const BatchOutcome batch = backend.dispatch_runs(*program, c.inputs, c.grid, {6, 2});
    EXPECT_EQ(batch.status, single.status) << c.name << ": " << batch.message;
    EXPECT_EQ(batch.status, Status::Ok) << c.name << ": " << batch.message;
    EXPECT_EQ(batch.dispatches, 6u) << c.name;
    EXPECT_GE(batch.submissions, 2u) << c.name;
    EXPECT_TRUE(batch.first_outputs == single.outputs) << c.name;
    EXPECT_TRUE(batch.first_outputs == expected->outputs)
        << c.name << "\nreference" << testing::describe(expected->outputs) << "\nbatch"
        << testing::describe(batch.first_outputs);
    EXPECT_EQ(batch.differing_runs, 0u) << c.name;
    ++compared;
  }
  return compared;
}

TEST(OpenClBatch, SpecTableCasesMatchSingleDispatchesAndTheReference) {
  const std::vector<TestCase> cases = reference::spec_table_cases();
  ASSERT_FALSE(cases.empty());
  EXPECT_EQ(expect_batches_match(testing::shared_backend(), cases), static_cast<int>(cases.size()));
}

TEST(OpenClBatch, ExecutionModelCasesMatchSingleDispatchesAndTheReference) {
  const std::vector<TestCase> cases = reference::execution_model_cases();
  ASSERT_FALSE(cases.empty());
  EXPECT_EQ(expect_batches_match(testing::shared_backend(), cases), static_cast<int>(cases.size()));
}

/// Batches of kCounter with each of `options` on `backend`: every run starts
/// from `out` = 5, so run 0 ends with 69 and no run differs.
void expect_fresh_outputs(OpenClBackend& backend, std::initializer_list<BatchOptions> options) {
  auto program = compiled_ok(backend, kCounter);
  ASSERT_TRUE(program);
  for (const BatchOptions& o : options) {
    const BatchOutcome batch = backend.dispatch_runs(*program, {{"out", words({5})}}, {}, o);
    ASSERT_EQ(batch.status, Status::Ok) << batch.message;
    EXPECT_EQ(batch.first_outputs, (BufferSet{{"out", words({69})}}));
    EXPECT_EQ(batch.differing_runs, 0u);
    EXPECT_EQ(batch.dispatches, o.runs);
    EXPECT_GE(batch.submissions, o.submissions);
  }
}

TEST(OpenClBatch, EveryRunStartsFromFreshOutputs) {
  expect_fresh_outputs(testing::shared_backend(), {BatchOptions{1, 1}, BatchOptions{10, 1},
                                                   BatchOptions{10, 3}, BatchOptions{7, 7}});
}

BufferSet times_three_inputs() {
  std::vector<uint32_t> in(64);
  for (uint32_t i = 0; i < 64; ++i) in[i] = i;
  return {{"in", words(in)}, {"out", words(std::vector<uint32_t>(64, 0))}};
}

ByteBuffer times_three_expected(bool perturbed) {
  std::vector<uint32_t> out(64);
  for (uint32_t i = 0; i < 64; ++i) out[i] = i * 3 + 1;
  if (perturbed) out[0] = 0x5A5A5A5A;  // What perturb_run_for_testing writes.
  return words(out);
}

/// 8 runs of kTimesThree in 2 submissions on `backend`, run `perturbed`
/// overwritten: it alone comes back, with its bytes.
void expect_perturbed_run_reported(OpenClBackend& backend, uint32_t perturbed) {
  auto program = compiled_ok(backend, kTimesThree);
  ASSERT_TRUE(program);
  backend.perturb_run_for_testing(perturbed);
  const BatchOutcome batch = backend.dispatch_runs(*program, times_three_inputs(), {}, {8, 2});
  backend.perturb_run_for_testing(std::nullopt);
  ASSERT_EQ(batch.status, Status::Ok) << batch.message;
  EXPECT_EQ(batch.first_outputs.at("out"), times_three_expected(false));
  EXPECT_EQ(batch.differing_runs, 1u);
  ASSERT_EQ(batch.differing.size(), 1u);
  EXPECT_EQ(batch.differing[0].run, perturbed);
  EXPECT_EQ(batch.differing[0].outputs.at("out"), times_three_expected(true));
}

TEST(OpenClBatch, ADifferingRunIsReportedWithItsBytes) {
  expect_perturbed_run_reported(testing::shared_backend(), 5);
}

TEST(OpenClBatch, ADifferingRunZeroMakesEveryOtherRunDiffer) {
  OpenClBackend& backend = testing::shared_backend();
  auto program = compiled_ok(backend, kTimesThree);
  ASSERT_TRUE(program);
  backend.perturb_run_for_testing(0);
  const BatchOutcome batch = backend.dispatch_runs(*program, times_three_inputs(), {}, {10, 3});
  backend.perturb_run_for_testing(std::nullopt);
  ASSERT_EQ(batch.status, Status::Ok) << batch.message;
  EXPECT_EQ(batch.first_outputs.at("out"), times_three_expected(true));
  EXPECT_EQ(batch.differing_runs, 9u);
  ASSERT_EQ(batch.differing.size(), kMaxReportedDifferingRuns);
  for (uint32_t i = 0; i < kMaxReportedDifferingRuns; ++i) {
    EXPECT_EQ(batch.differing[i].run, i + 1);
    EXPECT_EQ(batch.differing[i].outputs.at("out"), times_three_expected(false));
  }
}

/// 8 runs in 2 submissions of two_outputs_program, run 5 perturbed, `scratch` not
/// judged, at most `reported` differing runs returned.
BatchOutcome perturbed_two_outputs(std::vector<std::string> scratch,
                                   uint32_t reported = kMaxReportedDifferingRuns) {
  OpenClBackend& backend = testing::shared_backend();
  auto program = compiled_ok(backend, two_outputs_program());
  if (!program) return {};
  BatchOptions options{8, 2};
  options.scratch = std::move(scratch);
  options.reported_differing = reported;
  const ByteBuffer zeros = words(std::vector<uint32_t>(64, 0));
  backend.perturb_run_for_testing(5);
  BatchOutcome batch = backend.dispatch_runs(*program, {{"a", zeros}, {"b", zeros}}, {}, options);
  backend.perturb_run_for_testing(std::nullopt);
  return batch;
}

TEST(OpenClBatch, ARunDifferingOnlyInScratchIsNoDifferingRun) {
  const BatchOutcome batch = perturbed_two_outputs({"a"});
  ASSERT_EQ(batch.status, Status::Ok) << batch.message;
  // Run 0 keeps every buffer.
  EXPECT_EQ(batch.first_outputs, (BufferSet{{"a", two_outputs_a(false)}, {"b", two_outputs_b()}}));
  EXPECT_EQ(batch.differing_runs, 0u);
  EXPECT_TRUE(batch.differing.empty());
  // Counted without being read back: the compare kernel itself skips scratch.
  const BatchOutcome uncounted = perturbed_two_outputs({"a"}, 0);
  ASSERT_EQ(uncounted.status, Status::Ok) << uncounted.message;
  EXPECT_EQ(uncounted.differing_runs, 0u);
  const BatchOutcome counted = perturbed_two_outputs({"b"}, 0);
  EXPECT_EQ(counted.differing_runs, 1u);
  EXPECT_TRUE(counted.differing.empty());
}

TEST(OpenClBatch, ARunDifferingInAJudgedBufferComesBackWithoutScratch) {
  const BatchOutcome batch = perturbed_two_outputs({"b"});
  ASSERT_EQ(batch.status, Status::Ok) << batch.message;
  EXPECT_EQ(batch.first_outputs, (BufferSet{{"a", two_outputs_a(false)}, {"b", two_outputs_b()}}));
  EXPECT_EQ(batch.differing_runs, 1u);
  ASSERT_EQ(batch.differing.size(), 1u);
  EXPECT_EQ(batch.differing[0].run, 5u);
  EXPECT_EQ(batch.differing[0].outputs, (BufferSet{{"a", two_outputs_a(true)}}));
}

/// Options with a loop budget of 100 iterations and batches over `queues`
/// queues (0: the backend's choice).
BackendOptions hundred_iteration_budget(uint32_t queues) {
  BackendOptions options;
  options.loop_iteration_budget = 100;
  options.batch_queues = queues;
  return options;
}

/// A batch of `runs` runs of a 1000-iteration loop on a backend made with
/// hundred_iteration_budget: the batch fails with Timeout at run 0.
void expect_loop_past_budget_fails(OpenClBackend& backend, uint32_t runs) {
  const Program spinning{{storage("out", 0, BufferAccess::ReadWrite)},
                         {1, 1, 1},
                         {loop("i", u32(0), u32(1000), {store("out", u32(0), var("i"))})}};
  auto program = compiled_ok(backend, spinning);
  ASSERT_TRUE(program);
  const BatchOutcome batch = backend.dispatch_runs(*program, {{"out", words({0})}}, {}, {runs, 2});
  EXPECT_EQ(batch.status, Status::Timeout) << batch.message;
  EXPECT_EQ(batch.failed_run, 0u);
  EXPECT_TRUE(batch.first_outputs.empty());
}

TEST(OpenClBatch, ALoopPastItsBudgetFailsTheBatch) {
  OpenClBackend backend{hundred_iteration_budget(0)};
  expect_loop_past_budget_fails(backend, 4);
}

TEST(OpenClBatch, BadInputsAreAnErrorNotACrash) {
  OpenClBackend& backend = testing::shared_backend();
  auto program = compiled_ok(backend, kTimesThree);
  ASSERT_TRUE(program);
  const BatchOutcome batch =
      backend.dispatch_runs(*program, {{"out", words(std::vector<uint32_t>(64, 0))}}, {}, {4, 1});
  EXPECT_EQ(batch.status, Status::Error);
  EXPECT_NE(batch.message.find("`in`"), std::string::npos) << batch.message;
  EXPECT_EQ(batch.dispatches, 0u);
}

/// A backend whose batches spread their runs over four queues, as on a GPU
/// (kBatchQueues), whatever the device.
OpenClBackend& four_queue_backend() {
  static OpenClBackend backend{[] {
    BackendOptions options;
    options.batch_queues = 4;
    return options;
  }()};
  return backend;
}

TEST(OpenClBatchOverFourQueues, CasesMatchSingleDispatchesAndTheReference) {
  std::vector<TestCase> cases = reference::spec_table_cases();
  const std::vector<TestCase> model = reference::execution_model_cases();
  cases.insert(cases.end(), model.begin(), model.end());
  ASSERT_FALSE(cases.empty());
  EXPECT_EQ(expect_batches_match(four_queue_backend(), cases), static_cast<int>(cases.size()));
}

TEST(OpenClBatchOverFourQueues, EveryRunStartsFromFreshOutputs) {
  // Each queue's outputs are made fresh by the copy before its first run,
  // then by each comparison: runs 4, 8, ... reuse a queue's buffer.
  expect_fresh_outputs(four_queue_backend(), {BatchOptions{2, 1}, BatchOptions{10, 1},
                                              BatchOptions{100, 3}, BatchOptions{7, 7}});
}

TEST(OpenClBatchOverFourQueues, ADifferingRunInAStreamIsReportedWithItsBytes) {
  // Run 6 of 8 in 2 submissions: the third queue.
  expect_perturbed_run_reported(four_queue_backend(), 6);
}

TEST(OpenClBatchOverFourQueues, ALoopPastItsBudgetFailsTheBatchAndTheLaneGoesOn) {
  OpenClBackend backend{hundred_iteration_budget(4)};
  expect_loop_past_budget_fails(backend, 8);
  auto counter = compiled_ok(backend, kCounter);
  ASSERT_TRUE(counter);
  const BatchOutcome after = backend.dispatch_runs(*counter, {{"out", words({5})}}, {}, {8, 2});
  ASSERT_EQ(after.status, Status::Ok) << after.message;
  EXPECT_EQ(after.first_outputs, (BufferSet{{"out", words({69})}}));
  EXPECT_EQ(after.differing_runs, 0u);
}

TEST(OpenClDiskCache, ASecondBackendLoadsItsKernelsFromTheCacheFolder) {
  namespace fs = std::filesystem;
  std::string dir = (fs::temp_directory_path() / "vyre-cl-backend-cache-XXXXXX").string();
  ASSERT_NE(::mkdtemp(dir.data()), nullptr);
  BackendOptions options;
  options.cache_dir = dir;
  const auto run_once = [&](uint64_t& built, uint64_t& loaded) {
    OpenClBackend backend{options};
    auto program = compiled_ok(backend, kTimesThree);
    ASSERT_TRUE(program);
    const BatchOutcome batch = backend.dispatch_runs(*program, times_three_inputs(), {}, {3, 1});
    ASSERT_EQ(batch.status, Status::Ok) << batch.message;
    EXPECT_EQ(batch.first_outputs.at("out"), times_three_expected(false));
    built = backend.kernels_built();
    loaded = backend.kernels_loaded();
    std::optional<DriverCacheUse> use = backend.driver_cache();
    ASSERT_TRUE(use);
    EXPECT_EQ(use->dir, dir);
    EXPECT_EQ(use->hits, loaded);
  };
  uint64_t built = 0;
  uint64_t loaded = 0;
  run_once(built, loaded);
  EXPECT_GE(built, 1u);  // The program's kernel (and the compare kernel).
  EXPECT_EQ(loaded, 0u);
  run_once(built, loaded);
  EXPECT_EQ(built, 0u);
  EXPECT_GE(loaded, 2u);
  std::error_code ec;
  fs::remove_all(dir, ec);
}

TEST(OpenClDiskCache, NoFolderKeepsNoCache) {
  EXPECT_FALSE(OpenClBackend{BackendOptions{}}.driver_cache());
}

}  // namespace
}  // namespace vyre::opencl
