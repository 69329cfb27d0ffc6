// Dispatches from several threads at once on one OpenCL backend (PoCL in
// CI, forced to 4 lanes by BackendOptions::dispatch_lanes): each lane's own
// kernel objects, every thread's bytes its own (one program from several
// threads, different programs, batches, a seeded difference on one thread),
// and a hung lane's recovery while other lanes run.
#include "backends/opencl/dispatch_lanes.h"

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "backends/opencl/lowering.h"
#include "backends/opencl/opencl_test_support.h"
#include "spec/ir/builder.h"

namespace vyre::opencl::lanes_test {
namespace {

using namespace vyre::build;
using testing::spinning_program;
using testing::words;

constexpr uint32_t kLanes = 4;

/// out[i] = in[i] + k, for 64 invocations.
Program add_constant(uint32_t k) {
  return {{storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
          {64, 1, 1},
          {store("out", invocation_id(0), add(load("in", invocation_id(0)), u32(k)))}};
}

/// 64 invocations each add 1 to out[0] with an atomic.
const Program kCounter{{storage("out", 0, BufferAccess::ReadWrite)},
                       {64, 1, 1},
                       {let("old", atomic(AtomicOp::Add, "out", u32(0), u32(1)))}};

/// 64 words: value, value + 1, ... (so that a run's bytes name its input).
std::vector<uint32_t> ramp(uint32_t value) {
  std::vector<uint32_t> out(64);
  for (uint32_t i = 0; i < 64; ++i) out[i] = value + i;
  return out;
}

std::shared_ptr<const CompiledProgram> compiled_ok(Backend& backend, const Program& p) {
  CompileOutcome compiled = backend.compile(p);
  EXPECT_EQ(compiled.status, Status::Ok) << compiled.message;
  return compiled.program;
}

BackendOptions with_lanes() {
  BackendOptions options;
  options.dispatch_lanes = kLanes;
  return options;
}

/// Runs `work(t)` on `threads` threads at once; each returns "" or what went wrong.
void on_threads(uint32_t threads, const std::function<std::string(uint32_t)>& work) {
  std::vector<std::string> errors(threads);
  std::vector<std::thread> workers;
  for (uint32_t t = 0; t < threads; ++t) workers.emplace_back([&, t] { errors[t] = work(t); });
  for (std::thread& w : workers) w.join();
  for (uint32_t t = 0; t < threads; ++t) EXPECT_EQ(errors[t], "") << "thread " << t;
}

TEST(OpenClLanes, TheDefaultIsOneLaneOnACpuDeviceAndUpToTwoOnAGpu) {
  EXPECT_EQ(default_dispatch_lanes(CL_DEVICE_TYPE_GPU, 16), 2u);
  EXPECT_EQ(default_dispatch_lanes(CL_DEVICE_TYPE_GPU, 2), 2u);
  EXPECT_EQ(default_dispatch_lanes(CL_DEVICE_TYPE_GPU, 0), 1u);  // Unknown core count.
  EXPECT_EQ(default_dispatch_lanes(CL_DEVICE_TYPE_CPU, 16), 1u);
  EXPECT_EQ(default_dispatch_lanes(CL_DEVICE_TYPE_ACCELERATOR, 16), 1u);
  // PoCL (the local device) is a CPU device; the option overrides the choice.
  BackendOptions pocl;
  pocl.device = "portable computing language";
  EXPECT_EQ(OpenClBackend{pocl}.concurrent_dispatches(), 1u);
  pocl.dispatch_lanes = 3;
  EXPECT_EQ(OpenClBackend{pocl}.concurrent_dispatches(), 3u);
  BackendOptions missing;
  missing.device = "no such device";
  EXPECT_EQ(OpenClBackend{missing}.concurrent_dispatches(), 1u);
}

// clSetKernelArg on one kernel object from two threads is a data race
// (OpenCL 1.2, appendix A.2): every lane but 0 gets an object of its own.
TEST(OpenClLanes, EachLaneHasItsOwnKernelObjectOfOneProgram) {
  OpenClApi api;
  ClDevice device;
  std::shared_ptr<ClQueue> queue;
  testing::open_device_queue(api, device, queue);
  ASSERT_FALSE(HasFatalFailure());
  Result<LoweredKernel> lowered = lower_program(add_constant(7));
  ASSERT_TRUE(lowered.ok()) << lowered.error().message;
  ProgramBuilder builder(api, queue->shared_context(), nullptr, "test device",
                         device.capabilities.device_name, std::make_shared<BuildCounts>());
  auto built = builder.build({lowered->source});
  ASSERT_TRUE(built[0].ok()) << built[0].error().message;
  const std::shared_ptr<const BuiltKernel>& shared = *built[0];
  std::vector<cl_kernel> objects;
  for (size_t lane = 0; lane < kLanes; ++lane) {
    Result<std::shared_ptr<const BuiltKernel>> mine = kernel_for_lane(shared, lane);
    ASSERT_TRUE(mine.ok()) << mine.error().message;
    EXPECT_EQ((*mine)->program, shared->program) << "lane " << lane;
    EXPECT_EQ((*mine)->max_work_group_size, shared->max_work_group_size);
    Result<std::shared_ptr<const BuiltKernel>> again = kernel_for_lane(shared, lane);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->get(), mine->get()) << "lane " << lane << " made a second object";
    objects.push_back((*mine)->kernel);
  }
  EXPECT_EQ(objects[0], shared->kernel);
  for (size_t a = 0; a < objects.size(); ++a) {
    for (size_t b = a + 1; b < objects.size(); ++b) EXPECT_NE(objects[a], objects[b]);
  }
}

// Two threads dispatch one program (one kernel) with their own inputs, two
// others another program and batches; one batch has a seeded difference at
// run 5, which the other threads' batches (5 runs: 0..4) never reach.
TEST(OpenClLanes, ThreadsDispatchingProgramsAndBatchesAtOnceEachGetTheirOwnBytes) {
  OpenClBackend backend{with_lanes()};
  ASSERT_EQ(backend.concurrent_dispatches(), kLanes);
  auto shared_program = compiled_ok(backend, add_constant(1));
  auto other_program = compiled_ok(backend, add_constant(1000));
  auto counter = compiled_ok(backend, kCounter);
  ASSERT_TRUE(shared_program && other_program && counter);
  backend.perturb_run_for_testing(5);
  constexpr uint32_t kRounds = 300;
  on_threads(kLanes, [&](uint32_t t) -> std::string {
    for (uint32_t round = 0; round < kRounds; ++round) {
      const uint32_t value = 100'000 * (t + 1) + 100 * round;
      if (t < 2) {
        // One kernel from two threads: a shared kernel object would mix their arguments.
        const BufferSet inputs{{"in", words(ramp(value))}, {"out", words(ramp(7))}};
        DispatchOutcome out = backend.dispatch(*shared_program, inputs, Grid{});
        if (out.status != Status::Ok) return out.message;
        if (out.outputs != BufferSet{{"out", words(ramp(value + 1))}}) {
          return "round " + std::to_string(round) + ":" + testing::describe(out.outputs);
        }
      } else if (t == 2) {
        const BufferSet inputs{{"in", words(ramp(value))}, {"out", words(ramp(7))}};
        BatchOutcome out = backend.dispatch_runs(*other_program, inputs, Grid{}, {5, 2});
        if (out.status != Status::Ok) return out.message;
        if (out.first_outputs != BufferSet{{"out", words(ramp(value + 1000))}} ||
            out.differing_runs != 0) {
          return "round " + std::to_string(round) + ":" + testing::describe(out.first_outputs);
        }
      } else {
        // 64 atomic adds to a fresh copy of out[0] in every run; run 5 perturbed.
        BatchOutcome out =
            backend.dispatch_runs(*counter, {{"out", words({value})}}, Grid{}, {8, 2});
        if (out.status != Status::Ok) return out.message;
        if (out.first_outputs != BufferSet{{"out", words({value + 64})}}) {
          return "round " + std::to_string(round) + ":" + testing::describe(out.first_outputs);
        }
        if (out.differing_runs != 1 || out.differing.size() != 1 || out.differing[0].run != 5 ||
            out.differing[0].outputs != BufferSet{{"out", words({0x5A5A5A5A})}}) {
          return "round " + std::to_string(round) + ": the seeded difference was not seen alone (" +
                 std::to_string(out.differing_runs) + " differing runs)";
        }
      }
    }
    return "";
  });
  backend.perturb_run_for_testing(std::nullopt);
  EXPECT_EQ(backend.contexts_created(), 1u);
}

/// Dispatches `program` on `inputs` until it is not a Timeout (a hung lane's
/// kernel keeps a CPU device's threads for a while, and each later context
/// builds the kernel again); "" when it then gives `expected`.
std::string until_ok(Backend& backend, const CompiledProgram& program, const BufferSet& inputs,
                     const BufferSet& expected) {
  DispatchOutcome out;
  for (int attempt = 0; attempt < 400; ++attempt) {
    out = backend.dispatch(program, inputs, Grid{});
    if (out.status != Status::Timeout) break;
  }
  if (out.status != Status::Ok) return std::string(name_of(out.status)) + ": " + out.message;
  return out.outputs == expected ? "" : "wrong bytes:" + testing::describe(out.outputs);
}

// A lane whose kernel hangs abandons its own queue and the context is
// replaced; lanes busy meanwhile finish their dispatches, and every later
// dispatch, on any thread, runs on the new context.
TEST(OpenClLanes, ALanesTimeoutLeavesTheOtherLanesAndLaterRunsWorking) {
  BackendOptions options = with_lanes();
  options.loop_iteration_budget = 0;  // Let it spin; only the deadline stops it.
  options.fence_timeout = std::chrono::milliseconds(50);
  OpenClBackend backend{options};
  auto spinning = compiled_ok(backend, spinning_program());
  auto plus = compiled_ok(backend, add_constant(3));
  ASSERT_TRUE(spinning && plus);
  // One xorshift round of 1: 1 ^ 1 << 13 = 0x2001; >> 17 adds nothing; ^ << 5 = 0x42021.
  const BufferSet one_round{{"n", words({1})}, {"out", words({0})}};
  const BufferSet one_round_out{{"out", words({0x42021})}};
  // Until the kernels have run once, PoCL's finishing compile (at the first
  // enqueue) may pass 50 ms itself.
  ASSERT_EQ(until_ok(backend, *spinning, one_round, one_round_out), "");
  ASSERT_EQ(until_ok(backend, *plus, {{"in", words(ramp(10))}, {"out", words(ramp(0))}},
                     {{"out", words(ramp(13))}}),
            "");
  const uint64_t contexts = backend.contexts_created();
  std::atomic<bool> hung_done{false};
  on_threads(3, [&](uint32_t t) -> std::string {
    if (t == 0) {
      // Seconds of work on a CPU, far less than a test's patience: it ends by itself.
      DispatchOutcome hung =
          backend.dispatch(*spinning, {{"n", words({1u << 30})}, {"out", words({0})}}, Grid{});
      hung_done = true;
      if (hung.status != Status::Timeout ||
          hung.message.find("did not finish within 50 ms") == std::string::npos) {
        return "expected the hung dispatch's Timeout: " + std::string(name_of(hung.status)) + ": " +
               hung.message;
      }
      return "";
    }
    // Busy before, during and after the hang: every success has its own bytes.
    uint32_t after_hang = 0;
    for (uint32_t round = 0; round < 20 || after_hang < 5; ++round) {
      if (hung_done) ++after_hang;
      const uint32_t value = 1000 * t + round;
      const std::string wrong =
          until_ok(backend, *plus, {{"in", words(ramp(value))}, {"out", words(ramp(0))}},
                   {{"out", words(ramp(value + 3))}});
      if (!wrong.empty()) return "round " + std::to_string(round) + ": " + wrong;
    }
    return "";
  });
  EXPECT_GT(backend.contexts_created(), contexts);
  // Later dispatches, several at once.
  on_threads(kLanes, [&](uint32_t t) {
    return until_ok(backend, *spinning, one_round, one_round_out) +
           until_ok(backend, *plus, {{"in", words(ramp(50 * t))}, {"out", words(ramp(0))}},
                    {{"out", words(ramp(50 * t + 3))}});
  });
}

}  // namespace
}  // namespace vyre::opencl::lanes_test
