// The CUDA driver API (libcuda.so.1), opened at run time. No CUDA header or
// toolkit is needed to build: the few types and enumerators the backend uses
// are declared here with the values cuda.h documents, and every entry point
// is looked up with dlsym (cuda_functions.def). The binary therefore starts,
// and every other backend works, on a machine without NVIDIA's driver.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "spec/support/result.h"

namespace vyre::cuda {

/// CUresult: 0 is success; the values the backend tells apart are below.
using CUresult = int;
/// A device ordinal.
using CUdevice = int;
/// A device address (64-bit on every platform the driver supports here).
using CUdeviceptr = unsigned long long;
/// Opaque driver handles.
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
/// Enumerations passed by value (int-sized in the C ABI).
using CUdevice_attribute = int;
using CUfunction_attribute = int;
using CUjit_option = int;

/// CUresult values (cuda.h, cudaError_enum).
inline constexpr CUresult kCudaSuccess = 0;
inline constexpr CUresult kCudaErrorInvalidValue = 1;
inline constexpr CUresult kCudaErrorOutOfMemory = 2;
inline constexpr CUresult kCudaErrorNotInitialized = 3;
inline constexpr CUresult kCudaErrorStubLibrary = 34;
inline constexpr CUresult kCudaErrorNoDevice = 100;
inline constexpr CUresult kCudaErrorInvalidImage = 200;
inline constexpr CUresult kCudaErrorNoBinaryForGpu = 209;
inline constexpr CUresult kCudaErrorInvalidPtx = 218;
inline constexpr CUresult kCudaErrorUnsupportedPtxVersion = 222;
inline constexpr CUresult kCudaErrorNotFound = 500;
inline constexpr CUresult kCudaErrorNotReady = 600;
inline constexpr CUresult kCudaErrorIllegalAddress = 700;
inline constexpr CUresult kCudaErrorLaunchOutOfResources = 701;
inline constexpr CUresult kCudaErrorLaunchTimeout = 702;
inline constexpr CUresult kCudaErrorAssert = 710;
inline constexpr CUresult kCudaErrorHardwareStackError = 714;
inline constexpr CUresult kCudaErrorIllegalInstruction = 715;
inline constexpr CUresult kCudaErrorMisalignedAddress = 716;
inline constexpr CUresult kCudaErrorInvalidAddressSpace = 717;
inline constexpr CUresult kCudaErrorInvalidPc = 718;
inline constexpr CUresult kCudaErrorLaunchFailed = 719;
inline constexpr CUresult kCudaErrorUnknown = 999;

/// CUdevice_attribute values (cuda.h).
inline constexpr CUdevice_attribute kAttrMaxThreadsPerBlock = 1;
inline constexpr CUdevice_attribute kAttrMaxBlockDimX = 2;  ///< Y and Z follow: 3, 4.
inline constexpr CUdevice_attribute kAttrMaxGridDimX = 5;   ///< Y and Z follow: 6, 7.
inline constexpr CUdevice_attribute kAttrMaxSharedMemoryPerBlock = 8;
inline constexpr CUdevice_attribute kAttrWarpSize = 10;
inline constexpr CUdevice_attribute kAttrMultiprocessorCount = 16;
inline constexpr CUdevice_attribute kAttrComputeCapabilityMajor = 75;
inline constexpr CUdevice_attribute kAttrComputeCapabilityMinor = 76;

/// CUfunction_attribute values (cuda.h).
inline constexpr CUfunction_attribute kFuncMaxThreadsPerBlock = 0;
inline constexpr CUfunction_attribute kFuncSharedSizeBytes = 1;

/// CUjit_option values (cuda.h): where the PTX JIT writes its errors.
inline constexpr CUjit_option kJitErrorLogBuffer = 5;
inline constexpr CUjit_option kJitErrorLogBufferSizeBytes = 6;

/// CU_STREAM_NON_BLOCKING: the stream does not synchronise with stream 0.
inline constexpr unsigned int kStreamNonBlocking = 0x1;

/// Entry points of the driver (cuda_functions.def).
struct CudaApi {
#define CU(field, symbol, ret, params) ret(*field) params = nullptr;
#include "backends/cuda/cuda_functions.def"
#undef CU

  /// Opens libcuda.so.1, looks up every entry point and calls cuInit(0). The
  /// library stays loaded for the life of the process (an abandoned context
  /// may still run). Errors: "no CUDA driver (libcuda.so.1 could not be
  /// loaded: ...)", a missing entry point, or cuInit's failure.
  static Result<CudaApi> open();
};

/// The CUresult's name: "CUDA_ERROR_ILLEGAL_ADDRESS", from the driver when
/// `api` is given and knows it, else from the backend's own table, else
/// "CUresult N".
std::string cu_error_name(CUresult code, const CudaApi* api = nullptr);

/// Whether `code`, returned by a call after a launch, leaves the context
/// unusable (a fault inside a kernel: every later call returns it again), so
/// that the context must be dropped and a new one created.
bool is_sticky_error(CUresult code);

}  // namespace vyre::cuda
