// Loading NVRTC with dlopen.
#include "backends/cuda/nvrtc_api.h"

#include <dlfcn.h>

#include <array>
#include <cstdlib>

namespace vyre::cuda {
namespace {

/// Sonames NVRTC has shipped under, newest first: libnvrtc.so is only a
/// development link, CUDA 11.2 to 11.8 share libnvrtc.so.11.2.
constexpr std::array<const char*, 4> kSonames = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12",
                                                 "libnvrtc.so.11.2"};
/// Where the toolkit installs it when it is not on the loader's path.
constexpr const char* kToolkitDirectory = "/usr/local/cuda/lib64/";

}  // namespace

std::vector<std::string> nvrtc_library_candidates(std::string_view override) {
  if (!override.empty()) return {std::string(override)};
  std::vector<std::string> names;
  for (const char* soname : kSonames) names.emplace_back(soname);
  for (const char* soname : kSonames) names.push_back(std::string(kToolkitDirectory) + soname);
  return names;
}

bool nvrtc_suits_driver(int nvrtc_major, int driver_version) {
  return driver_version <= 0 || nvrtc_major <= driver_version / 1000;
}

std::string nvrtc_error_name(const NvrtcApi& api, nvrtcResult result) {
  const char* text = api.nvrtcGetErrorString != nullptr ? api.nvrtcGetErrorString(result) : nullptr;
  return text != nullptr ? text : "nvrtcResult " + std::to_string(result);
}

Result<NvrtcApi> NvrtcApi::open(int driver_version) {
  const char* variable = std::getenv(kNvrtcLibraryVariable);
  void* library = nullptr;
  NvrtcApi api;
  std::string tried;
  for (const std::string& name : nvrtc_library_candidates(variable != nullptr ? variable : "")) {
    library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      const char* why = dlerror();
      tried += "\n  " + name + ": " + (why != nullptr ? why : "not loadable");
      continue;
    }
    const auto version =
        reinterpret_cast<nvrtcResult (*)(int*, int*)>(dlsym(library, "nvrtcVersion"));
    int major = 0;
    int minor = 0;
    if (version != nullptr && version(&major, &minor) == kNvrtcSuccess &&
        !nvrtc_suits_driver(major, driver_version)) {
      tried += "\n  " + name + ": NVRTC " + std::to_string(major) + "." + std::to_string(minor) +
               " is newer than the driver's CUDA " + std::to_string(driver_version / 1000) + "." +
               std::to_string(driver_version % 1000 / 10) + ", which cannot load its code";
      dlclose(library);
      library = nullptr;
      continue;
    }
    api.library = name;
    break;
  }
  if (library == nullptr) {
    return Error{std::string("no NVRTC (the CUDA C runtime compiler) could be loaded; tried:") +
                 tried + "\nInstall the CUDA toolkit's NVRTC (cuda-nvrtc) or set " +
                 kNvrtcLibraryVariable + " to its path (libnvrtc.so.12 or the like)."};
  }
  std::string missing;
#define NVRTC(name, ret, params)                                     \
  api.name = reinterpret_cast<ret(*) params>(dlsym(library, #name)); \
  if (api.name == nullptr) missing += std::string(missing.empty() ? "" : ", ") + #name;
#include "backends/cuda/nvrtc_functions.def"
#undef NVRTC
  if (!missing.empty()) {
    return Error{"the NVRTC library " + api.library + " lacks " + missing +
                 " (NVRTC 11.2 or later is needed)"};
  }
  api.nvrtcVersion(&api.major, &api.minor);
  int count = 0;
  if (api.nvrtcGetNumSupportedArchs(&count) == kNvrtcSuccess && count > 0) {
    api.supported_archs.resize(static_cast<size_t>(count));
    if (api.nvrtcGetSupportedArchs(api.supported_archs.data()) != kNvrtcSuccess) {
      api.supported_archs.clear();
    }
  }
  if (api.supported_archs.empty()) {
    return Error{"the NVRTC library " + api.library + " lists no GPU architecture it compiles for"};
  }
  return api;
}

}  // namespace vyre::cuda
