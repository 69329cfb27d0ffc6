// The context a backend dispatches in and its dispatch lanes. Dispatches may
// come from several threads at once (Backend::concurrent_dispatches); each
// takes a lane, which one dispatch holds at a time: its own in-order queue,
// its own buffer pool and its own kernel objects (kernel_for_lane), since
// two threads must never set arguments on one cl_kernel (OpenCL 1.2,
// appendix A.2). The context, its kernel cache and builder threads, and the
// disk cache are shared. Design: DESIGN.md ("Threads and dispatch lanes").
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "backends/backend.h"
#include "backends/disk_cache.h"
#include "backends/opencl/buffer_pool.h"
#include "backends/opencl/kernel_cache.h"
#include "backends/opencl/opencl_device.h"

namespace vyre::opencl {

/// The current context and its built kernels, as a caller holds them:
/// shared, so a compile worker building a kernel keeps them alive through a
/// recovery that replaces them.
struct ContextHandles {
  std::shared_ptr<ClContext> context;
  std::shared_ptr<KernelCache> kernels;
};

/// One dispatching thread's part of a context.
struct DispatchLane {
  /// Which lane of its context this is: with a stream, which kernel object
  /// of each kernel it uses (kernel_object_index).
  size_t index = 0;
  std::unique_ptr<ClQueue> queue;
  /// More in-order queues on the same context, made on a batch's first need
  /// (LaneLease::streams): a batch's runs spread over `queue` and these, so
  /// that a GPU runs them side by side (batch_run.h).
  std::vector<std::unique_ptr<ClQueue>> streams;
  /// Buffers on `queue`'s context, which remember what this lane's
  /// dispatches left in them (buffer_pool.h).
  std::unique_ptr<BufferPool> buffers;
  /// The thread that last held it: a thread gets its own lane back when it
  /// is free, with the buffers its last dispatch left.
  std::thread::id last_thread;
};

/// Most dispatches a GPU device runs at once by default. NVIDIA 580's OpenCL
/// runs one driver call at a time, whatever the queue: on the H100 a run of an
/// L5 case cost 60, 130 and 300 us of lane time with 1, 2 and 4 lanes, and the
/// default certification took 39-41, 27-29 and 29-32 s (DESIGN.md, "Threads
/// and dispatch lanes").
inline constexpr uint32_t kMaxGpuDispatchLanes = 2;

/// Queues a lane's batch spreads its runs over on a GPU (its own and seven
/// streams), and the most any batch uses. On the H100, 100 runs of a one-workgroup graph search
/// took 22 times as long in one in-order queue as in one Vulkan submission, whose dispatches
/// overlap.
inline constexpr uint32_t kBatchQueues = 8;

/// The kernel object (kernel_for_lane) that `lane` uses on stream `stream`
/// (0: its own queue, i: streams[i - 1]), distinct for every pair.
inline size_t kernel_object_index(const DispatchLane& lane, size_t stream) {
  return lane.index * kBatchQueues + stream;
}

/// How many dispatches a device of `type` runs at once by default on a host
/// of `host_cores` (0: unknown): on a GPU one per core, at most
/// kMaxGpuDispatchLanes, so that one thread's host work overlaps another's
/// kernel; 1 on any other device (PoCL on a CPU: one kernel already runs on
/// every core, and a second would only share them).
uint32_t default_dispatch_lanes(cl_device_type type, unsigned host_cores);

/// Processes worth running side by side on a GPU (Backend::useful_processes):
/// NVIDIA 580's OpenCL runs one driver call at a time in a process, whatever
/// the thread or queue ("Threads and dispatch lanes" in DESIGN.md), so a
/// second process's calls overlap the first's. Measured on the H200 with the
/// default certification as shards side by side (one process each): 21.4 s
/// alone, 18.4 and 18.7 s as 2, 16.8 s as 3, 15.1 s as 4 (warm); cold, 46 s
/// as 2 against 87-99 s alone, its kernel builds overlapping too.
inline constexpr uint32_t kGpuProcesses = 2;

/// How many processes of the backend are worth running on a device of
/// `type`: kGpuProcesses on a GPU; 1 on any other (PoCL on a CPU already
/// runs one kernel on every core).
uint32_t default_processes(cl_device_type type);

/// How many queues a batch spreads its runs over on a device of `type` by
/// default: kBatchQueues on a GPU; 1 on any other (PoCL on a CPU already
/// runs one kernel on every core).
uint32_t default_batch_queues(cl_device_type type);

class DispatchLanes;
/// One context with its kernels and its idle lanes (dispatch_lanes.cc).
struct LaneContext;

/// A lane held by one dispatch, handed back when the lease ends with the
/// dispatch's status (done), which decides whether the lane and its
/// context stay in use.
class LaneLease {
 public:
  LaneLease(LaneLease&& other) noexcept = default;
  LaneLease& operator=(LaneLease&&) = delete;
  LaneLease(const LaneLease&) = delete;
  LaneLease& operator=(const LaneLease&) = delete;
  ~LaneLease();

