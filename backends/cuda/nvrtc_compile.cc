// Running NVRTC and keeping its image per program.
#include "backends/cuda/nvrtc_compile.h"

#include <atomic>

namespace vyre::cuda {
namespace {

std::atomic<uint64_t> next_program_id{1};

std::string program_log(const NvrtcApi& api, nvrtcProgram program) {
  size_t size = 0;
  if (api.nvrtcGetProgramLogSize(program, &size) != kNvrtcSuccess || size == 0) {
    return "(no log)";
  }
  std::string log(size, '\0');
  api.nvrtcGetProgramLog(program, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

/// Destroys the program at scope exit.
struct ProgramHolder {
  const NvrtcApi& api;
  nvrtcProgram program = nullptr;
  ~ProgramHolder() {
    if (program != nullptr) api.nvrtcDestroyProgram(&program);
  }
};

}  // namespace

std::string image_key(const NvrtcTarget& target) {
  std::string key;
  for (const std::string& option : target.options) key += option + '\n';
  return key;
}

Result<KernelImage> compile_cuda_c(const NvrtcApi& api, const std::string& source,
                                   const NvrtcTarget& target) {
  ProgramHolder held{api};
  nvrtcResult r =
      api.nvrtcCreateProgram(&held.program, source.c_str(), "vyre.cu", 0, nullptr, nullptr);
  if (r != kNvrtcSuccess) {
    held.program = nullptr;
    return Error{"nvrtcCreateProgram failed: " + nvrtc_error_name(api, r)};
  }
  std::vector<const char*> options;
  for (const std::string& option : target.options) options.push_back(option.c_str());
  r = api.nvrtcCompileProgram(held.program, static_cast<int>(options.size()), options.data());
  if (r != kNvrtcSuccess) {
    return Error{"NVRTC " + std::to_string(api.major) + "." + std::to_string(api.minor) +
                 " rejected the kernel (" + nvrtc_error_name(api, r) + ", " + target.options[0] +
                 "):\n" + program_log(api, held.program) + "\n--- generated CUDA C ---\n" + source};
  }
  KernelImage image;
  image.cubin = target.cubin;
  size_t size = 0;
  r = target.cubin ? api.nvrtcGetCUBINSize(held.program, &size)
                   : api.nvrtcGetPTXSize(held.program, &size);
  if (r == kNvrtcSuccess) {
    image.bytes.resize(size);
    r = target.cubin ? api.nvrtcGetCUBIN(held.program, image.bytes.data())
                     : api.nvrtcGetPTX(held.program, image.bytes.data());
  }
  if (r != kNvrtcSuccess || image.bytes.empty()) {
    return Error{std::string("NVRTC compiled the kernel but returned no ") +
                 (target.cubin ? "CUBIN" : "PTX") + ": " + nvrtc_error_name(api, r)};
  }
  return image;
}

CudaProgram::CudaProgram(LoweredKernel lowered)
    : lowered_(std::move(lowered)), id_(next_program_id.fetch_add(1)) {}

Result<std::shared_ptr<const KernelImage>> CudaProgram::image(const NvrtcApi& api,
                                                              const NvrtcTarget& target,
                                                              bool& compiled) const {
  std::lock_guard lock(mutex_);
  compiled = false;
  const std::string key = image_key(target);
  if (image_ && key_ == key) return *image_;
  Result<KernelImage> made = compile_cuda_c(api, lowered_.source, target);
  compiled = true;
  key_ = key;
  if (made.ok()) {
    image_ =
        std::shared_ptr<const KernelImage>(std::make_shared<const KernelImage>(std::move(*made)));
  } else {
    image_ = Result<std::shared_ptr<const KernelImage>>(made.error());
  }
  return *image_;
}

}  // namespace vyre::cuda
