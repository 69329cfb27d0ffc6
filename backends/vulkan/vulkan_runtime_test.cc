// The Vulkan runtime: pipeline reuse, hang and budget recovery, device limits,
// device selection, host ABI errors, the staging path and module validation.
#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <thread>
#include <vector>

#include "backends/vulkan/dispatch_checks.h"
#include "backends/vulkan/vulkan_device.h"
#include "backends/vulkan/vulkan_test_support.h"
#include "spec/ir/builder.h"

namespace vyre::vulkan {
namespace {

using namespace vyre::build;
using testing::repeat;
using testing::words;
using Clock = std::chrono::steady_clock;

const Program kAddOne{
    {storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
    {64, 1, 1},
    {store("out", invocation_id(0), add(load("in", invocation_id(0)), u32(1)))}};

/// kAddOne's inputs and expected output for 64 invocations.
const BufferSet kAddOneInputs{{"in", repeat(41, 64)}, {"out", repeat(0xABABABAB, 64)}};
const BufferSet kAddOneExpected{{"out", repeat(42, 64)}};

/// Every invocation runs `iterations` loop iterations of a little arithmetic.
Program spinning(uint32_t iterations) {
  return {{storage("out", 0, BufferAccess::ReadWrite)},
          {64, 1, 1},
          {let("x", u32(0)),
           loop("i", u32(0), u32(iterations), {assign("x", add(mul(var("x"), u32(3)), var("i")))}),
           store("out", invocation_id(0), var("x"))}};
}

/// Loops nested three deep over the whole u32 range: "forever" for any device.
const Program kForever{
    {storage("out", 0, BufferAccess::ReadWrite)},
    {1, 1, 1},
    {let("x", u32(0)),
     loop("i", u32(0), u32(0xFFFFFFFF),
          {loop("j", u32(0), u32(0xFFFFFFFF),
                {loop("k", u32(0), u32(0xFFFFFFFF), {assign("x", add(var("x"), var("k")))})})}),
     store("out", u32(0), var("x"))}};

std::shared_ptr<const CompiledProgram> compile_ok(Backend& backend, const Program& p) {
  CompileOutcome compiled = backend.compile(p);
  EXPECT_EQ(compiled.status, Status::Ok) << compiled.message;
  return compiled.program;
}

void expect_add_one_works(Backend& backend) {
  auto program = compile_ok(backend, kAddOne);
  ASSERT_TRUE(program);
  DispatchOutcome run = backend.dispatch(*program, kAddOneInputs, Grid{});
  ASSERT_EQ(run.status, Status::Ok) << run.message;
  EXPECT_EQ(run.outputs, kAddOneExpected);
}

TEST(VulkanRuntime, PipelineIsBuiltOnceAndReused) {
  VulkanBackend backend{BackendOptions{}};
  auto program = compile_ok(backend, kAddOne);
  ASSERT_TRUE(program);
  EXPECT_EQ(backend.pipelines_built(), 0u) << "compile() must not touch the device";
  DispatchOutcome first = backend.dispatch(*program, kAddOneInputs, Grid{});
  ASSERT_EQ(first.status, Status::Ok) << first.message;
  EXPECT_EQ(backend.pipelines_built(), 1u);
  EXPECT_GT(first.timing.setup_ms, 0.0);
  for (int i = 0; i < 3; ++i) {
    DispatchOutcome again = backend.dispatch(*program, kAddOneInputs, Grid{});
    ASSERT_EQ(again.status, Status::Ok) << again.message;
    EXPECT_EQ(again.outputs, kAddOneExpected);
    EXPECT_EQ(again.timing.setup_ms, 0.0);
  }
  EXPECT_EQ(backend.pipelines_built(), 1u);
  // The same program compiled again is a new compiled program: a new pipeline.
  auto recompiled = compile_ok(backend, kAddOne);
  ASSERT_EQ(backend.dispatch(*recompiled, kAddOneInputs, Grid{}).status, Status::Ok);
  EXPECT_EQ(backend.pipelines_built(), 2u);
  EXPECT_EQ(backend.devices_created(), 1u);
}

/// out[i] = in[i] + k, for 64 invocations.
Program add_constant(uint32_t k) {
  return {{storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
          {64, 1, 1},
          {store("out", invocation_id(0), add(load("in", invocation_id(0)), u32(k)))}};
}

TEST(VulkanRuntime, PrepareBuildsThePipelineAheadOnlyOnAnOpenDevice) {
  VulkanBackend backend{BackendOptions{}};
  ASSERT_TRUE(backend.compiles_concurrently());
  auto early = compile_ok(backend, add_constant(5));
  ASSERT_TRUE(early);
  backend.prepare(*early);
  EXPECT_EQ(backend.pipelines_built(), 0u) << "prepare() must not open a device";
  expect_add_one_works(backend);
  EXPECT_EQ(backend.pipelines_built(), 1u);

  auto ahead = compile_ok(backend, add_constant(7));
  ASSERT_TRUE(ahead);
  backend.prepare(*ahead);
  EXPECT_EQ(backend.pipelines_built(), 2u);
  DispatchOutcome run = backend.dispatch(*ahead, kAddOneInputs, Grid{});
  ASSERT_EQ(run.status, Status::Ok) << run.message;
  EXPECT_EQ(run.outputs, (BufferSet{{"out", repeat(41 + 7, 64)}}));
  EXPECT_EQ(run.timing.setup_ms, 0.0) << "the prepared pipeline was built again";
  EXPECT_EQ(backend.pipelines_built(), 2u);
}

TEST(VulkanRuntime, CompilesAndPreparesOnOtherThreadsWhileDispatching) {
  VulkanBackend backend{BackendOptions{}};
  expect_add_one_works(backend);  // Opens the device, so prepare() builds.
  constexpr uint32_t kThreads = 4;
  constexpr uint32_t kPerThread = 6;
  std::vector<std::vector<std::shared_ptr<const CompiledProgram>>> programs(kThreads);
  std::vector<std::thread> workers;
  for (uint32_t t = 0; t < kThreads; ++t) {
    workers.emplace_back([&, t] {
      for (uint32_t i = 0; i < kPerThread; ++i) {
        CompileOutcome out = backend.compile(add_constant(100 + t * kPerThread + i));
        if (out.status == Status::Ok && out.program) backend.prepare(*out.program);
        programs[t].push_back(out.program);
      }
    });
  }
  // Meanwhile the run's thread keeps dispatching and batching.
  for (int i = 0; i < 20; ++i) expect_add_one_works(backend);
  for (std::thread& w : workers) w.join();
  for (uint32_t t = 0; t < kThreads; ++t) {
    ASSERT_EQ(programs[t].size(), kPerThread);
    for (uint32_t i = 0; i < kPerThread; ++i) {
      ASSERT_TRUE(programs[t][i]);
      BatchOptions batch;
      batch.runs = 3;
      BatchOutcome out = backend.dispatch_runs(*programs[t][i], kAddOneInputs, Grid{}, batch);
      ASSERT_EQ(out.status, Status::Ok) << out.message;
      EXPECT_EQ(out.first_outputs, (BufferSet{{"out", repeat(41 + 100 + t * kPerThread + i, 64)}}));
      EXPECT_TRUE(out.differing.empty());
    }
  }
  EXPECT_EQ(backend.devices_created(), 1u);
}

// Host-driven runs dispatch one program from several threads at once
// (concurrent_dispatches): each thread's inputs must come back as its own
// outputs, on both memory paths.
TEST(VulkanRuntime, DispatchesOneProgramFromSeveralThreadsAtOnce) {
  for (const bool staged : {false, true}) {
    BackendOptions options;
    options.force_staging = staged;
    VulkanBackend backend{options};
    EXPECT_GE(backend.concurrent_dispatches(), 1u);
    auto program = compile_ok(backend, add_constant(1));
    ASSERT_TRUE(program);
    constexpr uint32_t kThreads = 4;
    constexpr uint32_t kPerThread = 25;
    std::vector<uint32_t> wrong(kThreads, 0);
    std::vector<std::string> errors(kThreads);
    std::vector<std::thread> workers;
    for (uint32_t t = 0; t < kThreads; ++t) {
      workers.emplace_back([&, t] {
        for (uint32_t i = 0; i < kPerThread; ++i) {
          const uint32_t value = 1000 * (t + 1) + i;
          const BufferSet inputs{{"in", repeat(value, 64)}, {"out", repeat(0xABABABAB, 64)}};
          DispatchOutcome out = backend.dispatch(*program, inputs, Grid{});
          if (out.status != Status::Ok) {
            errors[t] = out.message;
            return;
          }
          if (out.outputs != BufferSet{{"out", repeat(value + 1, 64)}}) ++wrong[t];
        }
      });
    }
    for (std::thread& w : workers) w.join();
    for (uint32_t t = 0; t < kThreads; ++t) {
      EXPECT_EQ(errors[t], "") << "staged=" << staged;
      EXPECT_EQ(wrong[t], 0u) << "thread " << t << " staged=" << staged;
    }
    EXPECT_EQ(backend.devices_created(), 1u);
  }
}

// Command buffers go back when their submission ends: threads that come and
// go (a host-driven case's runs, one case after another) reuse them rather
// than each leaving one behind on the device.
TEST(VulkanDevice, CommandBuffersAreLeasedPerSubmissionNotKeptPerThread) {
  auto instance = VulkanInstance::create("");
  ASSERT_TRUE(instance.ok()) << instance.error().message;
  auto device = VulkanDevice::create(**instance);
  ASSERT_TRUE(device.ok()) << device.error().message;
  VulkanDevice& d = **device;
  const auto submit_empty = [&d] {
    Result<VkCommandBuffer> cmd = d.begin();
    ASSERT_TRUE(cmd.ok()) << cmd.error().message;
    EXPECT_EQ(d.submit_and_wait(std::chrono::seconds(10)).status, Status::Ok);
  };
  for (int i = 0; i < 20; ++i) std::thread(submit_empty).join();
  EXPECT_EQ(d.command_buffers(), 1u);
  std::vector<std::thread> together;
  for (int i = 0; i < 4; ++i)
    together.emplace_back([&] {
      for (int k = 0; k < 10; ++k) submit_empty();
    });
  for (std::thread& t : together) t.join();
  EXPECT_GE(d.command_buffers(), 1u);
  EXPECT_LE(d.command_buffers(), 4u);
  // A submission with nothing begun is an error, not a crash.
  std::thread([&d] {
    EXPECT_EQ(d.submit_and_wait(std::chrono::seconds(1)).status, Status::Error);
  }).join();
}

TEST(VulkanRuntime, LoopBudgetStopsARunawayProgramAsTimeout) {
  BackendOptions options;
  options.loop_iteration_budget = 10'000;
  VulkanBackend backend{options};
  auto program = compile_ok(backend, kForever);
  ASSERT_TRUE(program);
  const auto start = Clock::now();
  DispatchOutcome run = backend.dispatch(*program, {{"out", words({0})}}, Grid{});
  // The message, not the clock, says the budget stopped it (a generous bound
  // only against a hang).
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(60));
  EXPECT_EQ(run.status, Status::Timeout) << run.message;
  EXPECT_NE(run.message.find("10000 loop iterations"), std::string::npos) << run.message;
  EXPECT_TRUE(run.outputs.empty());
  // The budget stops the shader cleanly: the device is kept and still works.
  expect_add_one_works(backend);
  EXPECT_EQ(backend.devices_created(), 1u);
}

TEST(VulkanRuntime, HungDispatchTimesOutAndTheDeviceIsRecreated) {
  BackendOptions options;
  options.loop_iteration_budget = 0;  // No budget: only the fence timeout can stop it.
  options.fence_timeout = std::chrono::milliseconds(300);
  VulkanBackend backend{options};
  // 60000 iterations (under lavapipe's 65535-iteration loop budget) per invocation, on ever more
  // invocations until one dispatch outlasts the timeout: the abandoned work
  // then ends by itself, soon. A GPU that runs the largest grid in time gets
  // loops that never end, and keeps them until this process exits.
  auto finite = compile_ok(backend, spinning(60'000));
  ASSERT_TRUE(finite);
  DispatchOutcome run;
  Clock::duration last_in_time{};
  Clock::time_point start;
  for (uint32_t invocations = 32768;; invocations *= 4) {
    start = Clock::now();
    if (invocations > 65535u * 64) {
      auto forever = compile_ok(backend, kForever);
      ASSERT_TRUE(forever);
      run = backend.dispatch(*forever, {{"out", words({0})}}, Grid{});
      break;
    }
    run = backend.dispatch(*finite, {{"out", ByteBuffer(invocations * 4)}},
                           Grid{{invocations / 64, 1, 1}});
    if (run.status != Status::Ok) break;
    last_in_time = Clock::now() - start;
  }
  // The dispatch comes back instead of hanging; the bound is generous, since
  // a loaded machine stretches every step around the 300 ms wait.
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(60));
  ASSERT_TRUE(run.status == Status::Timeout || run.status == Status::DeviceLost)
      << name_of(run.status) << ": " << run.message;
  if (run.status == Status::Timeout) {
    EXPECT_NE(run.message.find("300 ms"), std::string::npos) << run.message;
  }
  EXPECT_EQ(backend.devices_created(), 1u);
  // Abandoned work on a CPU device still uses the cores (at most 4 times the
  // last dispatch that ran in time); let it drain, so that the next dispatch
  // does not compete with it.
  std::this_thread::sleep_for(
      std::max<Clock::duration>(std::chrono::milliseconds(1500), 4 * last_in_time));
  // The next dispatch runs on a fresh device. On a busy machine even a
  // trivial dispatch can outlast the test's short fence timeout (each such
  // timeout abandons that device and makes another), so it is tried until
  // it finishes; what must hold is that it then finishes on a new device.
  auto add_one = compile_ok(backend, kAddOne);
  ASSERT_TRUE(add_one);
  DispatchOutcome next;
  for (int attempt = 0; attempt < 20; ++attempt) {
    next = backend.dispatch(*add_one, kAddOneInputs, Grid{});
    if (next.status != Status::Timeout) break;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  ASSERT_EQ(next.status, Status::Ok) << next.message;
  EXPECT_EQ(next.outputs, kAddOneExpected);
  EXPECT_GE(backend.devices_created(), 2u);
}

TEST(VulkanRuntime, LoopEndedEarlyByTheDriverIsReportedNotReturned) {
  // A conforming device counts to 70000; lavapipe stops loops at 65535
  // iterations, which the lowering detects.
  const Program p{
      {storage("out", 0, BufferAccess::ReadWrite)},
      {1, 1, 1},
      {let("n", u32(0)), loop("i", u32(0), u32(70'000), {assign("n", add(var("n"), u32(1)))}),
       store("out", u32(0), var("n"))}};
  VulkanBackend& backend = testing::shared_backend();
  auto program = compile_ok(backend, p);
  ASSERT_TRUE(program);
  DispatchOutcome run = backend.dispatch(*program, {{"out", words({0})}}, Grid{});
  if (run.status == Status::Ok) {
    EXPECT_EQ(run.outputs, (BufferSet{{"out", words({70'000})}}));
  } else {
    EXPECT_EQ(run.status, Status::NotSupported);
    EXPECT_NE(run.message.find(kLoopEndedEarly), std::string::npos) << run.message;
    EXPECT_TRUE(run.outputs.empty());
  }
}

TEST(VulkanRuntime, LoopsShareLlvmpipesIterationBudget) {
  // Two loops of 40000 iterations, each under 65535: llvmpipe's budget is one
  // per invocation batch for all loops, so the second loop is cut short.
  const Program p{
      {storage("out", 0, BufferAccess::ReadWrite)},
      {1, 1, 1},
      {let("n", u32(0)), loop("i", u32(0), u32(40'000), {assign("n", add(var("n"), u32(1)))}),
       loop("j", u32(0), u32(40'000), {assign("n", add(var("n"), u32(1)))}),
       store("out", u32(0), var("n"))}};
  VulkanBackend& backend = testing::shared_backend();
  auto program = compile_ok(backend, p);
  ASSERT_TRUE(program);
  DispatchOutcome run = backend.dispatch(*program, {{"out", words({0})}}, Grid{});
  if (backend.probe().device_name.find("llvmpipe") == std::string::npos) {
    ASSERT_EQ(run.status, Status::Ok) << run.message;
    EXPECT_EQ(run.outputs, (BufferSet{{"out", words({80'000})}}));
    return;
  }
  EXPECT_EQ(run.status, Status::NotSupported);
  EXPECT_NE(run.message.find(kLoopEndedEarly), std::string::npos) << run.message;
  EXPECT_NE(run.message.find("shared by all its loops"), std::string::npos) << run.message;
  EXPECT_TRUE(run.outputs.empty());
}

TEST(VulkanRuntime, WorkgroupPastTheDeviceLimitIsNotSupported) {
  VulkanBackend& backend = testing::shared_backend();
  const Capabilities caps = backend.probe();
  ASSERT_TRUE(caps.unavailable.empty()) << caps.unavailable;
  // Limits of the program itself are refused by compile(), before lowering.
  Program wide = kAddOne;
  wide.workgroup_size = {caps.max_workgroup_size[0] + 1, 1, 1};
  CompileOutcome refused = backend.compile(wide);
  EXPECT_EQ(refused.status, Status::NotSupported);
  EXPECT_NE(refused.message.find("maxComputeWorkGroupSize"), std::string::npos) << refused.message;

  Program many = kAddOne;
  many.workgroup_size = {caps.max_workgroup_size[0],
                         caps.max_workgroup_invocations / caps.max_workgroup_size[0] + 1, 1};
  refused = backend.compile(many);
  EXPECT_EQ(refused.status, Status::NotSupported);
  EXPECT_NE(refused.message.find("maxComputeWorkGroupInvocations"), std::string::npos)
      << refused.message;

  const Program shared{{workgroup("big", DataType::Vec4U32,
                                  static_cast<uint32_t>(caps.max_workgroup_memory_bytes / 16 + 1))},
                       {1, 1, 1},
                       {}};
  refused = backend.compile(shared);
  EXPECT_EQ(refused.status, Status::NotSupported);
  EXPECT_NE(refused.message.find("maxComputeSharedMemorySize"), std::string::npos)
      << refused.message;

  // Limits of the grid are refused by dispatch().
  auto program = compile_ok(backend, kAddOne);
  DispatchOutcome run =
      backend.dispatch(*program, kAddOneInputs, Grid{{caps.max_workgroup_count[0] + 1, 1, 1}});
  EXPECT_EQ(run.status, Status::NotSupported);
  EXPECT_NE(run.message.find("maxComputeWorkGroupCount"), std::string::npos) << run.message;
  // The backend still works afterwards.
  expect_add_one_works(backend);
}

TEST(VulkanRuntime, HostAbiErrorsAreErrorsBeforeAnythingRuns) {
  VulkanBackend& backend = testing::shared_backend();
  auto program = compile_ok(backend, kAddOne);
  ASSERT_TRUE(program);
  DispatchOutcome run = backend.dispatch(*program, {{"in", repeat(1, 64)}}, Grid{});
  EXPECT_EQ(run.status, Status::Error);
  EXPECT_NE(run.message.find("`out`"), std::string::npos) << run.message;
  run = backend.dispatch(*program, kAddOneInputs, Grid{{0, 1, 1}});
  EXPECT_EQ(run.status, Status::Error);
  EXPECT_NE(run.message.find("0 workgroups"), std::string::npos) << run.message;
}

TEST(VulkanRuntime, ProgramOfAnotherBackendIsAnError) {
  class Foreign : public CompiledProgram {};
  DispatchOutcome run = testing::shared_backend().dispatch(Foreign{}, {}, Grid{});
  EXPECT_EQ(run.status, Status::Error);
  EXPECT_NE(run.message.find("another backend"), std::string::npos);
}

TEST(VulkanRuntime, EmptyBuffersAndProgramsWithoutBuffersRun) {
  VulkanBackend& backend = testing::shared_backend();
  EXPECT_TRUE(testing::run_ok(backend, Program{{}, {1, 1, 1}, {}}, {}).empty());
  const Program p{
      {storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
      {1, 1, 1},
      {store("out", u32(0), load("in", u32(0)))}};
  EXPECT_EQ(testing::run_ok(backend, p, {{"in", {}}, {"out", {}}}), (BufferSet{{"out", {}}}));
}

TEST(VulkanRuntime, StagedBuffersGiveTheSameBytes) {
  BackendOptions options;
  options.force_staging = true;
  VulkanBackend backend{options};
  const Program p{
      {storage("in", 0, BufferAccess::ReadOnly), storage("u", 1, BufferAccess::Uniform),
       storage("acc", 2, BufferAccess::ReadWrite), storage("out", 3, BufferAccess::ReadWrite)},
      {64, 1, 1},
      {let("k", atomic(AtomicOp::Add, "acc", u32(0), u32(1))),
       loop("i", u32(0), u32(2),
            {store("out", invocation_id(0),
                   add(load("in", invocation_id(0)), load("u", u32(1))))})}};
  // Twice: the second run reuses the first run's (now dirty) pooled buffers.
  for (uint32_t base : {5u, 6u}) {
    BufferSet out = testing::run_ok(backend, p,
                                    {{"in", repeat(base, 128)},
                                     {"u", words({0, 100})},
                                     {"acc", words({7})},
                                     {"out", ByteBuffer(128 * 4 + 2, 0xAB)}},
                                    Grid{{2, 1, 1}});
    ByteBuffer expected = repeat(base + 100, 128);
    expected.push_back(0xAB);
    expected.push_back(0xAB);
    EXPECT_EQ(out, (BufferSet{{"acc", words({7 + 128})}, {"out", expected}}));
  }
}

/// out[i] = in[i] for the 64 invocations of one workgroup.
const Program kCopy{
    {storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
    {64, 1, 1},
    {store("out", invocation_id(0), load("in", invocation_id(0)))}};

/// Dispatches of different sizes, one after another on one backend, reuse
/// pooled buffers of the same size class: a smaller dispatch must see its own
/// bytes and zeros past its inputs (SEMANTICS: an out-of-bounds load yields
/// 0, an out-of-bounds store is dropped), never the larger one's bytes.
void expect_no_bytes_of_an_earlier_dispatch(VulkanBackend& backend) {
  for (int round = 0; round < 2; ++round) {
    EXPECT_EQ(testing::run_ok(backend, kCopy,
                              {{"in", repeat(0xDEADBEEF, 64)}, {"out", repeat(0xCAFEF00D, 64)}}),
              (BufferSet{{"out", repeat(0xDEADBEEF, 64)}}));
    // `in` holds 4 words: invocations 4..63 load 0.
    ByteBuffer expected = words({1, 2, 3, 4});
    const ByteBuffer zeros = repeat(0, 60);
    expected.insert(expected.end(), zeros.begin(), zeros.end());
    EXPECT_EQ(testing::run_ok(backend, kCopy,
                              {{"in", words({1, 2, 3, 4})}, {"out", repeat(0x11111111, 64)}}),
              (BufferSet{{"out", expected}}));
    // `out` holds 3 words: the stores of invocations 3..63 are dropped.
    EXPECT_EQ(testing::run_ok(backend, kCopy, {{"in", repeat(9, 64)}, {"out", words({5, 6, 7})}}),
              (BufferSet{{"out", words({9, 9, 9})}}));
  }
}

TEST(VulkanRuntime, ASmallerDispatchSeesNoBytesOfALargerOneBefore) {
  expect_no_bytes_of_an_earlier_dispatch(testing::shared_backend());
}

TEST(VulkanRuntime, ASmallerStagedDispatchSeesNoBytesOfALargerOneBefore) {
  BackendOptions options;
  options.force_staging = true;
  VulkanBackend backend{options};
  expect_no_bytes_of_an_earlier_dispatch(backend);
}

TEST(VulkanRuntime, BytesBufferBindsWholeWordsAndReadsBackItsHostLength) {
  // SEMANTICS S1: 10 bytes are 3 backing words (seed 003), so BufLen is 3; the
  // device buffer holds 12 bytes, but the output is the 10 host bytes as given.
  BackendOptions staged_options;
  staged_options.force_staging = true;
  VulkanBackend staged{staged_options};
  const Program p{{storage("raw", 0, BufferAccess::ReadWrite, DataType::Bytes),
                   storage("out", 1, BufferAccess::ReadWrite)},
                  {1, 1, 1},
                  {store("out", u32(0), buflen("raw"))}};
  const ByteBuffer raw = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  for (Backend* backend :
       {static_cast<Backend*>(&testing::shared_backend()), static_cast<Backend*>(&staged)}) {
    // Twice: the second run reuses the first run's pooled buffers.
    for (int run = 0; run < 2; ++run) {
      EXPECT_EQ(testing::run_ok(*backend, p, {{"raw", raw}, {"out", ByteBuffer(4, 0xAB)}}),
                (BufferSet{{"raw", raw}, {"out", words({3})}}));
    }
  }
}

TEST(VulkanRuntime, DeviceIsChosenByIndexOrNameAndBadSelectorsAreExplained) {
  // Name selectors are built from the first device's own name, so every
  // case must select a device; "LLVMPIPE" and "llvmpipe" must both select
  // lavapipe wherever it is installed.
  const std::string first = testing::shared_backend().probe().device_name;
  ASSERT_FALSE(first.empty());
  std::string upper = first;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::vector<std::string> selectors = {"0", first, upper};
  if (first.find("llvmpipe") != std::string::npos) {
    selectors.insert(selectors.end(), {"llvmpipe", "LLVMPIPE", "LlvmPipe"});
  }
  for (const std::string& selector : selectors) {
    BackendOptions options;
    options.device = selector;
    VulkanBackend backend{options};
    const Capabilities caps = backend.probe();
    EXPECT_EQ(caps.unavailable, "") << selector;
    EXPECT_EQ(caps.device_name, first) << selector;
  }
  BackendOptions options;
  options.device = "no-such-gpu";
  VulkanBackend backend{options};
  const Capabilities caps = backend.probe();
  EXPECT_NE(
      caps.unavailable.find("no Vulkan device name contains \"no-such-gpu\"; the devices are:"),
      std::string::npos)
      << caps.unavailable;
  // Compiling needs no device; dispatching reports why there is none.
  auto program = compile_ok(backend, kAddOne);
  ASSERT_TRUE(program);
  DispatchOutcome run = backend.dispatch(*program, kAddOneInputs, Grid{});
  EXPECT_EQ(run.status, Status::Error);
  EXPECT_EQ(run.message, caps.unavailable);

  options.device = "99";
  EXPECT_NE(VulkanBackend{options}.probe().unavailable.find("there is no Vulkan device 99"),
            std::string::npos);
}

TEST(VulkanRuntime, ProbeReportsTheDeviceLimits) {
  const Capabilities caps = testing::shared_backend().probe();
  EXPECT_TRUE(caps.api.starts_with("Vulkan 1.")) << caps.api;
  EXPECT_GE(caps.max_workgroup_invocations, 128u);  // Vulkan's required minimum.
  EXPECT_GE(caps.max_workgroup_size[0], 128u);
  EXPECT_GE(caps.max_workgroup_count[0], 65535u);
  EXPECT_GE(caps.max_uniform_buffer_bytes, 16384u);
  EXPECT_GE(caps.max_workgroup_memory_bytes, 16384u);
  EXPECT_GT(caps.preferred_workgroup_size, 0u);
}

}  // namespace
}  // namespace vyre::vulkan
