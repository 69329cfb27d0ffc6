// The cuda backend without a device: NVRTC targets and library names, error
// names, host-ABI and limit checks, batch plans, image keys, the lowering
// seam, and what probe() says where the driver is absent.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "backends/clike/host_inputs.h"
#include "backends/cuda/batch_plan.h"
#include "backends/cuda/cuda_api.h"
#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/dispatch_checks.h"
#include "backends/cuda/nvrtc_api.h"
#include "backends/cuda/nvrtc_compile.h"
#include "backends/cuda/nvrtc_target.h"

namespace vyre::cuda {
namespace {

constexpr int kArchs[] = {50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90};

bool has(const std::vector<std::string>& options, const std::string& option) {
  return std::find(options.begin(), options.end(), option) != options.end();
}

TEST(NvrtcTarget, CubinForAnArchitectureNvrtcKnows) {
  Result<NvrtcTarget> t = nvrtc_target({9, 0}, kArchs);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->arch, 90);
  EXPECT_TRUE(t->cubin);
  ASSERT_FALSE(t->options.empty());
  EXPECT_EQ(t->options[0], "--gpu-architecture=sm_90");
  EXPECT_TRUE(has(t->options, "--fmad=false"));
  for (const std::string& option : t->options) {
    EXPECT_EQ(option.find("fast"), std::string::npos) << option;
  }
}

TEST(NvrtcTarget, PtxOfTheNewestOlderArchitectureForADeviceNvrtcDoesNotKnow) {
  Result<NvrtcTarget> newer = nvrtc_target({12, 0}, kArchs);
  ASSERT_TRUE(newer.ok()) << newer.error().message;
  EXPECT_FALSE(newer->cubin);
  EXPECT_EQ(newer->options[0], "--gpu-architecture=compute_90");
  const int gaps[] = {90, 80, 70};
  Result<NvrtcTarget> between = nvrtc_target({8, 6}, gaps);
  ASSERT_TRUE(between.ok()) << between.error().message;
  EXPECT_EQ(between->arch, 80);
  EXPECT_EQ(between->options[0], "--gpu-architecture=compute_80");
}

TEST(NvrtcTarget, DeviceOlderThanEveryArchitectureIsRefusedNamingBoth) {
  Result<NvrtcTarget> t = nvrtc_target({3, 5}, kArchs);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message.find("compute capability 3.5"), std::string::npos);
  EXPECT_NE(t.error().message.find("sm_50 to sm_90"), std::string::npos) << t.error().message;
  EXPECT_FALSE(nvrtc_target({9, 0}, {}).ok());
}

TEST(NvrtcLibrary, AnOverrideIsTheOnlyCandidate) {
  EXPECT_EQ(nvrtc_library_candidates("/opt/nvrtc/libnvrtc.so.12"),
            std::vector<std::string>{"/opt/nvrtc/libnvrtc.so.12"});
}

TEST(NvrtcLibrary, EverySonameIsTriedOnThePathThenInTheToolkit) {
  const std::vector<std::string> names = nvrtc_library_candidates("");
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names.front(), "libnvrtc.so");
  for (const char* soname : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2",
                             "/usr/local/cuda/lib64/libnvrtc.so.12"}) {
    EXPECT_TRUE(has(names, soname)) << soname;
  }
  // The loader's path first: a toolkit directory never shadows it.
  const auto first_toolkit = std::find_if(names.begin(), names.end(), [](const std::string& n) {
    return n.find('/') != std::string::npos;
  });
  EXPECT_TRUE(std::all_of(first_toolkit, names.end(),
                          [](const std::string& n) { return n.find('/') != std::string::npos; }));
}

TEST(NvrtcLibrary, AMissingLibraryIsExplainedWithEveryNameTried) {
  ASSERT_EQ(setenv(kNvrtcLibraryVariable, "/nonexistent/libnvrtc.so.12", 1), 0);
  Result<NvrtcApi> api = NvrtcApi::open(12040);
  unsetenv(kNvrtcLibraryVariable);
  ASSERT_FALSE(api.ok());
  EXPECT_NE(api.error().message.find("no NVRTC"), std::string::npos) << api.error().message;
  EXPECT_NE(api.error().message.find("\n  /nonexistent/libnvrtc.so.12: "), std::string::npos)
      << api.error().message;
  EXPECT_NE(api.error().message.find("set VYRE_NVRTC_LIBRARY"), std::string::npos)
      << api.error().message;
}

