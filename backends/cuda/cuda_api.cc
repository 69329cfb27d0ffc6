// Loading the CUDA driver with dlopen.
#include "backends/cuda/cuda_api.h"

#include <dlfcn.h>

#include <array>
#include <utility>

namespace vyre::cuda {
namespace {

constexpr std::array<std::pair<CUresult, const char*>, 23> kErrorNames = {{
    {kCudaSuccess, "CUDA_SUCCESS"},
    {kCudaErrorInvalidValue, "CUDA_ERROR_INVALID_VALUE"},
    {kCudaErrorOutOfMemory, "CUDA_ERROR_OUT_OF_MEMORY"},
    {kCudaErrorNotInitialized, "CUDA_ERROR_NOT_INITIALIZED"},
    {kCudaErrorStubLibrary, "CUDA_ERROR_STUB_LIBRARY"},
    {kCudaErrorNoDevice, "CUDA_ERROR_NO_DEVICE"},
    {kCudaErrorInvalidImage, "CUDA_ERROR_INVALID_IMAGE"},
    {kCudaErrorNoBinaryForGpu, "CUDA_ERROR_NO_BINARY_FOR_GPU"},
    {kCudaErrorInvalidPtx, "CUDA_ERROR_INVALID_PTX"},
    {kCudaErrorUnsupportedPtxVersion, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
    {kCudaErrorNotFound, "CUDA_ERROR_NOT_FOUND"},
    {kCudaErrorNotReady, "CUDA_ERROR_NOT_READY"},
    {kCudaErrorIllegalAddress, "CUDA_ERROR_ILLEGAL_ADDRESS"},
    {kCudaErrorLaunchOutOfResources, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"},
    {kCudaErrorLaunchTimeout, "CUDA_ERROR_LAUNCH_TIMEOUT"},
    {kCudaErrorAssert, "CUDA_ERROR_ASSERT"},
    {kCudaErrorHardwareStackError, "CUDA_ERROR_HARDWARE_STACK_ERROR"},
    {kCudaErrorIllegalInstruction, "CUDA_ERROR_ILLEGAL_INSTRUCTION"},
    {kCudaErrorMisalignedAddress, "CUDA_ERROR_MISALIGNED_ADDRESS"},
    {kCudaErrorInvalidAddressSpace, "CUDA_ERROR_INVALID_ADDRESS_SPACE"},
    {kCudaErrorInvalidPc, "CUDA_ERROR_INVALID_PC"},
    {kCudaErrorLaunchFailed, "CUDA_ERROR_LAUNCH_FAILED"},
    {kCudaErrorUnknown, "CUDA_ERROR_UNKNOWN"},
}};

/// The faults after which "any further CUDA work will return the same error"
/// (cuda.h): the context is lost.
constexpr std::array<CUresult, 9> kStickyErrors = {
    kCudaErrorIllegalAddress,      kCudaErrorLaunchTimeout,      kCudaErrorAssert,
    kCudaErrorHardwareStackError,  kCudaErrorIllegalInstruction, kCudaErrorMisalignedAddress,
    kCudaErrorInvalidAddressSpace, kCudaErrorInvalidPc,          kCudaErrorLaunchFailed,
};

}  // namespace

std::string cu_error_name(CUresult code, const CudaApi* api) {
  const char* name = nullptr;
  if (api != nullptr && api->cuGetErrorName != nullptr &&
      api->cuGetErrorName(code, &name) == kCudaSuccess && name != nullptr) {
    return name;
  }
  for (const auto& [value, known] : kErrorNames) {
    if (value == code) return known;
  }
  return "CUresult " + std::to_string(code);
}

bool is_sticky_error(CUresult code) {
  for (CUresult sticky : kStickyErrors) {
    if (sticky == code) return true;
  }
  return false;
}

Result<CudaApi> CudaApi::open() {
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    return Error{std::string("no CUDA driver (libcuda.so.1 could not be loaded: ") +
                 (why != nullptr ? why : "unknown reason") +
                 "). The cuda backend needs NVIDIA's driver, which installs libcuda.so.1."};
  }
  CudaApi api;
  std::string missing;
#define CU(field, symbol, ret, params)                                 \
  api.field = reinterpret_cast<ret(*) params>(dlsym(library, symbol)); \
  if (api.field == nullptr) missing += std::string(missing.empty() ? "" : ", ") + symbol;
#include "backends/cuda/cuda_functions.def"
#undef CU
  if (!missing.empty()) {
    return Error{"the CUDA driver libcuda.so.1 lacks " + missing +
                 " (a driver for CUDA 11 or later is needed)"};
  }
  if (const CUresult init = api.cuInit(0); init != kCudaSuccess) {
    return Error{"the CUDA driver did not initialise (cuInit: " + cu_error_name(init, &api) +
                 (init == kCudaErrorNoDevice ? "): no CUDA device is visible to this process"
                  : init == kCudaErrorStubLibrary
                      ? "): libcuda.so.1 is the toolkit's stub, not a driver"
                      : ")")};
  }
  return api;
}

}  // namespace vyre::cuda
