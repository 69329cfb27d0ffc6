// One global memory barrier in a command buffer: what the single-dispatch and
// the batched runs record between uploads, dispatches, copies and host reads.
#pragma once

#include "backends/vulkan/vulkan_api.h"

namespace vyre::vulkan {

/// Makes writes of `src` at `src_stage` visible to `dst` at `dst_stage`.
inline void memory_barrier(const VulkanApi& vk, VkCommandBuffer cmd, VkPipelineStageFlags src_stage,
                           VkAccessFlags src, VkPipelineStageFlags dst_stage, VkAccessFlags dst) {
  VkMemoryBarrier barrier{};
  barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  barrier.srcAccessMask = src;
  barrier.dstAccessMask = dst;
  vk.vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

}  // namespace vyre::vulkan