TEST(NvrtcLibrary, ANewerMajorVersionThanTheDriversIsPassedOver) {
  EXPECT_TRUE(nvrtc_suits_driver(12, 12040));
  EXPECT_TRUE(nvrtc_suits_driver(11, 12040));
  EXPECT_FALSE(nvrtc_suits_driver(13, 12090));
  EXPECT_TRUE(nvrtc_suits_driver(13, 13000));
  EXPECT_TRUE(nvrtc_suits_driver(13, 0));  // Unknown: tried.
}

TEST(CudaErrors, NamesComeFromTheTableWithoutADriver) {
  EXPECT_EQ(cu_error_name(0), "CUDA_SUCCESS");
  EXPECT_EQ(cu_error_name(700), "CUDA_ERROR_ILLEGAL_ADDRESS");
  EXPECT_EQ(cu_error_name(701), "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES");
  EXPECT_EQ(cu_error_name(719), "CUDA_ERROR_LAUNCH_FAILED");
  EXPECT_EQ(cu_error_name(2), "CUDA_ERROR_OUT_OF_MEMORY");
  EXPECT_EQ(cu_error_name(12345), "CUresult 12345");
}

TEST(CudaErrors, FaultsInsideAKernelAreStickyAndLaunchRefusalsAreNot) {
  for (CUresult sticky : {700, 702, 710, 714, 715, 716, 717, 718, 719}) {
    EXPECT_TRUE(is_sticky_error(sticky)) << sticky;
  }
  for (CUresult not_sticky : {0, 1, 2, 200, 218, 600, 701}) {
    EXPECT_FALSE(is_sticky_error(not_sticky)) << not_sticky;
  }
}

/// An H100's limits, as cuDeviceGetAttribute gives them.
DeviceLimits h100() {
  DeviceLimits l;
  l.device_name = "NVIDIA H100 80GB HBM3";
  l.max_threads_per_block = 1024;
  l.max_block_dim = {1024, 1024, 64};
  l.max_grid_dim = {2147483647, 65535, 65535};
  l.max_shared_memory_per_block = 49152;
  l.total_memory = uint64_t{80} << 30;
  return l;
}

ByteBuffer bytes(size_t n) {
  return ByteBuffer(n, 0);
}

KernelInterface one_output(std::array<uint32_t, 3> workgroup) {
  KernelInterface iface;
  iface.buffers.push_back({"out", BufferAccess::ReadWrite, DataType::U32, 0});
  iface.workgroup_size = workgroup;
  return iface;
}

Grid grid(uint32_t x, uint32_t y = 1, uint32_t z = 1) {
  Grid g;
  g.workgroups = {x, y, z};
  return g;
}

TEST(CudaChecks, HostAbiErrorsNameTheBuffer) {
  KernelInterface iface = one_output({1, 1, 1});
  iface.buffers.push_back({"fixed", BufferAccess::ReadOnly, DataType::U32, 2});
  iface.buffers.push_back({"u", BufferAccess::Uniform, DataType::U32, 0});
  const BufferSet good = {{"out", bytes(4)}, {"fixed", bytes(8)}, {"u", bytes(16)}};
  EXPECT_TRUE(clike::check_host_inputs(iface, good, grid(1)).ok());
  BufferSet missing = good;
  missing.erase("out");
  EXPECT_NE(clike::check_host_inputs(iface, missing, grid(1))
                .error()
                .message.find("no input bytes for buffer `out`"),
            std::string::npos);
  BufferSet extra = good;
  extra["nope"] = {};
  EXPECT_NE(clike::check_host_inputs(iface, extra, grid(1))
                .error()
                .message.find("`nope` names no buffer"),
            std::string::npos);
  BufferSet wrong = good;
  wrong["fixed"] = bytes(12);
  EXPECT_NE(clike::check_host_inputs(iface, wrong, grid(1))
                .error()
                .message.find("needs exactly 8 bytes; got 12"),
            std::string::npos);
  BufferSet big = good;
  big["u"] = bytes(65540);
  EXPECT_FALSE(clike::check_host_inputs(iface, big, grid(1)).ok());
  EXPECT_NE(
      clike::check_host_inputs(iface, good, grid(1, 0)).error().message.find("0 workgroups on y"),
      std::string::npos);
}

