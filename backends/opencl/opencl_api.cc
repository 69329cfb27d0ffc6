// Loading the OpenCL ICD loader with dlopen.
#include "backends/opencl/opencl_api.h"

#include <dlfcn.h>

#include <array>
#include <utility>

#include "backends/system_library.h"

namespace vyre::opencl {
namespace {

constexpr std::array<std::pair<cl_int, const char*>, 22> kErrorNames = {{
    {CL_SUCCESS, "CL_SUCCESS"},
    {CL_DEVICE_NOT_FOUND, "CL_DEVICE_NOT_FOUND"},
    {CL_DEVICE_NOT_AVAILABLE, "CL_DEVICE_NOT_AVAILABLE"},
    {CL_COMPILER_NOT_AVAILABLE, "CL_COMPILER_NOT_AVAILABLE"},
    {CL_MEM_OBJECT_ALLOCATION_FAILURE, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
    {CL_OUT_OF_RESOURCES, "CL_OUT_OF_RESOURCES"},
    {CL_OUT_OF_HOST_MEMORY, "CL_OUT_OF_HOST_MEMORY"},
    {CL_BUILD_PROGRAM_FAILURE, "CL_BUILD_PROGRAM_FAILURE"},
    {CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST"},
    {CL_INVALID_VALUE, "CL_INVALID_VALUE"},
    {CL_INVALID_DEVICE, "CL_INVALID_DEVICE"},
    {CL_INVALID_CONTEXT, "CL_INVALID_CONTEXT"},
    {CL_INVALID_COMMAND_QUEUE, "CL_INVALID_COMMAND_QUEUE"},
    {CL_INVALID_MEM_OBJECT, "CL_INVALID_MEM_OBJECT"},
    {CL_INVALID_BUILD_OPTIONS, "CL_INVALID_BUILD_OPTIONS"},
    {CL_INVALID_PROGRAM_EXECUTABLE, "CL_INVALID_PROGRAM_EXECUTABLE"},
    {CL_INVALID_KERNEL_NAME, "CL_INVALID_KERNEL_NAME"},
    {CL_INVALID_ARG_INDEX, "CL_INVALID_ARG_INDEX"},
    {CL_INVALID_ARG_SIZE, "CL_INVALID_ARG_SIZE"},
    {CL_INVALID_WORK_GROUP_SIZE, "CL_INVALID_WORK_GROUP_SIZE"},
    {CL_INVALID_GLOBAL_WORK_SIZE, "CL_INVALID_GLOBAL_WORK_SIZE"},
    {-1001, "CL_PLATFORM_NOT_FOUND_KHR"},
}};

constexpr std::array<const char*, 2> kLoaderNames = {"libOpenCL.so.1", "libOpenCL.so"};

}  // namespace

std::string cl_error_name(cl_int code) {
  for (const auto& [value, name] : kErrorNames) {
    if (value == code) return name;
  }
  return "OpenCL error " + std::to_string(code);
}

Result<OpenClApi> OpenClApi::open() {
  const Result<void*> opened = open_first_library(kLoaderNames);
  if (!opened) {
    return Error{"no OpenCL ICD loader: cannot open libOpenCL.so.1 (" + opened.error().message +
                 "). Install an ICD loader (Debian/Ubuntu: ocl-icd-libopencl1) and a driver "
                 "(PoCL: pocl-opencl-icd; NVIDIA: its driver's OpenCL ICD)."};
  }
  void* library = *opened;
  OpenClApi api;
  std::string missing;
#define CL(name)                                                         \
  api.name = reinterpret_cast<decltype(&::name)>(dlsym(library, #name)); \
  if (api.name == nullptr) missing += std::string(missing.empty() ? "" : ", ") + #name;
#include "backends/opencl/opencl_functions.def"
#undef CL
  if (!missing.empty()) {
    return Error{"the OpenCL loader libOpenCL.so.1 lacks " + missing + " (OpenCL 1.2 is needed)"};
  }
  return api;
}

}  // namespace vyre::opencl
