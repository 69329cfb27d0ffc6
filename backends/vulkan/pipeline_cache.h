// Compute pipelines built once per compiled program and reused by every later
// dispatch of it on the same device.
#pragma once

#include <cstdint>
#include <map>

#include "backends/vulkan/shader_interface.h"
#include "backends/vulkan/spirv_tools.h"
#include "backends/vulkan/vulkan_device.h"

namespace vyre::vulkan {

/// The device objects of one program: its pipeline and one descriptor set
/// that each dispatch rewrites (dispatches never overlap).
struct Pipeline {
  VkShaderModule module = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;  ///< Null when the program binds nothing.
};

/// Pipelines of one device, keyed by compiled-program id, least recently used
/// evicted past `capacity` (a certification run compiles thousands). Builds go
/// through one VkPipelineCache, so a driver can reuse its compiled code when an
/// evicted program, or a program with the same SPIR-V, is built again.
class PipelineCache {
 public:
  PipelineCache(const VulkanDevice& device, size_t capacity);
  /// Destroys every pipeline, unless the device was abandoned.
  ~PipelineCache();
  PipelineCache(const PipelineCache&) = delete;
  PipelineCache& operator=(const PipelineCache&) = delete;

  /// The pipeline of program `id`, built from `spirv` on first use; `built`
  /// says whether this call built it. Errors: the driver rejected the module
  /// or ran out of memory.
  Result<const Pipeline*> get(uint64_t id, const SpirvWords& spirv, const ShaderInterface& iface,
                              bool& built);

 private:
  struct Entry {
    Pipeline pipeline;
    uint64_t last_use = 0;
  };
  Result<Pipeline> build(const SpirvWords& spirv, const ShaderInterface& iface) const;
  void destroy(const Pipeline& p) const;

  const VulkanDevice& device_;
  size_t capacity_;
  VkPipelineCache driver_cache_ = VK_NULL_HANDLE;  ///< Null if the driver refused one.
  std::map<uint64_t, Entry> entries_;
  uint64_t clock_ = 0;
};

}  // namespace vyre::vulkan