TEST(CudaChecks, EachDeviceLimitIsNamedWithItsValue) {
  const BufferSet out = {{"out", bytes(4)}};
  EXPECT_EQ(exceeded_limit(one_output({1024, 1, 1}), out, grid(1), h100()), std::nullopt);
  const auto message = [&](std::array<uint32_t, 3> wg, Grid g) {
    return exceeded_limit(one_output(wg), out, g, h100()).value_or("");
  };
  EXPECT_NE(message({1, 1, 65}, grid(1)).find("CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM = 64"),
            std::string::npos);
  EXPECT_NE(message({64, 32, 1}, grid(1)).find("CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1024"),
            std::string::npos);
  EXPECT_NE(message({1, 1, 1}, grid(1, 65536)).find("CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM = 65535"),
            std::string::npos);
  // 2^31 - 1 workgroups of 4 on x: the ids pass u32.
  EXPECT_NE(message({4, 1, 1}, grid(2147483647)).find("u32 invocation ids"), std::string::npos);
  KernelInterface shared = one_output({1, 1, 1});
  shared.workgroup_memory_bytes = 49153;
  EXPECT_NE(exceeded_limit(shared, out, grid(1), h100())
                .value_or("")
                .find("CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 49152"),
            std::string::npos);
}

TEST(CudaChecks, ParametersPastFourKibibytesAreRefused) {
  KernelInterface iface;
  BufferSet inputs;
  // 341 buffers: 341 * (8 + 4) = 4092 bytes fit; one more does not.
  for (int i = 0; i < 342; ++i) {
    const std::string name = "b" + std::to_string(i);
    iface.buffers.push_back({name, BufferAccess::ReadOnly, DataType::U32, 0});
    inputs[name] = bytes(4);
  }
  EXPECT_NE(exceeded_limit(iface, inputs, grid(1), h100()).value_or("").find("4104"),
            std::string::npos);
  iface.buffers.pop_back();
  inputs.erase("b341");
  EXPECT_EQ(exceeded_limit(iface, inputs, grid(1), h100()), std::nullopt);
}

TEST(CudaChecks, KernelLimitsBelowTheDevicesAreNamed) {
  const KernelInterface iface = one_output({1024, 1, 1});
  EXPECT_EQ(exceeded_kernel_limit(iface, 1024, 0, h100()), std::nullopt);
  EXPECT_NE(exceeded_kernel_limit(iface, 768, 0, h100())
                .value_or("")
                .find("CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK of this kernel = 768"),
            std::string::npos);
  EXPECT_NE(exceeded_kernel_limit(iface, 1024, 49153, h100()).value_or("").find("static shared"),
            std::string::npos);
}

TEST(CudaChecks, DeviceBuffersAreWholeWordsOfAtLeastSixteenBytes) {
  EXPECT_EQ(device_buffer_bytes(0), 16u);
  EXPECT_EQ(device_buffer_bytes(10), 16u);
  EXPECT_EQ(device_buffer_bytes(17), 20u);
  EXPECT_EQ(device_buffer_bytes(4096), 4096u);
}

BatchOptions runs(uint32_t n, uint32_t submissions) {
  BatchOptions o;
  o.runs = n;
  o.submissions = submissions;
  return o;
}

TEST(CudaBatchPlan, SubmissionsAndMemoryBoundTheRunsPerSubmission) {
  constexpr uint64_t kMiB = uint64_t{1} << 20;
  BatchPlan p = plan_batch(runs(100, 1), kMiB, 64 * kMiB);
  EXPECT_EQ(p.chunk, 64u);
  EXPECT_TRUE(p.pristine);
  EXPECT_EQ(plan_batch(runs(100, 10), kMiB, 64 * kMiB).chunk, 10u);
  EXPECT_EQ(plan_batch(runs(100, 3), 0, 64 * kMiB).chunk, 34u);  // ceil(100 / 3)
  EXPECT_EQ(plan_batch(runs(100, 1), 128 * kMiB, 64 * kMiB).chunk, 1u);
  EXPECT_EQ(plan_batch(runs(5, 50), kMiB, 64 * kMiB).chunk, 1u);
  const BatchPlan single = plan_batch(runs(0, 0), kMiB, 64 * kMiB);
  EXPECT_EQ(single.runs, 1u);
  EXPECT_EQ(single.chunk, 1u);
  EXPECT_FALSE(single.pristine);
}

