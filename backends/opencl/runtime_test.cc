// The OpenCL runtime on a device (PoCL in CI): kernel caching, the loop
// budget, a hung kernel's timeout and recovery, build failures, device
// limits, host-ABI errors, empty and Bytes buffers, device selection.
#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

#include "backends/opencl/opencl_test_support.h"
#include "backends/opencl/program_builder.h"
#include "spec/ir/builder.h"

namespace vyre::opencl {
namespace {

using namespace vyre::build;
using testing::spinning_program;
using testing::words;

const BufferDecl kOut = storage("out", 0, BufferAccess::ReadWrite);

/// The output of spinning_program for one round (n = 1), dispatched until it
/// is not a Timeout (at most 400 times); the test fails on any other status.
ByteBuffer until_ok(Backend& backend, const CompiledProgram& program) {
  DispatchOutcome out;
  for (int attempt = 0; attempt < 400; ++attempt) {
    out = backend.dispatch(program, {{"n", words({1})}, {"out", words({0})}}, {});
    if (out.status != Status::Timeout) break;
  }
  EXPECT_EQ(out.status, Status::Ok) << out.message;
  return out.status == Status::Ok ? out.outputs.at("out") : ByteBuffer{};
}

TEST(OpenClRuntime, KernelIsBuiltOnceAndReused) {
  OpenClBackend& backend = testing::shared_backend();
  CompileOutcome compiled =
      backend.compile({{kOut}, {4, 1, 1}, {store("out", invocation_id(0), invocation_id(0))}});
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
  const uint64_t before = backend.kernels_built();
  for (int run = 0; run < 3; ++run) {
    DispatchOutcome out = backend.dispatch(*compiled.program, {{"out", words({9, 9, 9, 9})}}, {});
    ASSERT_EQ(out.status, Status::Ok) << out.message;
    EXPECT_EQ(out.outputs.at("out"), words({0, 1, 2, 3}));
    EXPECT_EQ(out.timing.setup_ms > 0, run == 0);
  }
  EXPECT_EQ(backend.kernels_built(), before + 1);
}

TEST(OpenClRuntime, OptDisableIsAnotherBuildOfTheSameKernel) {
  OpenClBackend& backend = testing::shared_backend();
  ASSERT_EQ(backend.encodings(), std::vector<Encoding>{Encoding::ClOptDisable});
  const Program p{
      {kOut}, {4, 1, 1}, {store("out", invocation_id(0), mul(invocation_id(0), u32(3)))}};
  CompileOutcome plain = backend.compile(p);
  CompileOutcome unoptimized = backend.compile_encoded(p, Encoding::ClOptDisable);
  ASSERT_EQ(unoptimized.status, Status::Ok) << unoptimized.message;
  const std::string& source =
      dynamic_cast<const OpenClProgram&>(*unoptimized.program).lowered().source;
  EXPECT_EQ(build_options_of(source), std::string(kBuildOptions) + " -cl-opt-disable");
  EXPECT_EQ(build_options_of(dynamic_cast<const OpenClProgram&>(*plain.program).lowered().source),
            kBuildOptions);
  const uint64_t before = backend.kernels_built();
  DispatchOutcome out = backend.dispatch(*unoptimized.program, {{"out", words({9, 9, 9, 9})}}, {});
  ASSERT_EQ(out.status, Status::Ok) << out.message;
  EXPECT_EQ(out.outputs.at("out"), words({0, 3, 6, 9}));
  EXPECT_EQ(backend.kernels_built(), before + 1);  // its own build, never the optimised one's
  CompileOutcome foreign = backend.compile_encoded(p, Encoding::SpirvOptSize);
  EXPECT_EQ(foreign.status, Status::NotSupported);
  EXPECT_NE(foreign.message.find("spirv-opt-Os"), std::string::npos) << foreign.message;
}

/// out[i] = i + k, for 4 invocations.
Program index_plus(uint32_t k) {
  return {{kOut}, {4, 1, 1}, {store("out", invocation_id(0), add(invocation_id(0), u32(k)))}};
}

TEST(OpenClRuntime, KernelsBuiltAheadOnOtherThreadsAreUsedByTheDispatch) {
  OpenClBackend& backend = testing::shared_backend();
  ASSERT_TRUE(backend.compiles_concurrently());
  // Opens the context, so prepare() builds.
  CompileOutcome first = backend.compile(index_plus(0));
  ASSERT_EQ(first.status, Status::Ok) << first.message;
  ASSERT_EQ(backend.dispatch(*first.program, {{"out", words({9, 9, 9, 9})}}, {}).status,
            Status::Ok);
  constexpr uint32_t kThreads = 3;
  std::vector<std::shared_ptr<const CompiledProgram>> programs(kThreads);
  const uint64_t before = backend.kernels_built();
  std::vector<std::thread> workers;
  for (uint32_t t = 0; t < kThreads; ++t) {
    workers.emplace_back([&, t] {
      CompileOutcome out = backend.compile(index_plus(10 + t));
      if (out.status == Status::Ok && out.program) backend.prepare(*out.program);
      programs[t] = out.program;
    });
  }
  for (std::thread& w : workers) w.join();
  // prepare() only queues: the builders (or the dispatch, for a kernel no
  // builder took yet) build each kernel once, never twice.
  for (uint32_t t = 0; t < kThreads; ++t) {
    ASSERT_TRUE(programs[t]);
    DispatchOutcome out = backend.dispatch(*programs[t], {{"out", words({9, 9, 9, 9})}}, {});
    ASSERT_EQ(out.status, Status::Ok) << out.message;
    EXPECT_EQ(out.outputs.at("out"), words({10 + t, 11 + t, 12 + t, 13 + t}));
  }
  EXPECT_EQ(backend.kernels_built(), before + kThreads);
  for (uint32_t t = 0; t < kThreads; ++t) {
    DispatchOutcome out = backend.dispatch(*programs[t], {{"out", words({9, 9, 9, 9})}}, {});
    ASSERT_EQ(out.status, Status::Ok) << out.message;
    EXPECT_EQ(out.timing.setup_ms, 0.0) << "a built kernel was built again";
  }
  EXPECT_EQ(backend.kernels_built(), before + kThreads);
}

TEST(OpenClRuntime, TwoCompilesOfOneProgramShareOneKernel) {
  OpenClBackend& backend = testing::shared_backend();
  CompileOutcome first = backend.compile(index_plus(40));
  ASSERT_EQ(first.status, Status::Ok) << first.message;
  ASSERT_EQ(backend.dispatch(*first.program, {{"out", words({9, 9, 9, 9})}}, {}).status,
            Status::Ok);
  const uint64_t before = backend.kernels_built();
  CompileOutcome again = backend.compile(index_plus(40));
  ASSERT_EQ(again.status, Status::Ok) << again.message;
  backend.prepare(*again.program);
  DispatchOutcome out = backend.dispatch(*again.program, {{"out", words({9, 9, 9, 9})}}, {});
  ASSERT_EQ(out.status, Status::Ok) << out.message;
  EXPECT_EQ(out.outputs.at("out"), words({40, 41, 42, 43}));
  EXPECT_EQ(out.timing.setup_ms, 0.0) << "the same source was built again";
  EXPECT_EQ(backend.kernels_built(), before);
}

// A block of kernels prepared together (as a fuzz hunt compiles its
// programs ahead) is built in joined programs; one the driver rejects fails
// alone, with its own log, and every other kernel of the block runs.
TEST(OpenClRuntime, ABlockPreparedTogetherRunsAndABrokenKernelFailsAlone) {
  OpenClBackend backend{BackendOptions{}};
  CompileOutcome opened = backend.compile(index_plus(0));
  ASSERT_EQ(opened.status, Status::Ok) << opened.message;
  ASSERT_EQ(backend.dispatch(*opened.program, {{"out", words({9, 9, 9, 9})}}, {}).status,
            Status::Ok);
  std::vector<std::shared_ptr<const CompiledProgram>> block;
  for (uint32_t k = 0; k < 6; ++k) {
    CompileOutcome out = backend.compile(index_plus(200 + 10 * k));
    ASSERT_EQ(out.status, Status::Ok) << out.message;
    block.push_back(out.program);
  }
  // Joinable (the prelude and kernel of a lowered program) but rejected.
  LoweredKernel broken = dynamic_cast<const OpenClProgram&>(*block[0]).lowered();
  const size_t body_end = broken.source.rfind('}');
  ASSERT_NE(body_end, std::string::npos);
  broken.source.insert(body_end, "  undefined_function();\n");
  block.insert(block.begin() + 3, std::make_shared<OpenClProgram>(broken));
  for (const auto& program : block) backend.prepare(*program);
  for (size_t i = 0; i < block.size(); ++i) {
    DispatchOutcome out = backend.dispatch(*block[i], {{"out", words({9, 9, 9, 9})}}, {});
    if (i == 3) {
      EXPECT_EQ(out.status, Status::CompileError) << out.message;
      EXPECT_NE(out.message.find("undefined_function"), std::string::npos) << out.message;
      continue;
    }
    ASSERT_EQ(out.status, Status::Ok) << "kernel " << i << ": " << out.message;
    const uint32_t k = 200 + 10 * static_cast<uint32_t>(i < 3 ? i : i - 1);
    EXPECT_EQ(out.outputs.at("out"), words({k, k + 1, k + 2, k + 3})) << "kernel " << i;
  }
}

TEST(OpenClRuntime, LoopBudgetStopsARunawayProgramAsTimeout) {
  BackendOptions options;
  options.loop_iteration_budget = 1000;
  OpenClBackend backend(options);
  CompileOutcome compiled = backend.compile(spinning_program());
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
  DispatchOutcome out =
      backend.dispatch(*compiled.program, {{"n", words({1001})}, {"out", words({0})}}, {});
  EXPECT_EQ(out.status, Status::Timeout) << out.message;
  EXPECT_NE(out.message.find("more than 1000 loop iterations"), std::string::npos) << out.message;
  // Within the budget the same kernel runs to its end.
  out = backend.dispatch(*compiled.program, {{"n", words({1000})}, {"out", words({0})}}, {});
  EXPECT_EQ(out.status, Status::Ok) << out.message;
}

// A spent budget leaves the loop, not the kernel (a single exit keeps PoCL's
// compile of loops before a barrier cheap): the loops around it and after it
// must stop at their next check, or the outer 2^32 - 1 rounds would run into
// the deadline instead of ending as the budget's Timeout.
TEST(OpenClRuntime, LoopBudgetStopsNestedAndLaterLoopsToo) {
  BackendOptions options;
  options.loop_iteration_budget = 1000;
  OpenClBackend backend(options);
  const Program program{
      {storage("n", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
      {1, 1, 1},
      {let("x", u32(0)),
       loop("i", u32(0), load("n", u32(0)),
            {loop("j", u32(0), load("n", u32(0)), {assign("x", add(var("x"), var("j")))}),
             store("out", u32(0), var("x"))}),
       barrier(), loop("k", u32(0), load("n", u32(0)), {assign("x", add(var("x"), var("k")))}),
       store("out", u32(0), var("x"))}};
  CompileOutcome compiled = backend.compile(program);
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
  DispatchOutcome out =
      backend.dispatch(*compiled.program, {{"n", words({0xFFFFFFFFu})}, {"out", words({0})}}, {});
  EXPECT_EQ(out.status, Status::Timeout) << out.message;
  EXPECT_NE(out.message.find("more than 1000 loop iterations"), std::string::npos) << out.message;
}

TEST(OpenClRuntime, HungDispatchTimesOutAndTheContextIsRecreated) {
  BackendOptions options;
  options.loop_iteration_budget = 0;  // Let it spin; only the deadline stops it.
  options.fence_timeout = std::chrono::milliseconds(50);
  OpenClBackend backend(options);
  CompileOutcome compiled = backend.compile(spinning_program());
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
  // One xorshift round of 1: 1 ^ 1 << 13 = 0x2001; >> 17 adds nothing; ^ << 5 = 0x42021.
  // Until the kernel has run once, PoCL's finishing compile (at the first
  // enqueue) may pass 50 ms itself; the follow-up dispatches wait for it.
  EXPECT_EQ(until_ok(backend, *compiled.program), words({0x42021}));
  const uint64_t contexts = backend.contexts_created();
  // Seconds of work on a CPU, far less than a test's patience: it ends by itself.
  DispatchOutcome hung =
      backend.dispatch(*compiled.program, {{"n", words({1u << 30})}, {"out", words({0})}}, {});
  EXPECT_EQ(hung.status, Status::Timeout) << hung.message;
  EXPECT_NE(hung.message.find("did not finish within 50 ms"), std::string::npos) << hung.message;
  EXPECT_EQ(backend.contexts_created(), contexts);
  // Later dispatches get new contexts. On a CPU device the abandoned kernel
  // keeps the device's threads for a while, so a 50 ms deadline may pass again
  // (each time on a new context); one must succeed once the kernel has ended.
  EXPECT_EQ(until_ok(backend, *compiled.program), words({0x42021}));
  EXPECT_GT(backend.contexts_created(), contexts);
}

TEST(OpenClRuntime, DriverBuildFailureIsACompileErrorWithTheLog) {
  OpenClBackend& backend = testing::shared_backend();
  LoweredKernel broken{"__kernel void vyre_main(void) { undefined_function(); }\n", {}};
  const OpenClProgram program(broken);
  DispatchOutcome out = backend.dispatch(program, {}, {});
  EXPECT_EQ(out.status, Status::CompileError) << out.message;
  EXPECT_NE(out.message.find("undefined_function"), std::string::npos) << out.message;
  EXPECT_NE(out.message.find("--- generated OpenCL C ---"), std::string::npos) << out.message;
}

TEST(OpenClRuntime, WorkgroupPastTheDeviceLimitIsNotSupported) {
  OpenClBackend& backend = testing::shared_backend();
  const Capabilities caps = backend.probe();
  const uint32_t too_many = caps.max_workgroup_invocations + 1;
  CompileOutcome compiled = backend.compile({{kOut}, {too_many, 1, 1}, {}});
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
  DispatchOutcome out = backend.dispatch(*compiled.program, {{"out", words({0})}}, {});
  EXPECT_EQ(out.status, Status::NotSupported) << out.message;
  EXPECT_NE(out.message.find("CL_DEVICE_MAX_WORK"), std::string::npos) << out.message;
}

TEST(OpenClRuntime, HostAbiErrorsAreErrorsBeforeAnythingRuns) {
  OpenClBackend& backend = testing::shared_backend();
  CompileOutcome compiled = backend.compile({{kOut}, {1, 1, 1}, {}});
  ASSERT_EQ(compiled.status, Status::Ok);
  EXPECT_EQ(backend.dispatch(*compiled.program, {}, {}).status, Status::Error);
  EXPECT_EQ(backend.dispatch(*compiled.program, {{"out", {}}, {"extra", {}}}, {}).status,
            Status::Error);
  Grid empty;
  empty.workgroups = {1, 0, 1};
  EXPECT_EQ(backend.dispatch(*compiled.program, {{"out", {}}}, empty).status, Status::Error);
}

TEST(OpenClRuntime, ProgramOfAnotherBackendIsAnError) {
  struct Foreign : CompiledProgram {};
  DispatchOutcome out = testing::shared_backend().dispatch(Foreign{}, {}, {});
  EXPECT_EQ(out.status, Status::Error);
  EXPECT_NE(out.message.find("another backend"), std::string::npos);
}

TEST(OpenClRuntime, EmptyBuffersAndProgramsWithoutBuffersRun) {
  OpenClBackend& backend = testing::shared_backend();
  // BufLen of an empty buffer is 0; stores out of bounds do nothing.
  BufferSet out = testing::run_ok(
      backend, {{kOut}, {2, 1, 1}, {store("out", u32(0), buflen("out"))}}, {{"out", {}}});
  EXPECT_EQ(out.at("out"), ByteBuffer{});
  testing::run_ok(backend, {{}, {1, 1, 1}, {ret()}}, {});
}

TEST(OpenClRuntime, BytesBufferCountsWholeWordsAndReadsBackItsHostLength) {
  OpenClBackend& backend = testing::shared_backend();
  const Program p{{storage("b", 0, BufferAccess::ReadWrite, DataType::Bytes),
                   storage("len", 1, BufferAccess::ReadWrite)},
                  {1, 1, 1},
                  {store("len", u32(0), buflen("b"))}};
  const ByteBuffer ten = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  BufferSet out = testing::run_ok(backend, p, {{"b", ten}, {"len", words({0})}});
  EXPECT_EQ(out.at("b"), ten);           // Ten bytes back, not the padded twelve.
  EXPECT_EQ(out.at("len"), words({3}));  // ceil(10 / 4) backing words (S1).
}

TEST(OpenClRuntime, DeviceIsChosenByIndexOrNameAndBadSelectorsAreExplained) {
  const std::string first = testing::shared_backend().probe().device_name;
  for (const std::string selector : {"0", "portable computing language"}) {
    BackendOptions options;
    options.device = selector;
    OpenClBackend backend(options);
    EXPECT_EQ(backend.probe().device_name, first) << selector;
  }
  for (const std::string selector : {"99", "no such device"}) {
    BackendOptions options;
    options.device = selector;
    OpenClBackend backend(options);
    const Capabilities caps = backend.probe();
    EXPECT_NE(caps.unavailable.find("devices:\n  0: " + first), std::string::npos)
        << caps.unavailable;
    CompileOutcome compiled = backend.compile({{}, {1, 1, 1}, {}});
    ASSERT_EQ(compiled.status, Status::Ok);  // compile() needs no device.
    EXPECT_EQ(backend.dispatch(*compiled.program, {}, {}).status, Status::Error);
  }
}

TEST(OpenClRuntime, ProbeReportsTheDeviceLimits) {
  const Capabilities caps = testing::shared_backend().probe();
  EXPECT_TRUE(caps.unavailable.empty()) << caps.unavailable;
  EXPECT_FALSE(caps.device_name.empty());
  EXPECT_NE(caps.api.find("OpenCL"), std::string::npos) << caps.api;
  EXPECT_GE(caps.max_workgroup_invocations, 64u);
  EXPECT_GE(caps.max_workgroup_memory_bytes, 16384u);  // OpenCL 1.2's minimum is 32 KiB.
  EXPECT_EQ(caps.max_uniform_buffer_bytes, 65536u);    // S1's cap; 1.2 guarantees 64 KiB.
  EXPECT_GT(caps.max_storage_buffer_bytes, 0u);
}

}  // namespace
}  // namespace vyre::opencl
