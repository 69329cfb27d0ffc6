// Kernels built into as few OpenCL programs as possible, through an on-disk
// cache of the driver's program binaries (backends/disk_cache.h): a kernel
// whose source this device and driver built before is loaded with
// clCreateProgramWithBinary; the rest are joined (program_batch.h) and built
// by one clBuildProgram, and the binary is stored for the next run.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "backends/disk_cache.h"
#include "backends/opencl/kernel_arguments.h"
#include "backends/opencl/opencl_device.h"

namespace vyre::opencl {

/// Options of every clBuildProgram: OpenCL C 1.2, no relaxed-math flags (the
/// IR has no floats, and none would be allowed to lose exactness), and no
/// warnings: generated code trips style warnings (a constant operand of
/// `||`), and PoCL's and NVIDIA's compilers print "N warnings generated." on
/// stderr for each kernel, thousands of lines in a hunt.
inline constexpr const char* kBuildOptions = "-cl-std=CL1.2 -w";

/// The first line of a kernel's source built with `-cl-opt-disable` as well
/// (Encoding::ClOptDisable): the encoding travels in the source, so every
/// cache key (in memory, on disk) tells the two builds apart.
inline constexpr std::string_view kOptDisableLine = "// vyre encoding: cl-opt-disable\n";

/// The clBuildProgram options of kernel source `text`: kBuildOptions, and
/// `-cl-opt-disable` after kOptDisableLine.
std::string build_options_of(std::string_view text);

/// One built program; released when its last kernel goes, unless its
/// context was abandoned with work that may still use it.
class BuiltProgram {
 public:
  BuiltProgram(const OpenClApi& api, std::shared_ptr<const ClContext> context, cl_program program)
      : api_(api), context_(std::move(context)), program_(program) {}
  ~BuiltProgram();
  BuiltProgram(const BuiltProgram&) = delete;
  BuiltProgram& operator=(const BuiltProgram&) = delete;

  cl_program program() const { return program_; }
  const OpenClApi& api() const { return api_; }
  const ClContext& context() const { return *context_; }

 private:
  const OpenClApi& api_;
  std::shared_ptr<const ClContext> context_;  // It outlives every program built in it.
  cl_program program_;
};

/// One kernel of a built program.
struct BuiltKernel {
  BuiltKernel(std::shared_ptr<const BuiltProgram> from, cl_kernel k, std::string kernel_name)
      : program(std::move(from)), kernel(k), name(std::move(kernel_name)) {}
  ~BuiltKernel();
  BuiltKernel(const BuiltKernel&) = delete;
  BuiltKernel& operator=(const BuiltKernel&) = delete;

  std::shared_ptr<const BuiltProgram> program;
  cl_kernel kernel = nullptr;
  /// Its kernel function's name in `program`.
  std::string name;
  /// CL_KERNEL_WORK_GROUP_SIZE: the most invocations per workgroup this
  /// kernel can run with on the device (may be below the device's limit).
  uint64_t max_work_group_size = 0;
  /// Whether a dispatch or batch of this kernel object ended well: until
  /// then a CPU device may still compile it at its first enqueue, which the
  /// first wait allows for (ClQueue::first_run_allowance).
  mutable std::atomic<bool> ran{false};
  /// The arguments single dispatches last set on `kernel` (kernel_arguments.h).
  /// Its lane's dispatch, one at a time, is the only user; a batch, which
  /// sets arguments itself, forgets them first.
  mutable KernelArguments arguments;

 private:
  friend Result<std::shared_ptr<const BuiltKernel>> kernel_for_lane(
      const std::shared_ptr<const BuiltKernel>& kernel, size_t lane);
  mutable std::mutex lanes_mutex_;  ///< Guards lanes_.
  /// Kernel objects 1, 2, ... (object i at i - 1; null until first used).
  mutable std::vector<std::shared_ptr<const BuiltKernel>> lanes_;
};

/// Kernel object `lane` of `kernel` (a lane's queue or one of its streams:
/// kernel_object_index), which sets arguments on and enqueues it: 0 is
/// `kernel` itself, every other index a kernel object of its own, made from
/// the same program on its first use and kept as long as `kernel` is. Two
/// threads must never set arguments on one kernel object (OpenCL 1.2,
/// appendix A.2), two queues of a batch never share one, and each lane is
/// one dispatching thread's at a time. Errors: clCreateKernel failed.
Result<std::shared_ptr<const BuiltKernel>> kernel_for_lane(
    const std::shared_ptr<const BuiltKernel>& kernel, size_t lane);

/// What the builders of a backend did (all its contexts), for the report.
struct BuildCounts {
  std::atomic<uint64_t> programs_built{0};    ///< clBuildProgram calls on source.
  std::atomic<uint64_t> kernels_built{0};     ///< Kernels those programs held.
  std::atomic<uint64_t> kernels_loaded{0};    ///< Kernels found in the disk cache.
  std::atomic<uint64_t> binaries_refused{0};  ///< Cached binaries the driver would not load.
};

/// Builds kernels in one context. Thread-safe.
class ProgramBuilder {
 public:
  /// `disk` may be null (no disk cache); `device_key` names the device,
  /// driver and build options in the cache keys; `counts` is added to.
  ProgramBuilder(const OpenClApi& api, std::shared_ptr<const ClContext> context, DiskCache* disk,
                 std::string device_key, std::string device_name,
                 std::shared_ptr<BuildCounts> counts);

  /// The kernels of `sources` (each defining `kKernelName`), one result per
  /// source: from the disk cache where it holds them, else built together
  /// in one program; when that program fails, each source is built alone,
  /// so that a rejected kernel's error is its own build log.
  std::vector<Result<std::shared_ptr<const BuiltKernel>>> build(
      const std::vector<std::string_view>& sources);

 private:
  std::shared_ptr<const BuiltKernel> from_disk(std::string_view source);
  std::shared_ptr<const BuiltProgram> load_program(const std::string& digest,
                                                   const std::string& options);
  Result<std::shared_ptr<const BuiltProgram>> build_program(const std::string& text);
  Result<std::shared_ptr<const BuiltKernel>> make_kernel(
      std::shared_ptr<const BuiltProgram> program, const std::string& name);
  /// Stores `program`'s binary and the index entry of each kernel source.
  void store(const BuiltProgram& program, const std::string& text,
             const std::vector<std::string_view>& sources, const std::vector<std::string>& names);
  std::string index_key(std::string_view source) const;
  std::string program_key(const std::string& digest) const;

  const OpenClApi& api_;
  std::shared_ptr<const ClContext> context_;
  DiskCache* disk_;
  std::string device_key_;
  std::string device_name_;
  std::mutex mutex_;  ///< Guards loaded_ and refused_.
  /// Programs loaded from the disk cache, by digest, while a kernel of theirs lives.
  std::map<std::string, std::weak_ptr<const BuiltProgram>> loaded_;
  /// Programs whose cached binary the driver refused.
  std::set<std::string> refused_;
  std::shared_ptr<BuildCounts> counts_;
};

}  // namespace vyre::opencl
