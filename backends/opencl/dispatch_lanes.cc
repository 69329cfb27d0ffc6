// The current context, its lanes, and recovery.
#include "backends/opencl/dispatch_lanes.h"

#include <algorithm>
#include <string>

namespace vyre::opencl {
namespace {

/// Kernels kept per context; a certification run compiles far more programs.
constexpr size_t kKernelCacheCapacity = 1024;
/// Most threads that build kernels ahead, per context.
constexpr unsigned kMaxBuilderThreads = 16;
/// Bytes of free buffers kept per lane for later dispatches.
constexpr uint64_t kBufferPoolBytes = uint64_t{256} << 20;

/// What names `device`'s compiler in the disk cache's keys: a binary is
/// reused only by the same platform, driver version, device and options.
std::string device_key(const ClDevice& device) {
  const Capabilities& c = device.capabilities;
  return "driver: " + c.driver + "\napi: " + c.api + "\ndevice: " + c.device_name +
         "\noptions: " + kBuildOptions;
}

}  // namespace

uint32_t default_dispatch_lanes(cl_device_type type, unsigned host_cores) {
  if ((type & CL_DEVICE_TYPE_GPU) == 0) return 1;
  return std::clamp<uint32_t>(host_cores, 1, kMaxGpuDispatchLanes);
}

uint32_t default_processes(cl_device_type type) {
  return (type & CL_DEVICE_TYPE_GPU) != 0 ? kGpuProcesses : 1;
}

uint32_t default_batch_queues(cl_device_type type) {
  return (type & CL_DEVICE_TYPE_GPU) != 0 ? kBatchQueues : 1;
}

struct LaneContext {
  ContextHandles handles;
  /// Lanes no dispatch holds (DispatchLanes::mutex_); let go before the
  /// kernels and the context.
  std::vector<std::unique_ptr<DispatchLane>> idle;
  /// Lanes made in this context: the next one's index.
  size_t lanes_made = 0;
};

LaneLease::LaneLease(DispatchLanes* owner, std::shared_ptr<LaneContext> context,
                     std::unique_ptr<DispatchLane> lane)
    : owner_(owner), context_(std::move(context)), lane_(std::move(lane)) {}

LaneLease::~LaneLease() {
  if (lane_) owner_->give_back(std::move(context_), std::move(lane_), status_);
}

const ContextHandles& LaneLease::handles() const {
  return context_->handles;
}

Result<Ok> LaneLease::make_streams(size_t count) {
  while (lane_->streams.size() < count) {
    Result<std::unique_ptr<ClQueue>> queue =
        ClQueue::create(owner_->api_, context_->handles.context, owner_->device_);
    if (!queue.ok()) return queue.error();
    lane_->streams.push_back(std::move(*queue));
  }
  return Ok{};
}

DispatchLanes::DispatchLanes(const OpenClApi& api, const ClDevice& device, DiskCache* disk,
                             std::shared_ptr<BuildCounts> counts)
    : api_(api), device_(device), disk_(disk), counts_(std::move(counts)) {}

DispatchLanes::~DispatchLanes() {
  current_.reset();
}

Result<std::shared_ptr<LaneContext>> DispatchLanes::current_locked() {
  if (current_) return current_;
  Result<std::shared_ptr<ClContext>> context = ClContext::create(api_, device_);
  if (!context.ok()) return context.error();
  auto made = std::make_shared<LaneContext>();
  made->handles.context = *context;
  auto builder = std::make_unique<ProgramBuilder>(api_, *context, disk_, device_key(device_),
                                                  device_.capabilities.device_name, counts_);
  made->handles.kernels = std::make_shared<KernelCache>(
      std::move(builder), kKernelCacheCapacity,
      std::clamp(std::thread::hardware_concurrency(), 1u, kMaxBuilderThreads),
      (device_.type & CL_DEVICE_TYPE_GPU) != 0 ? kFewestKernelsPerGpuBuild : 1);
  current_ = std::move(made);
  ++contexts_created_;
  return current_;
}

Result<ContextHandles> DispatchLanes::current() {
  std::lock_guard lock(mutex_);
  Result<std::shared_ptr<LaneContext>> context = current_locked();
  if (!context.ok()) return context.error();
  return (*context)->handles;
}

Result<LaneLease> DispatchLanes::take() {
  std::lock_guard lock(mutex_);
  Result<std::shared_ptr<LaneContext>> current = current_locked();
  if (!current.ok()) return current.error();
  LaneContext& context = **current;
  const std::thread::id me = std::this_thread::get_id();
  std::unique_ptr<DispatchLane> lane;
  if (!context.idle.empty()) {
    auto mine = std::find_if(context.idle.begin(), context.idle.end(),
                             [&](const auto& idle) { return idle->last_thread == me; });
    if (mine == context.idle.end()) mine = std::prev(context.idle.end());
    lane = std::move(*mine);
    context.idle.erase(mine);
  } else {
    Result<std::unique_ptr<ClQueue>> queue =
        ClQueue::create(api_, context.handles.context, device_);
    if (!queue.ok()) return queue.error();
    lane = std::make_unique<DispatchLane>();
    lane->index = context.lanes_made++;
    lane->queue = std::move(*queue);
    lane->buffers = std::make_unique<BufferPool>(
        api_, *lane->queue, device_.limits.max_mem_alloc_size, kBufferPoolBytes);
  }
  lane->last_thread = me;
  return LaneLease(this, *current, std::move(lane));
}

void DispatchLanes::give_back(std::shared_ptr<LaneContext> context,
                              std::unique_ptr<DispatchLane> lane, Status status) {
  // Let go after the lock, the lane before its context: a context's
  // builders finish their builds first.
  std::shared_ptr<LaneContext> dropped_context;
  std::unique_ptr<DispatchLane> dropped_lane;
  std::lock_guard lock(mutex_);
  const bool hung = lane->queue->abandoned();
  if (hung || status == Status::DeviceLost) {
    // The pool releases nothing on an abandoned queue, which stays here, as
    // do the streams (a batch abandons them with its queue).
    if (hung) {
      abandoned_.push_back(std::move(lane->queue));
      for (std::unique_ptr<ClQueue>& stream : lane->streams) {
        if (stream->abandoned()) abandoned_.push_back(std::move(stream));
      }
    }
    dropped_lane = std::move(lane);
    if (current_ == context) dropped_context = std::move(current_);
  } else if (current_ == context) {
    context->idle.push_back(std::move(lane));
  } else {
    dropped_lane = std::move(lane);  // Its context was replaced meanwhile.
  }
}

uint64_t DispatchLanes::contexts_created() const {
  std::lock_guard lock(mutex_);
  return contexts_created_;
}

}  // namespace vyre::opencl
