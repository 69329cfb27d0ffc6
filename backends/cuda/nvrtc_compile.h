// CUDA C source -> a loadable image (CUBIN or PTX) through NVRTC, and the
// compiled program that keeps its image: NVRTC runs once per program and
// target, whichever context or thread asks.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "backends/cuda/kernel_interface.h"
#include "backends/cuda/nvrtc_api.h"
#include "backends/cuda/nvrtc_target.h"

namespace vyre::cuda {

/// What NVRTC produced for one target.
struct KernelImage {
  /// CUBIN bytes, or PTX text with its terminating NUL (cuModuleLoadData reads
  /// PTX up to it).
  std::vector<char> bytes;
  bool cubin = false;
};

/// The key under which an image is kept: the target's options, which decide
/// everything NVRTC produces from one source.
std::string image_key(const NvrtcTarget& target);

/// Compiles `source` for `target`. Errors: NVRTC rejected it (its log,
/// then the source after "--- generated CUDA C ---"), or an NVRTC call failed.
Result<KernelImage> compile_cuda_c(const NvrtcApi& api, const std::string& source,
                                   const NvrtcTarget& target);

/// The compiled form of a program on this backend: its CUDA C source and
/// interface, and the NVRTC image made from them on first use.
class CudaProgram final : public CompiledProgram {
 public:
  explicit CudaProgram(LoweredKernel lowered);
  const LoweredKernel& lowered() const { return lowered_; }
  /// Unique for the life of the process: the key of the module cache.
  uint64_t id() const { return id_; }
  /// The image for `target`: NVRTC runs on the first call (`compiled` says
  /// so) and again only for another target; its outcome, a failure included,
  /// is kept. Thread-safe: a second caller waits for the first's compile.
  Result<std::shared_ptr<const KernelImage>> image(const NvrtcApi& api, const NvrtcTarget& target,
                                                   bool& compiled) const;

 private:
  LoweredKernel lowered_;
  uint64_t id_;
  mutable std::mutex mutex_;
  mutable std::string key_;
  mutable std::optional<Result<std::shared_ptr<const KernelImage>>> image_;
};

}  // namespace vyre::cuda
