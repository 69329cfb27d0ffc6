// The cuda backend on a CUDA device, with hand-written CUDA C kernels: NVRTC
// and the module cache, host bytes, counts and zero padding, batched runs, the
// loop budget's control word, a hung kernel's timeout and a faulting kernel's
// recovery, build errors, device limits and selection; and spec/examples
// programs lowered by the registry's backend (shared memory, barriers, loops,
// contended atomics) against hand-computed bytes. Without a device every test FAILS;
// the label `cuda` keeps them out of `ctest --preset default`.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "backends/backend_test_support.h"
#include "backends/cuda/cuda_backend.h"
#include "spec/text/text_format.h"

namespace vyre::cuda {
namespace {

using backend_testing::words;

/// A lowering that refuses every program: these tests dispatch kernels they
/// write themselves (hand_written), so the backend needs none.
LoweringOutcome no_lowering(const Program&, uint32_t) {
  return {Status::NotSupported, "the runtime tests dispatch hand-written CUDA C", {}};
}

/// A backend on the first device; the test fails when there is none.
std::unique_ptr<CudaBackend> device_backend(BackendOptions options = {}) {
  auto backend = std::make_unique<CudaBackend>(options, no_lowering);
  const Capabilities caps = backend->probe();
  EXPECT_TRUE(caps.unavailable.empty())
      << "no usable CUDA device, so the cuda backend cannot be tested: " << caps.unavailable
      << "\n(run these tests on a machine with NVIDIA's driver and NVRTC: backends/cuda/DESIGN.md)";
  return backend;
}

KernelBuffer buffer(const std::string& name, BufferAccess access) {
  return {name, access, DataType::U32, 0};
}

/// A kernel of `body`, whose parameters follow the interface's layout.
CudaProgram hand_written(const std::string& parameters, const std::string& body,
                         std::vector<KernelBuffer> buffers, std::array<uint32_t, 3> workgroup,
                         bool control = false) {
  LoweredKernel k;
  k.source = "extern \"C\" __global__ void vyre_main(" + parameters + ") {\n" + body + "\n}\n";
  k.iface.buffers = std::move(buffers);
  k.iface.workgroup_size = workgroup;
  k.iface.has_control_buffer = control;
  k.iface.loop_iteration_budget = control ? 1000 : 0;
  return CudaProgram(std::move(k));
}

/// out[i] = 3 i + 1 for every global id below out's count.
CudaProgram affine() {
  return hand_written("unsigned int* out, unsigned int n_out",
                      "unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                      "if (i < n_out) out[i] = 3u * i + 1u;",
                      {buffer("out", BufferAccess::ReadWrite)}, {4, 1, 1});
}

Grid grid(uint32_t x, uint32_t y = 1, uint32_t z = 1) {
  Grid g;
  g.workgroups = {x, y, z};
  return g;
}

TEST(CudaRuntime, ProbeReportsTheDeviceDriverAndNvrtc) {
  auto backend = device_backend();
  const Capabilities caps = backend->probe();
  EXPECT_FALSE(caps.device_name.empty());
  EXPECT_NE(caps.driver.find("NVIDIA CUDA driver"), std::string::npos) << caps.driver;
  EXPECT_NE(caps.driver.find("NVRTC"), std::string::npos) << caps.driver;
  EXPECT_NE(caps.api.find("compute capability"), std::string::npos) << caps.api;
  EXPECT_GE(caps.max_workgroup_invocations, 1024u);
  EXPECT_GE(caps.max_workgroup_memory_bytes, 49152u);
  EXPECT_GE(caps.max_workgroup_count[1], 65535u);
  EXPECT_EQ(caps.max_uniform_buffer_bytes, 65536u);
}

TEST(CudaRuntime, AHandWrittenKernelRunsAndItsModuleIsBuiltOnce) {
  auto backend = device_backend();
  const CudaProgram program = affine();
  for (int run = 0; run < 3; ++run) {
    // Nine words: the last workgroup's fourth invocation is past the count.
    DispatchOutcome out =
        backend->dispatch(program, {{"out", words({7, 7, 7, 7, 7, 7, 7, 7, 7})}}, grid(2));
    ASSERT_EQ(out.status, Status::Ok) << out.message;
    EXPECT_EQ(out.outputs.at("out"), words({1, 4, 7, 10, 13, 16, 19, 22, 7}));
    EXPECT_EQ(out.timing.setup_ms > 0, run == 0);
  }
  EXPECT_EQ(backend->kernels_compiled(), 1u);
}

TEST(CudaRuntime, ParametersAreBuffersThenCountsAndPaddingIsZero) {
  auto backend = device_backend();
  // in has 3 words; its device buffer has 16 bytes, the fourth word zero.
  const CudaProgram program = hand_written(
      "const unsigned int* in, const unsigned int* u, unsigned int* out, unsigned int n_in, "
      "unsigned int n_u, unsigned int n_out",
      "if (threadIdx.x == 0) { out[0] = in[0] + u[0]; out[1] = n_in; out[2] = n_u; "
      "out[3] = n_out; out[4] = in[3]; }",
      {buffer("in", BufferAccess::ReadOnly), buffer("u", BufferAccess::Uniform),
       buffer("out", BufferAccess::ReadWrite)},
      {32, 1, 1});
  DispatchOutcome out = backend->dispatch(
      program, {{"in", words({40, 1, 2})}, {"u", words({2})}, {"out", words({9, 9, 9, 9, 9})}},
      grid(1));
  ASSERT_EQ(out.status, Status::Ok) << out.message;
  EXPECT_EQ(out.outputs.size(), 1u);  // Only read_write buffers come back.
  EXPECT_EQ(out.outputs.at("out"), words({42, 3, 1, 5, 0}));
}

TEST(CudaRuntime, BytesBuffersCountWholeWordsAndReadBackTheirHostLength) {
  auto backend = device_backend();
  const CudaProgram program = hand_written(
      "unsigned int* b, unsigned int* len, unsigned int n_b, unsigned int n_len",
      "if (threadIdx.x == 0) { len[0] = n_b; b[0] = 0x04030201u; }",
      {{"b", BufferAccess::ReadWrite, DataType::Bytes, 0}, buffer("len", BufferAccess::ReadWrite)},
      {1, 1, 1});
  const ByteBuffer ten = {9, 9, 9, 9, 5, 6, 7, 8, 9, 10};
  DispatchOutcome out = backend->dispatch(program, {{"b", ten}, {"len", words({0})}}, grid(1));
  ASSERT_EQ(out.status, Status::Ok) << out.message;
  EXPECT_EQ(out.outputs.at("b"), (ByteBuffer{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(out.outputs.at("len"), words({3}));
}

TEST(CudaRuntime, EmptyBuffersAndKernelsWithoutParametersRun) {
  auto backend = device_backend();
  DispatchOutcome empty = backend->dispatch(affine(), {{"out", {}}}, grid(1));
  ASSERT_EQ(empty.status, Status::Ok) << empty.message;
  EXPECT_EQ(empty.outputs.at("out"), ByteBuffer{});
  const CudaProgram nothing = hand_written("", "", {}, {1, 1, 1});
  EXPECT_EQ(backend->dispatch(nothing, {}, grid(1)).status, Status::Ok);
}

TEST(CudaRuntime, BatchedRunsStartFromTheInputsAndMatchRunZero) {
  auto backend = device_backend();
  // out[i] += 3 i + 1: every run starts from the same bytes, so all agree.
  const CudaProgram program =
      hand_written("unsigned int* out, unsigned int n_out",
                   "unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                   "if (i < n_out) out[i] += 3u * i + 1u;",
                   {buffer("out", BufferAccess::ReadWrite)}, {4, 1, 1});
  BatchOptions options;
  options.runs = 25;
  options.submissions = 3;
  BatchOutcome out =
      backend->dispatch_runs(program, {{"out", words({100, 100, 100, 100})}}, grid(1), options);
  ASSERT_EQ(out.status, Status::Ok) << out.message;
  EXPECT_EQ(out.first_outputs.at("out"), words({101, 104, 107, 110}));
  EXPECT_EQ(out.dispatches, 25u);
  EXPECT_GE(out.submissions, 3u);
  EXPECT_EQ(out.differing_runs, 0u);
  EXPECT_TRUE(out.differing.empty());
}

TEST(CudaRuntime, RunsThatDifferFromRunZeroAreReportedWithTheirBytes) {
  auto backend = device_backend();
  // A ticket in a buffer every run shares (read-only to vyre, written here
  // on purpose): run r reads r, as runs on one stream run in order.
  const CudaProgram program = hand_written(
      "const unsigned int* ticket, unsigned int* out, unsigned int, unsigned int",
      "if (threadIdx.x == 0) out[0] = atomicAdd(const_cast<unsigned int*>(ticket), 1u);",
      {buffer("ticket", BufferAccess::ReadOnly), buffer("out", BufferAccess::ReadWrite)},
      {1, 1, 1});
  BatchOptions options;
  options.runs = 10;
  BatchOutcome out = backend->dispatch_runs(program, {{"ticket", words({0})}, {"out", words({0})}},
                                            grid(1), options);
  ASSERT_EQ(out.status, Status::Ok) << out.message;
  EXPECT_EQ(out.first_outputs.at("out"), words({0}));
  EXPECT_EQ(out.differing_runs, 9u);
  ASSERT_EQ(out.differing.size(), size_t{kMaxReportedDifferingRuns});
  for (uint32_t i = 0; i < kMaxReportedDifferingRuns; ++i) {
    EXPECT_EQ(out.differing[i].run, i + 1);
    EXPECT_EQ(out.differing[i].outputs.at("out"), words({i + 1}));
  }
}

TEST(CudaRuntime, TheControlWordIsTheLoopBudgetsTimeout) {
  auto backend = device_backend();
  const CudaProgram program = hand_written(
      "const unsigned int* stop, unsigned int* out, unsigned int, unsigned int, unsigned int* "
      "control",
      "out[0] = 1u; if (stop[0] != 0u) control[0] = 1u;",
      {buffer("stop", BufferAccess::ReadOnly), buffer("out", BufferAccess::ReadWrite)}, {1, 1, 1},
      /*control=*/true);
  DispatchOutcome stopped =
      backend->dispatch(program, {{"stop", words({1})}, {"out", words({0})}}, grid(1));
  EXPECT_EQ(stopped.status, Status::Timeout) << stopped.message;
  EXPECT_NE(stopped.message.find("more than 1000 loop iterations"), std::string::npos)
      << stopped.message;
  DispatchOutcome ran =
      backend->dispatch(program, {{"stop", words({0})}, {"out", words({0})}}, grid(1));
  ASSERT_EQ(ran.status, Status::Ok) << ran.message;
  EXPECT_EQ(ran.outputs.at("out"), words({1}));
  // In a batch, the failing run is named.
  BatchOptions options;
  options.runs = 4;
  BatchOutcome batch = backend->dispatch_runs(program, {{"stop", words({1})}, {"out", words({0})}},
                                              grid(1), options);
  EXPECT_EQ(batch.status, Status::Timeout) << batch.message;
  EXPECT_EQ(batch.failed_run, 0u);
}

/// A kernel that spins for `cycles[0]` clock cycles (64-bit: cycles[1] high).
CudaProgram spinning() {
  return hand_written(
      "const unsigned int* cycles, unsigned int* out, unsigned int, unsigned int",
      "long long wanted = (long long)(((unsigned long long)cycles[1] << 32) | cycles[0]);\n"
      "long long start = clock64();\n"
      "while (clock64() - start < wanted) {}\n"
      "out[0] = 7u;",
      {buffer("cycles", BufferAccess::ReadOnly), buffer("out", BufferAccess::ReadWrite)},
      {1, 1, 1});
}

TEST(CudaRuntime, AHungKernelTimesOutAndTheNextDispatchGetsANewContext) {
  BackendOptions options;
  options.fence_timeout = std::chrono::milliseconds(200);
  auto backend = device_backend(options);
  const CudaProgram program = spinning();
  DispatchOutcome quick =
      backend->dispatch(program, {{"cycles", words({0, 0})}, {"out", words({0})}}, grid(1));
  ASSERT_EQ(quick.status, Status::Ok) << quick.message;
  const uint64_t contexts = backend->contexts_created();
  // 2^33 cycles: seconds at any clock rate, then it ends by itself.
  DispatchOutcome hung =
      backend->dispatch(program, {{"cycles", words({0, 2})}, {"out", words({0})}}, grid(1));
  EXPECT_EQ(hung.status, Status::Timeout) << hung.message;
  EXPECT_NE(hung.message.find("did not finish within 200 ms"), std::string::npos) << hung.message;
  // Later dispatches run on new contexts. The abandoned kernel shares the
  // GPU until it ends, so a 200 ms deadline may pass again (each time on a
  // new context); one must succeed once it has ended.
  DispatchOutcome after;
  for (int attempt = 0; attempt < 100; ++attempt) {
    after = backend->dispatch(affine(), {{"out", words({0, 0})}}, grid(1));
    if (after.status != Status::Timeout) break;
  }
  ASSERT_EQ(after.status, Status::Ok) << after.message;
  EXPECT_EQ(after.outputs.at("out"), words({1, 4}));
  EXPECT_GT(backend->contexts_created(), contexts);
}

TEST(CudaRuntime, AFaultingKernelIsDeviceLostAndTheNextDispatchGetsANewContext) {
  auto backend = device_backend();
  const CudaProgram faulting =
      hand_written("unsigned int* out, unsigned int n_out",
                   "out[0] = 1u; *(volatile unsigned int*)(out + (1ull << 40)) = 1u;",
                   {buffer("out", BufferAccess::ReadWrite)}, {1, 1, 1});
  ASSERT_EQ(backend->dispatch(affine(), {{"out", words({0})}}, grid(1)).status, Status::Ok);
  const uint64_t contexts = backend->contexts_created();
  DispatchOutcome lost = backend->dispatch(faulting, {{"out", words({0})}}, grid(1));
  EXPECT_EQ(lost.status, Status::DeviceLost) << lost.message;
  EXPECT_NE(lost.message.find("CUDA_ERROR_"), std::string::npos) << lost.message;
  DispatchOutcome after = backend->dispatch(affine(), {{"out", words({0, 0})}}, grid(1));
  ASSERT_EQ(after.status, Status::Ok) << after.message;
  EXPECT_EQ(after.outputs.at("out"), words({1, 4}));
  EXPECT_EQ(backend->contexts_created(), contexts + 1);
}

TEST(CudaRuntime, NvrtcRejectionIsACompileErrorWithTheLogAndTheSource) {
  auto backend = device_backend();
  const CudaProgram broken = hand_written("", "undefined_function();", {}, {1, 1, 1});
  DispatchOutcome out = backend->dispatch(broken, {}, grid(1));
  EXPECT_EQ(out.status, Status::CompileError) << out.message;
  EXPECT_NE(out.message.find("undefined_function"), std::string::npos) << out.message;
  EXPECT_NE(out.message.find("--- generated CUDA C ---"), std::string::npos) << out.message;
  // The failure is kept: a second dispatch runs NVRTC no more.
  const uint64_t compiled = backend->kernels_compiled();
  EXPECT_EQ(backend->dispatch(broken, {}, grid(1)).status, Status::CompileError);
  EXPECT_EQ(backend->kernels_compiled(), compiled);
}

TEST(CudaRuntime, AKernelWithoutTheEntryPointIsACompileError) {
  auto backend = device_backend();
  LoweredKernel k;
  k.source = "extern \"C\" __global__ void another_name() {}\n";
  DispatchOutcome out = backend->dispatch(CudaProgram(k), {}, grid(1));
  EXPECT_EQ(out.status, Status::CompileError) << out.message;
  EXPECT_NE(out.message.find("vyre_main"), std::string::npos) << out.message;
}

TEST(CudaRuntime, LimitsAndHostAbiErrorsAreReportedBeforeAnythingRuns) {
  auto backend = device_backend();
  const Capabilities caps = backend->probe();
  const CudaProgram wide = hand_written("", "", {}, {caps.max_workgroup_invocations + 1, 1, 1});
  DispatchOutcome out = backend->dispatch(wide, {}, grid(1));
  EXPECT_EQ(out.status, Status::NotSupported) << out.message;
  EXPECT_NE(out.message.find("CU_DEVICE_ATTRIBUTE_MAX_"), std::string::npos) << out.message;
  const CudaProgram program = affine();
  EXPECT_EQ(backend->dispatch(program, {}, grid(1)).status, Status::Error);
  EXPECT_EQ(backend->dispatch(program, {{"out", {}}, {"extra", {}}}, grid(1)).status,
            Status::Error);
  EXPECT_EQ(backend->dispatch(program, {{"out", {}}}, grid(1, 0)).status, Status::Error);
}

TEST(CudaRuntime, DeviceIsChosenByIndexOrNameAndBadSelectorsAreExplained) {
  const std::string first = device_backend()->probe().device_name;
  for (const std::string selector : {"0", "nvidia"}) {
    BackendOptions options;
    options.device = selector;
    EXPECT_EQ(CudaBackend(options, no_lowering).probe().device_name, first) << selector;
  }
  for (const std::string selector : {"99", "no such device"}) {
    BackendOptions options;
    options.device = selector;
    const Capabilities caps = CudaBackend(options, no_lowering).probe();
    EXPECT_NE(caps.unavailable.find("devices:\n  0: " + first), std::string::npos)
        << caps.unavailable;
  }
}

/// spec/examples/`name`.vyre compiled by the registry's cuda backend.
std::shared_ptr<const CompiledProgram> compiled_example(Backend& backend, const std::string& name) {
  std::ifstream in(std::filesystem::path(VYRE_SOURCE_DIR) / "spec/examples" / (name + ".vyre"));
  std::ostringstream text;
  text << in.rdbuf();
  const Result<Program> program = parse_program(text.str());
  EXPECT_TRUE(program.ok()) << name;
  if (!program.ok()) return nullptr;
  CompileOutcome compiled = backend.compile(*program);
  EXPECT_EQ(compiled.status, Status::Ok) << compiled.message;
  return compiled.program;
}

TEST(CudaLoweredRuntime, WorkgroupSumAddsEachWorkgroupsElements) {
  std::unique_ptr<Backend> backend = make_cuda_backend({});
  ASSERT_TRUE(backend->probe().unavailable.empty()) << backend->probe().unavailable;
  auto program = compiled_example(*backend, "workgroup_sum");
  ASSERT_NE(program, nullptr);
  std::vector<uint32_t> input(200);
  for (uint32_t i = 0; i < 200; ++i) input[i] = i;
  // Workgroup w sums 64 w .. 64 w + 63 (elements past 199 count as 0).
  DispatchOutcome out = backend->dispatch(
      *program, {{"input", words(input)}, {"sums", words({9, 9, 9, 9, 9})}}, grid(4));
  ASSERT_EQ(out.status, Status::Ok) << out.message;
  EXPECT_EQ(out.outputs.at("sums"), words({2016, 6112, 10208, 1564, 9}));
}

TEST(CudaLoweredRuntime, HistogramCountsEveryValueOnce) {
  std::unique_ptr<Backend> backend = make_cuda_backend({});
  ASSERT_TRUE(backend->probe().unavailable.empty()) << backend->probe().unavailable;
  auto program = compiled_example(*backend, "histogram");
  ASSERT_NE(program, nullptr);
  std::vector<uint32_t> values(100);
  for (uint32_t i = 0; i < 100; ++i) values[i] = i;
  // 100 values: bins 0..3 get 7 each, bins 4..15 get 6.
  std::vector<uint32_t> bins(16, 6);
  for (int b = 0; b < 4; ++b) bins[b] = 7;
  BatchOptions options;
  options.runs = 20;
  BatchOutcome out = backend->dispatch_runs(
      *program, {{"values", words(values)}, {"bins", words(std::vector<uint32_t>(16, 0))}}, grid(2),
      options);
  ASSERT_EQ(out.status, Status::Ok) << out.message;
  EXPECT_EQ(out.first_outputs.at("bins"), words(bins));
  EXPECT_EQ(out.differing_runs, 0u);
}

}  // namespace
}  // namespace vyre::cuda
