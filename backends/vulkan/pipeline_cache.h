// Compute pipelines built once per compiled program and reused by every later
// dispatch of it on the same device.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/disk_cache.h"
#include "backends/vulkan/shader_interface.h"
#include "backends/vulkan/spirv_tools.h"
#include "backends/vulkan/vulkan_device.h"

namespace vyre::vulkan {

/// The descriptor sets of a pipeline, each in a pool of its own: one made
/// with the pipeline, more when dispatches of the program overlap (the runs
/// of a host-driven case on several threads), all kept for reuse until the
/// pipeline goes.
struct DescriptorSets {
  std::mutex mutex;
  std::vector<VkDescriptorSet> free;  ///< Sets no dispatch holds.
  std::vector<VkDescriptorPool> pools;
};

/// The device objects of one program: its pipeline and the descriptor sets
/// its dispatches rewrite, one set a dispatch.
struct Pipeline {
  VkShaderModule module = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  /// One set's descriptors; empty when the program binds nothing.
  std::vector<VkDescriptorPoolSize> pool_sizes;
  std::shared_ptr<DescriptorSets> sets = std::make_shared<DescriptorSets>();
};

/// A descriptor set of `pipeline` that one dispatch holds until it ends: a
/// free one, or a new one when every set is held.
class DescriptorSetLease {
 public:
  DescriptorSetLease(const VulkanDevice& device, const Pipeline& pipeline)
      : device_(device), pipeline_(pipeline) {}
  ~DescriptorSetLease();
  DescriptorSetLease(const DescriptorSetLease&) = delete;
  DescriptorSetLease& operator=(const DescriptorSetLease&) = delete;

  /// The set (VK_NULL_HANDLE when the program binds nothing); an Error when
  /// a new one could not be made.
  Result<VkDescriptorSet> acquire();

 private:
  const VulkanDevice& device_;
  const Pipeline& pipeline_;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
};

/// Pipelines of one device, keyed by compiled-program id, least recently used
/// evicted past `capacity` (a certification run compiles thousands). Builds go
/// through one VkPipelineCache, so a driver can reuse its compiled code when an
/// evicted program, or a program with the same SPIR-V, is built again.
///
/// Thread-safe: the certifier's compile workers build pipelines ahead
/// (Backend::prepare) while the run dispatches. A pipeline is shared: an
/// entry evicted while a batch uses it lives until that batch lets it go,
/// and the cache keeps its device alive as long as any of its pipelines.
class PipelineCache {
 public:
  /// `disk` (may be null) holds the driver cache's data between runs
  /// (pipeline_cache_file.h): loaded here when an entry fits this device,
  /// and written back by save() or at destruction when this cache built a
  /// pipeline;
  /// `refused` counts entries the header check or the driver refused.
  PipelineCache(std::shared_ptr<const VulkanDevice> device, size_t capacity,
                std::shared_ptr<DiskCache> disk = nullptr,
                std::shared_ptr<std::atomic<uint64_t>> refused = nullptr);
  /// Writes the driver cache's data to the disk cache and destroys it,
  /// unless the device was abandoned (each pipeline is destroyed when its
  /// last holder lets it go).
  ~PipelineCache();
  PipelineCache(const PipelineCache&) = delete;
  PipelineCache& operator=(const PipelineCache&) = delete;

  /// The pipeline of program `id`, built from `spirv` on first use; `built`
  /// says whether this call built it. Errors: the driver rejected the module
  /// or ran out of memory. Two threads asking for a new id at once may both
  /// build it; one build is kept.
  Result<std::shared_ptr<const Pipeline>> get(uint64_t id, const SpirvWords& spirv,
                                              const ShaderInterface& iface, bool& built);

  /// Writes the driver cache's data to the disk cache when a pipeline was
  /// built since it was loaded or last saved and the data changed (the
  /// destructor's write, for a process that ends without destroying it).
  /// get() also calls it at most every kSaveEvery while it builds.
  void save();

  /// How often building pipelines writes the driver cache's data to disk: a
  /// driver that crashes the process in a compile (NVIDIA 580 does, on a
  /// valid shader of L5/found) takes at most this much of the builds with
  /// it, not every build since the process started, so the next process and
  /// the next run start from what was kept.
  static constexpr std::chrono::milliseconds kSaveEvery{2000};

 private:
  struct Entry {
    std::shared_ptr<const Pipeline> pipeline;
    uint64_t last_use = 0;
  };
  Result<std::shared_ptr<const Pipeline>> build(const SpirvWords& spirv,
                                                const ShaderInterface& iface) const;

  std::shared_ptr<const VulkanDevice> device_;
  size_t capacity_;
  VkPipelineCache driver_cache_ = VK_NULL_HANDLE;  ///< Null if the driver refused one.
  std::shared_ptr<DiskCache> disk_;
  std::string disk_key_;
  std::atomic<bool> built_any_{false};
  /// Bytes of cache data the driver took at creation, or last saved (0 when
  /// none).
  size_t loaded_bytes_ = 0;
  std::mutex save_mutex_;  ///< Serialises save(), which sets loaded_bytes_.
  std::chrono::steady_clock::time_point last_save_ = std::chrono::steady_clock::now();
  std::mutex mutex_;  ///< Guards entries_, clock_ and last_save_; builds run outside it.
  std::map<uint64_t, Entry> entries_;
  uint64_t clock_ = 0;
};

}  // namespace vyre::vulkan
