// Batched runs (dispatch_runs) on a Vulkan device: the same bytes as the
// reference interpreter for the parity programs with zeroed and poisoned
// outputs, fresh outputs for every run, a differing run reported with its
// bytes (scratch buffers neither compared nor returned), failures per run,
// on the in-place and the staging path; and the bounded compile (device
// limits before glslang, the --timeout-ms budget).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "backends/two_outputs_test_program.h"
#include "backends/vulkan/bounded_lowering.h"
#include "backends/vulkan/vulkan_test_support.h"
#include "reference/interpreter.h"
#include "reference/spec_tables/spec_tables.h"
#include "spec/ir/builder.h"

namespace vyre::vulkan {
namespace {

using namespace vyre::build;
using testing::repeat;
using testing::words;
using vyre::testing::two_outputs_a;
using vyre::testing::two_outputs_b;
using vyre::testing::two_outputs_program;

/// Byte the poisoned variants fill pure outputs with.
constexpr uint8_t kPoison = 0xAB;

/// 64 invocations each add 1 to out[0] with an atomic; `out` starts at 5, so
/// every run that starts from fresh outputs ends with 69 (a reused output
/// would show 133, 197, ...).
const Program kAtomicCounter{{storage("out", 0, BufferAccess::ReadWrite)},
                             {64, 1, 1},
                             {let("old", atomic(AtomicOp::Add, "out", u32(0), u32(1)))}};

/// out[i] = in[i] * 3 + 1, like the benchmark's elementwise workload.
const Program kTriple{
    {storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
    {64, 1, 1},
    {store("out", invocation_id(0), add(mul(load("in", invocation_id(0)), u32(3)), u32(1)))}};

std::shared_ptr<const CompiledProgram> compile_ok(Backend& backend, const Program& p) {
  CompileOutcome compiled = backend.compile(p);
  EXPECT_EQ(compiled.status, Status::Ok) << compiled.message;
  return compiled.program;
}

/// `c` with every all-zero read_write buffer filled with kPoison; nullopt when none.
std::optional<TestCase> poisoned(const TestCase& c) {
  TestCase out = c;
  bool any = false;
  for (const BufferDecl& b : c.program.buffers) {
    if (b.access != BufferAccess::ReadWrite) continue;
    ByteBuffer& bytes = out.inputs[b.name];
    if (bytes.empty() || std::any_of(bytes.begin(), bytes.end(), [](uint8_t v) { return v; })) {
      continue;
    }
    std::fill(bytes.begin(), bytes.end(), kPoison);
    any = true;
  }
  if (!any) return std::nullopt;
  return out;
}

/// Runs every case (and its poisoned variant) as a batch of 6 runs over 2
/// submissions and expects the interpreter's bytes from every run; returns
/// how many batches were compared.
int expect_batches_match_reference(Backend& backend, const std::vector<TestCase>& cases) {
  int compared = 0;
  for (const TestCase& c : cases) {
    auto program = compile_ok(backend, c.program);
    if (!program) continue;
    std::vector<TestCase> variants = {c};
    if (std::optional<TestCase> p = poisoned(c)) variants.push_back(std::move(*p));
    for (const TestCase& v : variants) {
      Result<reference::RunResult> expected = reference::run(v.program, v.inputs, v.grid);
      if (!expected.ok() || !expected->conforming()) {
        ADD_FAILURE() << c.name << ": the reference interpreter does not run it cleanly";
        continue;
      }
      const BatchOutcome batch = backend.dispatch_runs(*program, v.inputs, v.grid, {6, 2});
      EXPECT_EQ(batch.status, Status::Ok) << c.name << ": " << batch.message;
      EXPECT_EQ(batch.dispatches, 6u) << c.name;
      EXPECT_GE(batch.submissions, 2u) << c.name;
      EXPECT_TRUE(batch.first_outputs == expected->outputs)
          << c.name << "\nreference" << testing::describe(expected->outputs) << "\nbatch"
          << testing::describe(batch.first_outputs);
      EXPECT_EQ(batch.differing_runs, 0u) << c.name;
      EXPECT_TRUE(batch.differing.empty()) << c.name;
      ++compared;
    }
  }
  return compared;
}

TEST(VulkanBatch, SpecTableCasesMatchTheReferenceInEveryRun) {
  const std::vector<TestCase> cases = reference::spec_table_cases();
  ASSERT_FALSE(cases.empty());
  EXPECT_GT(expect_batches_match_reference(testing::shared_backend(), cases),
            static_cast<int>(cases.size()));
}

TEST(VulkanBatch, ExecutionModelCasesMatchTheReferenceInEveryRun) {
  const std::vector<TestCase> cases = reference::execution_model_cases();
  ASSERT_FALSE(cases.empty());
  EXPECT_GE(expect_batches_match_reference(testing::shared_backend(), cases),
            static_cast<int>(cases.size()));
}

TEST(VulkanBatch, StagedPathMatchesTheReference) {
  BackendOptions options;
  options.force_staging = true;
  VulkanBackend staged{options};
  const std::vector<TestCase> cases = reference::execution_model_cases();
  ASSERT_FALSE(cases.empty());
  EXPECT_GE(expect_batches_match_reference(staged, cases), static_cast<int>(cases.size()));
}

/// Every run of a batch sees the initial bytes, not an earlier run's output.
void expect_fresh_outputs(Backend& backend) {
  auto program = compile_ok(backend, kAtomicCounter);
  ASSERT_TRUE(program);
  for (const BatchOptions& options :
       {BatchOptions{1, 1}, BatchOptions{10, 1}, BatchOptions{10, 3}, BatchOptions{7, 7}}) {
    const BatchOutcome batch =
        backend.dispatch_runs(*program, {{"out", words({5})}}, Grid{}, options);
    ASSERT_EQ(batch.status, Status::Ok) << batch.message;
    EXPECT_EQ(batch.first_outputs, (BufferSet{{"out", words({69})}}));
    EXPECT_EQ(batch.differing_runs, 0u);
    EXPECT_EQ(batch.dispatches, options.runs);
    EXPECT_GE(batch.submissions, options.submissions);
  }
}

TEST(VulkanBatch, EveryRunStartsFromFreshOutputs) {
  expect_fresh_outputs(testing::shared_backend());
}

TEST(VulkanBatch, EveryRunStartsFromFreshOutputsOnTheStagedPath) {
  BackendOptions options;
  options.force_staging = true;
  VulkanBackend staged{options};
  expect_fresh_outputs(staged);
}

/// in = 0..63, so out = 1, 4, 7, ...
BufferSet triple_inputs() {
  std::vector<uint32_t> in(64);
  for (uint32_t i = 0; i < 64; ++i) in[i] = i;
  return {{"in", words(in)}, {"out", repeat(0, 64)}};
}

ByteBuffer triple_expected(bool perturbed) {
  std::vector<uint32_t> out(64);
  for (uint32_t i = 0; i < 64; ++i) out[i] = i * 3 + 1;
  if (perturbed) out[0] = 0x5A5A5A5A;  // What perturb_run_for_testing writes.
  return words(out);
}

void expect_differing_run_reported(VulkanBackend& backend) {
  auto program = compile_ok(backend, kTriple);
  ASSERT_TRUE(program);
  backend.perturb_run_for_testing(5);
  const BatchOutcome batch = backend.dispatch_runs(*program, triple_inputs(), Grid{}, {8, 2});
  backend.perturb_run_for_testing(std::nullopt);
  ASSERT_EQ(batch.status, Status::Ok) << batch.message;
  EXPECT_EQ(batch.first_outputs.at("out"), triple_expected(false));
  EXPECT_EQ(batch.differing_runs, 1u);
  ASSERT_EQ(batch.differing.size(), 1u);
  EXPECT_EQ(batch.differing[0].run, 5u);
  EXPECT_EQ(batch.differing[0].outputs.at("out"), triple_expected(true));
}

TEST(VulkanBatch, ADifferingRunIsReportedWithItsBytes) {
  expect_differing_run_reported(testing::shared_backend());
}

TEST(VulkanBatch, ADifferingRunIsReportedWithItsBytesOnTheStagedPath) {
  BackendOptions options;
  options.force_staging = true;
  VulkanBackend staged{options};
  expect_differing_run_reported(staged);
}

TEST(VulkanBatch, ADifferingRunZeroMakesEveryOtherRunDiffer) {
  VulkanBackend& backend = testing::shared_backend();
  auto program = compile_ok(backend, kTriple);
  ASSERT_TRUE(program);
  backend.perturb_run_for_testing(0);
  const BatchOutcome batch = backend.dispatch_runs(*program, triple_inputs(), Grid{}, {10, 3});
  backend.perturb_run_for_testing(std::nullopt);
  ASSERT_EQ(batch.status, Status::Ok) << batch.message;
  EXPECT_EQ(batch.first_outputs.at("out"), triple_expected(true));
  EXPECT_EQ(batch.differing_runs, 9u);
  ASSERT_EQ(batch.differing.size(), kMaxReportedDifferingRuns);
  for (uint32_t i = 0; i < kMaxReportedDifferingRuns; ++i) {
    EXPECT_EQ(batch.differing[i].run, i + 1);
    EXPECT_EQ(batch.differing[i].outputs.at("out"), triple_expected(false));
  }
}

/// 8 runs in 2 submissions of two_outputs_program, run 5 perturbed, `scratch` not
/// judged, at most `reported` differing runs returned.
BatchOutcome perturbed_two_outputs(VulkanBackend& backend, std::vector<std::string> scratch,
                                   uint32_t reported = kMaxReportedDifferingRuns) {
  auto program = compile_ok(backend, two_outputs_program());
  if (!program) return {};
  BatchOptions options{8, 2};
  options.scratch = std::move(scratch);
  options.reported_differing = reported;
  backend.perturb_run_for_testing(5);
  BatchOutcome batch = backend.dispatch_runs(*program, {{"a", repeat(0, 64)}, {"b", repeat(0, 64)}},
                                             Grid{}, options);
  backend.perturb_run_for_testing(std::nullopt);
  return batch;
}

/// A run differing from run 0 only in a scratch buffer is no differing run;
/// one differing in a judged buffer comes back without its scratch; run 0
/// keeps every buffer.
void expect_scratch_not_judged(VulkanBackend& backend) {
  const BatchOutcome only_scratch = perturbed_two_outputs(backend, {"a"});
  ASSERT_EQ(only_scratch.status, Status::Ok) << only_scratch.message;
  EXPECT_EQ(only_scratch.first_outputs,
            (BufferSet{{"a", two_outputs_a(false)}, {"b", two_outputs_b()}}));
  EXPECT_EQ(only_scratch.differing_runs, 0u);
  EXPECT_TRUE(only_scratch.differing.empty());
  // Counted without being read back: the device's comparison itself skips scratch.
  const BatchOutcome uncounted = perturbed_two_outputs(backend, {"a"}, 0);
  ASSERT_EQ(uncounted.status, Status::Ok) << uncounted.message;
  EXPECT_EQ(uncounted.differing_runs, 0u);
  const BatchOutcome counted = perturbed_two_outputs(backend, {"b"}, 0);
  EXPECT_EQ(counted.differing_runs, 1u);
  EXPECT_TRUE(counted.differing.empty());

  const BatchOutcome judged = perturbed_two_outputs(backend, {"b"});
  ASSERT_EQ(judged.status, Status::Ok) << judged.message;
  EXPECT_EQ(judged.first_outputs, (BufferSet{{"a", two_outputs_a(false)}, {"b", two_outputs_b()}}));
  EXPECT_EQ(judged.differing_runs, 1u);
  ASSERT_EQ(judged.differing.size(), 1u);
  EXPECT_EQ(judged.differing[0].run, 5u);
  EXPECT_EQ(judged.differing[0].outputs, (BufferSet{{"a", two_outputs_a(true)}}));
}

TEST(VulkanBatch, ScratchBuffersAreNeitherComparedNorReturnedForDifferingRuns) {
  expect_scratch_not_judged(testing::shared_backend());
}

TEST(VulkanBatch, ScratchBuffersAreNeitherComparedNorReturnedOnTheStagedPath) {
  BackendOptions options;
  options.force_staging = true;
  VulkanBackend staged{options};
  expect_scratch_not_judged(staged);
}

TEST(VulkanBatch, ALoopPastItsBudgetFailsTheBatch) {
  BackendOptions options;
  options.loop_iteration_budget = 100;
  VulkanBackend backend{options};
  const Program spinning{{storage("out", 0, BufferAccess::ReadWrite)},
                         {1, 1, 1},
                         {loop("i", u32(0), u32(1000), {store("out", u32(0), var("i"))})}};
  auto program = compile_ok(backend, spinning);
  ASSERT_TRUE(program);
  const BatchOutcome batch = backend.dispatch_runs(*program, {{"out", words({0})}}, Grid{}, {4, 2});
  EXPECT_EQ(batch.status, Status::Timeout) << batch.message;
  EXPECT_EQ(batch.failed_run, 0u);
  EXPECT_TRUE(batch.first_outputs.empty());
}

TEST(VulkanBatch, BadInputsAreAnErrorNotACrash) {
  VulkanBackend& backend = testing::shared_backend();
  auto program = compile_ok(backend, kTriple);
  ASSERT_TRUE(program);
  const BatchOutcome batch =
      backend.dispatch_runs(*program, {{"out", repeat(0, 64)}}, Grid{}, {4, 1});
  EXPECT_EQ(batch.status, Status::Error);
  EXPECT_NE(batch.message.find("no input bytes for buffer `in`"), std::string::npos);
  EXPECT_EQ(batch.dispatches, 0u);
}

TEST(VulkanCompile, AProgramPastTheDescriptorLimitsIsRefusedBeforeLowering) {
  // Valid, and glslang would spend half an hour on it (issue 13).
  Program p{{}, {1, 1, 1}, {}};
  for (uint32_t i = 0; i < 60000; ++i) {
    p.buffers.push_back(storage("b" + std::to_string(i), i, BufferAccess::ReadOnly));
  }
  const CompileOutcome compiled = testing::shared_backend().compile(p);
  EXPECT_EQ(compiled.status, Status::NotSupported) << compiled.message;
  EXPECT_NE(compiled.message.find("exceeds max"), std::string::npos) << compiled.message;
}

TEST(VulkanCompile, ALoweringPastTheTimeoutIsATimeout) {
  // Hundreds of statements take the lowering well over a millisecond.
  Program p{{storage("out", 0, BufferAccess::ReadWrite)}, {1, 1, 1}, {}};
  for (uint32_t i = 0; i < 300; ++i) p.entry.push_back(store("out", u32(i), u32(i)));
  BackendOptions options;
  options.fence_timeout = std::chrono::milliseconds(1);
  VulkanBackend backend{options};
  const CompileOutcome compiled = backend.compile(p);
  EXPECT_EQ(compiled.status, Status::Timeout) << compiled.message;
  EXPECT_NE(compiled.message.find("--timeout-ms"), std::string::npos);
  // The abandoned worker finishes on its own (and must, before the test
  // process exits and tears glslang's statics down under it).
  EXPECT_GE(abandoned_lowerings_running(), 1u);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (abandoned_lowerings_running() != 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(abandoned_lowerings_running(), 0u);
}

}  // namespace
}  // namespace vyre::vulkan
