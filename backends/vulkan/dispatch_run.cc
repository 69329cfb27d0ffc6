// Upload, dispatch and readback of one run.
#include "backends/vulkan/dispatch_run.h"

#include <cstring>
#include <mutex>
#include <vector>

#include "backends/elapsed_ms.h"
#include "backends/vulkan/dispatch_checks.h"
#include "backends/vulkan/host_mutants.h"
#include "backends/vulkan/memory_barrier.h"

namespace vyre::vulkan {
namespace {

using Clock = std::chrono::steady_clock;

/// One bound buffer of the run: its host bytes, the bytes it takes on the
/// device, where the shader reads it and, when staged, its staging region.
struct Binding {
  const ByteBuffer* bytes = nullptr;
  BufferAccess access = BufferAccess::ReadOnly;
  VkDeviceSize size = 0;
  DeviceBuffer* device = nullptr;
  VkDeviceSize staging_offset = 0;
};

class Run {
 public:
  Run(VulkanDevice& device, BufferPool& pool, const DispatchRequest& request)
      : device_(device),
        vk_(device.api()),
        request_(request),
        buffers_(pool),
        descriptor_set_(device, request.pipeline) {}

  // One submission: the staged path records its upload copies, the dispatch
  // and its readback copies in one command buffer (with barriers between),
  // so a dispatch waits on the device once, not three times. So upload_ms
  // and readback_ms time the host's side (buffers, staging writes and
  // reads), and execute_ms the whole submission, device copies included.
  DispatchOutcome run() {
    auto start = Clock::now();
    if (!upload()) return finish();
    outcome_.timing.upload_ms = ms_since(start);
    start = Clock::now();
    if (!execute()) return finish();
    outcome_.timing.execute_ms = ms_since(start);
    start = Clock::now();
    read_back();
    outcome_.timing.readback_ms = ms_since(start);
    outcome_.status = Status::Ok;
    outcome_.outputs = returned_outputs(std::move(outcome_.outputs));
    if (mutant_active(Mutant::FlakyStaleOutputs)) return_stale_outputs();
    return finish();
  }

 private:
  bool fail(Status status, std::string message) {
    outcome_.status = status;
    outcome_.message = std::move(message);
    return false;
  }

  bool fail(const Error& error) {
    return fail(buffers_.out_of_memory() ? Status::NotSupported : Status::Error,
                buffers_.out_of_memory() ? "the device ran out of memory: " + error.message
                                         : error.message);
  }

  DispatchOutcome finish() {
    if (outcome_.status != Status::Ok) outcome_.outputs.clear();
    return std::move(outcome_);
  }

  bool submit() {
    SubmitOutcome submitted = device_.submit_and_wait(request_.fence_timeout);
    if (submitted.status == Status::Ok) {
      outcome_.timing.device_ms = submitted.device_ms;
      return true;
    }
    // The hung work may still use this run's buffers: abandon the device
    // before ~DispatchBuffers could free them.
    if (submitted.status == Status::Timeout) device_.abandon();
    return fail(submitted.status, submitted.message);
  }

  bool upload() {
    const ShaderInterface& iface = request_.iface;
    VkDeviceSize staging_bytes = 0;
    for (const BoundBuffer& b : iface.buffers) {
      Binding binding;
      binding.bytes = &request_.inputs.at(b.name);
      binding.access = b.access;
      binding.size = device_buffer_bytes(binding.bytes->size());
      Result<DeviceBuffer*> buffer = buffers_.create(
          binding.size, request_.staged ? MemoryPlace::DeviceLocal : request_.in_place);
      if (!buffer.ok()) return fail(buffer.error());
      binding.device = *buffer;
      binding.staging_offset = staging_bytes;
      staging_bytes += binding.size;
      bindings_.push_back(binding);
    }
    if (iface.has_control_buffer) {
      Result<DeviceBuffer*> control =
          buffers_.create(kControlBufferBytes, MemoryPlace::HostVisible);
      if (!control.ok()) return fail(control.error());
      control_ = *control;
      std::memset(control_->mapped, 0, kControlBufferBytes);
    }
    if (!request_.staged) {
      for (const Binding& b : bindings_) fill(b.device->mapped, b.size, *b.bytes, b.access);
      return true;
    }
    if (bindings_.empty()) return true;
    Result<DeviceBuffer*> staging = buffers_.create(staging_bytes, MemoryPlace::Staging);
    if (!staging.ok()) return fail(staging.error());
    staging_ = *staging;
    for (const Binding& b : bindings_)
      fill(staging_->mapped + b.staging_offset, b.size, *b.bytes, b.access);
    return true;
  }