  /// The lane, and the context and kernels it belongs to.
  DispatchLane& lane() { return *lane_; }
  const ContextHandles& handles() const;
  /// Records the status the dispatch ended with (Status::Ok unless called).
  void done(Status status) { status_ = status; }
  /// The lane's first `count` streams, made where missing. Errors: queue
  /// creation failed.
  Result<Ok> make_streams(size_t count);

 private:
  friend class DispatchLanes;
  LaneLease(DispatchLanes* owner, std::shared_ptr<LaneContext> context,
            std::unique_ptr<DispatchLane> lane);

  DispatchLanes* owner_ = nullptr;
  std::shared_ptr<LaneContext> context_;
  std::unique_ptr<DispatchLane> lane_;
  Status status_ = Status::Ok;
};

/// The context dispatches run in, replaced after a hang or a device loss,
/// and the idle lanes on it. Thread-safe.
class DispatchLanes {
 public:
  /// Contexts on `device`, through `api` (both must outlive this); builders
  /// use `disk` (may be null) and add to `counts`.
  DispatchLanes(const OpenClApi& api, const ClDevice& device, DiskCache* disk,
                std::shared_ptr<BuildCounts> counts);
  /// Lets go of the current context; queues abandoned with hung work are
  /// never released.
  ~DispatchLanes();
  DispatchLanes(const DispatchLanes&) = delete;
  DispatchLanes& operator=(const DispatchLanes&) = delete;

  /// The current context and its kernel cache, created on first use and
  /// after each recovery.
  Result<ContextHandles> current();
  /// A lane of the current context for the calling thread: the one it held
  /// last if that is idle, else any idle one, else a new one (so there are
  /// as many lanes as dispatches ever ran at once).
  Result<LaneLease> take();
  /// Contexts created so far.
  uint64_t contexts_created() const;

 private:
  friend class LaneLease;
  /// The lease's end: after a hang (the lane's queue was abandoned) the
  /// queue is kept, never released, and the context replaced; after a
  /// device loss the lane is released and the context replaced; otherwise
  /// the lane waits for the next dispatch, unless its context was replaced
  /// meanwhile.
  void give_back(std::shared_ptr<LaneContext> context, std::unique_ptr<DispatchLane> lane,
                 Status status);
  Result<std::shared_ptr<LaneContext>> current_locked();

  const OpenClApi& api_;
  const ClDevice& device_;
  DiskCache* disk_;
  std::shared_ptr<BuildCounts> counts_;
  mutable std::mutex mutex_;  ///< Guards everything below and each context's idle lanes.
  // Queues abandoned with hung work: never released (see ClQueue).
  std::vector<std::unique_ptr<ClQueue>> abandoned_;
  std::shared_ptr<LaneContext> current_;
  uint64_t contexts_created_ = 0;
};

}  // namespace vyre::opencl