TEST(CudaBatchPlan, SlotsKeepTheAllocatorsAlignment) {
  EXPECT_EQ(slot_stride(16), 256u);
  EXPECT_EQ(slot_stride(256), 256u);
  EXPECT_EQ(slot_stride(257), 512u);
}

TEST(CudaImages, TheKeyIsEveryOption) {
  const NvrtcTarget cubin{90, true, {"--gpu-architecture=sm_90", "--fmad=false"}};
  const NvrtcTarget ptx{90, false, {"--gpu-architecture=compute_90", "--fmad=false"}};
  const NvrtcTarget other{90, true, {"--gpu-architecture=sm_90"}};
  EXPECT_NE(image_key(cubin), image_key(ptx));
  EXPECT_NE(image_key(cubin), image_key(other));
  EXPECT_EQ(image_key(cubin), image_key(NvrtcTarget{90, true, cubin.options}));
}

TEST(CudaBackendSeam, CompileIsTheLoweringsOutcomeAndTouchesNoDevice) {
  std::string seen;
  CudaBackend backend({}, [&](const Program&, uint32_t budget) {
    seen = "budget " + std::to_string(budget);
    LoweringOutcome out;
    out.status = Status::Ok;
    out.kernel.source = "extern \"C\" __global__ void vyre_main() {}\n";
    return out;
  });
  CompileOutcome compiled = backend.compile({{}, {1, 1, 1}, {}});
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
  EXPECT_EQ(seen, "budget " + std::to_string(kDefaultLoopIterationBudget));
  const auto* program = dynamic_cast<const CudaProgram*>(compiled.program.get());
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(program->lowered().source, "extern \"C\" __global__ void vyre_main() {}\n");
  EXPECT_NE(CudaProgram(program->lowered()).id(), program->id());

  CudaBackend refusing({}, [](const Program&, uint32_t) {
    return LoweringOutcome{Status::NotSupported, "too wide", {}};
  });
  CompileOutcome refused = refusing.compile({{}, {1, 1, 1}, {}});
  EXPECT_EQ(refused.status, Status::NotSupported);
  EXPECT_EQ(refused.message, "too wide");
  EXPECT_EQ(refused.program, nullptr);
}

/// Whether this machine has NVIDIA's driver at all.
bool driver_present() {
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library != nullptr) dlclose(library);
  return library != nullptr;
}

TEST(CudaBackendSeam, WithoutTheDriverProbeSaysSoAndDispatchIsAnError) {
  CudaBackend backend({}, [](const Program&, uint32_t) {
    LoweringOutcome out;
    out.status = Status::Ok;
    return out;
  });
  const Capabilities caps = backend.probe();
  if (driver_present()) {
    // On a GPU machine the runtime tests (label cuda) cover the device.
    EXPECT_TRUE(caps.unavailable.empty() ||
                caps.unavailable.find("libcuda.so.1") == std::string::npos)
        << caps.unavailable;
    return;
  }
  EXPECT_NE(caps.unavailable.find("no CUDA driver (libcuda.so.1 could not be loaded: "),
            std::string::npos)
      << caps.unavailable;
  CompileOutcome compiled = backend.compile({{}, {1, 1, 1}, {}});
  ASSERT_EQ(compiled.status, Status::Ok);  // compile() needs no device.
  DispatchOutcome out = backend.dispatch(*compiled.program, {}, {});
  EXPECT_EQ(out.status, Status::Error);
  EXPECT_NE(out.message.find("no CUDA driver"), std::string::npos) << out.message;
}

TEST(CudaBackendSeam, ProgramOfAnotherBackendIsAnError) {
  struct Foreign : CompiledProgram {};
  CudaBackend backend({}, KernelLowering{});
  DispatchOutcome out = backend.dispatch(Foreign{}, {}, {});
  EXPECT_EQ(out.status, Status::Error);
  EXPECT_NE(out.message.find("another backend"), std::string::npos);
}

}  // namespace
}  // namespace vyre::cuda