  /// Staged path: the staging buffer's bytes into every device buffer, made
  /// visible to the shader.
  void record_upload(VkCommandBuffer cmd) {
    for (const Binding& b : bindings_) {
      if (mutant_active(Mutant::StagingUploadSkipsUniform) && b.access == BufferAccess::Uniform)
        continue;
      const VkBufferCopy region{b.staging_offset, 0, b.size};
      vk_.vkCmdCopyBuffer(cmd, staging_->buffer, b.device->buffer, 1, &region);
    }
    if (!mutant_active(Mutant::StagingUploadBarrierDropped)) {
      memory_barrier(
          vk_, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_UNIFORM_READ_BIT);
    }
  }

  /// Staged path: every read_write buffer back into its staging region,
  /// made visible to the host.
  void record_readback(VkCommandBuffer cmd) {
    const ShaderInterface& iface = request_.iface;
    for (size_t i = 0; i < bindings_.size(); ++i) {
      if (iface.buffers[i].access != BufferAccess::ReadWrite) continue;
      const VkDeviceSize to = mutant_active(Mutant::StagingReadbackFirstRegion)
                                  ? bindings_[0].staging_offset
                                  : bindings_[i].staging_offset;
      const VkBufferCopy region{0, to, bindings_[i].size};
      vk_.vkCmdCopyBuffer(cmd, bindings_[i].device->buffer, staging_->buffer, 1, &region);
    }
    memory_barrier(vk_, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  }

  /// The host bytes, then zeros up to `size`.
  static void fill(uint8_t* dst, VkDeviceSize size, const ByteBuffer& bytes, BufferAccess access) {
    const uint64_t n = uploaded_bytes(bytes.size(), access);
    if (n != 0) std::memcpy(dst, bytes.data(), n);
    std::memset(dst + n, 0, size - n);
  }

  /// FlakyStaleOutputs: once in a while, the previous dispatch's outputs of
  /// the same names and sizes come back instead of this one's.
  void return_stale_outputs() {
    static std::mutex mutex;  // Runs of a host-driven case dispatch on several threads.
    static BufferSet previous;
    std::lock_guard lock(mutex);
    const bool stale = mutant_fires(Mutant::FlakyStaleOutputs);
    for (auto& [name, bytes] : outcome_.outputs) {
      auto it = previous.find(name);
      const bool reuse = stale && it != previous.end() && it->second.size() == bytes.size();
      if (reuse) bytes = it->second;
      previous[name] = bytes;
    }
  }

  bool execute() {
    const ShaderInterface& iface = request_.iface;
    const Pipeline& pipeline = request_.pipeline;
    const DeviceLimits& limits = device_.instance().limits();
    std::vector<VkDescriptorBufferInfo> infos;
    // Ranges are what the dispatch needs (pooled buffers may be larger), and
    // never past the device's range: rounding up to whole words could be.
    for (size_t i = 0; i < bindings_.size(); ++i) {
      const bool uniform = iface.buffers[i].access == BufferAccess::Uniform;
      const VkDeviceSize range =
          descriptor_range(bindings_[i].bytes->size(), uniform ? limits.max_uniform_buffer_range
                                                               : limits.max_storage_buffer_range);
      infos.push_back({bindings_[i].device->buffer, 0, uniform ? uniform_range(range) : range});
    }
    if (control_ != nullptr) infos.push_back({control_->buffer, 0, kControlBufferBytes});
    Result<VkDescriptorSet> set = descriptor_set_.acquire();
    if (!set.ok()) return fail(set.error());
    std::vector<VkWriteDescriptorSet> writes;
    for (uint32_t i = 0; i < infos.size(); ++i) {
      VkWriteDescriptorSet w{};
      w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      w.dstSet = *set;
      w.dstBinding = i;
      w.descriptorCount = 1;
      const bool uniform =
          i < iface.buffers.size() && iface.buffers[i].access == BufferAccess::Uniform;
      w.descriptorType =
          uniform ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      w.pBufferInfo = &infos[i];
      writes.push_back(w);
    }
    if (!writes.empty()) {
      vk_.vkUpdateDescriptorSets(device_.device(), static_cast<uint32_t>(writes.size()),
                                 writes.data(), 0, nullptr);
    }
    std::vector<uint32_t> counts;
    for (size_t i = 0; i < iface.buffers.size(); ++i) {
      // Fits a u32: exceeded_limit caps host bytes at the device's range, a u32.
      counts.push_back(static_cast<uint32_t>(host_element_count(
          iface.buffers[i].element, counted_bytes(bindings_[i].bytes->size(), bindings_[i].size))));
    }

    Result<VkCommandBuffer> begun = device_.begin(request_.timed);
    if (!begun.ok()) return fail(begun.error());
    const VkCommandBuffer cmd = *begun;
    const bool staged = staging_ != nullptr;
    if (staged) record_upload(cmd);
    vk_.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
    if (*set != VK_NULL_HANDLE) {
      vk_.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &*set,
                                  0, nullptr);
    }
    if (!counts.empty()) {
      vk_.vkCmdPushConstants(cmd, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                             iface.push_constant_bytes(), counts.data());
    }
    const auto g = dispatched_grid(request_.grid.workgroups);
    vk_.vkCmdDispatch(cmd, g[0], g[1], g[2]);
    memory_barrier(vk_, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT);
    if (staged) record_readback(cmd);
    if (!submit()) return false;
    uint32_t control[2] = {0, 0};
    if (control_ != nullptr) std::memcpy(control, control_->mapped, sizeof control);
    // A loop the device ended early is a limit of the device (NotSupported),
    // whatever its cause: the program is valid and the backend withholds the
    // bytes it cannot vouch for.
    if (control[1] != 0) {
      return fail(Status::NotSupported, loop_ended_early_message(limits.device_name));
    }
    if (control[0] != 0) {
      return fail(Status::Timeout, loop_budget_message(iface.loop_iteration_budget));
    }
    return true;
  }

  /// The read_write buffers' bytes, from the staging buffer (staged) or the
  /// mapped device buffers.
  void read_back() {
    const ShaderInterface& iface = request_.iface;
    for (size_t i = 0; i < bindings_.size(); ++i) {
      if (iface.buffers[i].access != BufferAccess::ReadWrite) continue;
      const Binding& b = bindings_[i];
      const uint8_t* src =
          staging_ != nullptr ? staging_->mapped + b.staging_offset : b.device->mapped;
      outcome_.outputs[iface.buffers[i].name] =
          ByteBuffer(src, src + read_back_bytes(b.bytes->size(), b.size));
    }
  }

  VulkanDevice& device_;
  const VulkanApi& vk_;
  const DispatchRequest& request_;
  DispatchBuffers buffers_;
  DescriptorSetLease descriptor_set_;
  std::vector<Binding> bindings_;
  DeviceBuffer* control_ = nullptr;
  DeviceBuffer* staging_ = nullptr;
  DispatchOutcome outcome_;
};

}  // namespace

DispatchOutcome run_dispatch(VulkanDevice& device, BufferPool& pool,
                             const DispatchRequest& request) {
  return Run(device, pool, request).run();
}

}  // namespace vyre::vulkan
