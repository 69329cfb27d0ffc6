// A worker thread per lowering, abandoned past its budget.
//
// Why a thread and not a forked child: glslang cannot be interrupted, so the
// choices are to abandon its work or to kill a process running it. Forking the
// backend's process costs milliseconds per compile (a certification compiles
// thousands of programs, and the process maps a Vulkan driver), and a child
// forked from a multithreaded process may only call async-signal-safe
// functions, which glslang is not (it allocates and takes a global lock that
// another thread may hold at the fork). A thread is safe to abandon because
// it shares nothing mutable with the caller: it owns a copy of the program,
// writes its result into a block it co-owns, and glslang itself is
// thread-safe (a pool allocator per thread, the process-wide setup done once
// and never finalised, spirv_tools.cc). The cost of an abandoned worker is
// one core and its memory until glslang returns; a process that exits first
// ends it. Compiles that the device limits refuse never get here
// (exceeded_program_limit), so in practice only a pathological program that
// fits the device can leave a worker behind.
#include "backends/vulkan/bounded_lowering.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace vyre::vulkan {
namespace {

std::atomic<uint32_t> abandoned_running{0};

/// What the caller and its worker share.
struct LoweringJob {
  std::mutex mutex;
  std::condition_variable finished;
  std::optional<Result<LoweredProgram>> result;
  bool abandoned = false;
};

}  // namespace

std::optional<Result<LoweredProgram>> lower_within(const Program& program,
                                                   uint32_t loop_iteration_budget,
                                                   std::chrono::milliseconds limit,
                                                   std::shared_ptr<SpirvCache> cache) {
  auto job = std::make_shared<LoweringJob>();
  std::thread([job, program, loop_iteration_budget, cache = std::move(cache)] {
    Result<LoweredProgram> lowered = lower_program(program, loop_iteration_budget, cache.get());
    std::lock_guard lock(job->mutex);
    if (job->abandoned) {
      abandoned_running.fetch_sub(1);
      return;
    }
    job->result.emplace(std::move(lowered));
    job->finished.notify_one();
  }).detach();
  std::unique_lock lock(job->mutex);
  if (job->finished.wait_for(lock, limit, [&] { return job->result.has_value(); })) {
    return std::move(job->result);
  }
  job->abandoned = true;
  abandoned_running.fetch_add(1);
  return std::nullopt;
}

uint32_t abandoned_lowerings_running() {
  return abandoned_running.load();
}

}  // namespace vyre::vulkan
