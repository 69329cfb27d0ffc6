// Upload, dispatch and readback of one run; and a level loop, its levels
// recorded between one upload and one readback (DESIGN.md "Level loops").
#include "backends/vulkan/dispatch_run.h"

#include <algorithm>
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

/// Where a level loop's buffers are among a run's bindings.
struct LevelBindings {
  size_t changed = 0;
  size_t level = 0;
  size_t current = 0;
  size_t next = 0;
};

/// Every stage a level loop's commands use, for barriers between them.
constexpr VkPipelineStageFlags kLevelStages =
    VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
constexpr VkAccessFlags kLevelReads =
    VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_UNIFORM_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT;
constexpr VkAccessFlags kLevelWrites = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;

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

  /// The loop's levels with the state kept on the device: nullopt when its
  /// buffers do not have the shape the device loop needs (level_bindings),
  /// and the caller runs the default, a dispatch a level.
  std::optional<LevelLoopOutcome> run_levels(const LevelLoop& loop) {
    const std::optional<LevelBindings> at = level_bindings(loop);
    if (!at) return std::nullopt;
    LevelLoopOutcome out;
    if (!run_level_groups(loop, *at, out)) {
      out.status = outcome_.status;
      out.message = std::move(outcome_.message);
      return out;
    }
    read_back();
    for (const std::string& name : loop.outputs) out.state[name] = outcome_.outputs.at(name);
    out.state[loop.current] = bytes_of(bindings_[at->current]);
    out.status = Status::Ok;
    return out;
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

  bool submit(std::chrono::milliseconds timeout) {
    SubmitOutcome submitted = device_.submit_and_wait(timeout);
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

  /// The descriptor set written for every binding (and the control buffer),
  /// and each buffer's element count for the push constants.
  bool describe() {
    const ShaderInterface& iface = request_.iface;
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
    set_ = *set;
    std::vector<VkWriteDescriptorSet> writes;
    for (uint32_t i = 0; i < infos.size(); ++i) {
      VkWriteDescriptorSet w{};
      w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      w.dstSet = set_;
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
    for (size_t i = 0; i < iface.buffers.size(); ++i) {
      // Fits a u32: exceeded_limit caps host bytes at the device's range, a u32.
      counts_.push_back(static_cast<uint32_t>(host_element_count(
          iface.buffers[i].element, counted_bytes(bindings_[i].bytes->size(), bindings_[i].size))));
    }
    return true;
  }

  /// The pipeline, its descriptor set and the element counts, bound in `cmd`.
  void record_bind(VkCommandBuffer cmd) {
    const Pipeline& pipeline = request_.pipeline;
    vk_.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
    if (set_ != VK_NULL_HANDLE) {
      vk_.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &set_,
                                  0, nullptr);
    }
    if (!counts_.empty()) {
      vk_.vkCmdPushConstants(cmd, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                             request_.iface.push_constant_bytes(), counts_.data());
    }
  }

  void record_dispatch(VkCommandBuffer cmd) {
    const auto g = dispatched_grid(request_.grid.workgroups);
    vk_.vkCmdDispatch(cmd, g[0], g[1], g[2]);
  }

  bool execute() {
    if (!describe()) return false;
    Result<VkCommandBuffer> begun = device_.begin(request_.timed);
    if (!begun.ok()) return fail(begun.error());
    const VkCommandBuffer cmd = *begun;
    const bool staged = staging_ != nullptr;
    if (staged) record_upload(cmd);
    record_bind(cmd);
    record_dispatch(cmd);
    memory_barrier(vk_, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT);
    if (staged) record_readback(cmd);
    return submit(request_.fence_timeout) && control_words_clear();
  }

  /// After a submission: the control buffer's words say whether a loop ran
  /// past its budget or the device ended one early.
  bool control_words_clear() {
    uint32_t control[2] = {0, 0};
    if (control_ != nullptr) std::memcpy(control, control_->mapped, sizeof control);
    // A loop the device ended early is a limit of the device (NotSupported),
    // whatever its cause: the program is valid and the backend withholds the
    // bytes it cannot vouch for.
    if (control[1] != 0) {
      return fail(Status::NotSupported,
                  loop_ended_early_message(device_.instance().limits().device_name));
    }
    if (control[0] != 0) {
      return fail(Status::Timeout, loop_budget_message(request_.iface.loop_iteration_budget));
    }
    return true;
  }

  /// The loop's buffers among the bindings, when the device loop can carry
  /// the state from level to level as the default does on the host: every
  /// buffer a level writes is one the default carries (an output, or
  /// `current`, which each level replaces by `next`).
  std::optional<LevelBindings> level_bindings(const LevelLoop& loop) const {
    const std::vector<BoundBuffer>& buffers = request_.iface.buffers;
    const auto index = [&](const std::string& name) -> std::optional<size_t> {
      for (size_t i = 0; i < buffers.size(); ++i)
        if (buffers[i].name == name) return i;
      return std::nullopt;
    };
    const auto writable = [&](size_t i) { return buffers[i].access == BufferAccess::ReadWrite; };
    const auto host_bytes = [&](size_t i) { return request_.inputs.at(buffers[i].name).size(); };
    const std::optional<size_t> changed = index(loop.changed), level = index(loop.level_buffer),
                                current = index(loop.current), next = index(loop.next);
    if (!changed || !level || !current || !next) return std::nullopt;
    // Three buffers the loop copies between: one buffer in two roles would
    // make a copy's source and destination overlap, which Vulkan forbids.
    if (*changed == *current || *changed == *next || *current == *next) return std::nullopt;
    if (!writable(*changed) || !writable(*next) || host_bytes(*changed) < 4 ||
        host_bytes(*current) != host_bytes(*next) ||
        (uint64_t{loop.level_word} + 1) * 4 > host_bytes(*level)) {
      return std::nullopt;
    }
    for (const std::string& name : loop.outputs) {
      const std::optional<size_t> i = index(name);
      if (!i || !writable(*i)) return std::nullopt;
    }
    for (size_t i = 0; i < buffers.size(); ++i) {
      const bool carried = i == *current || std::find(loop.outputs.begin(), loop.outputs.end(),
                                                      buffers[i].name) != loop.outputs.end();
      if (writable(i) && !carried) return std::nullopt;
    }
    return LevelBindings{*changed, *level, *current, *next};
  }

  /// Groups of levels (2, then as next_level_group says: doubling up to
  /// kMaxLevelsPerWait while a group takes under a quarter of the fence
  /// timeout), one submission and one wait each, until a level left
  /// `changed` at 0 or the levels ran out. Levels after an unchanged one in
  /// its group run too and change nothing (level_loop.h); their words are
  /// reported.
  bool run_level_groups(const LevelLoop& loop, const LevelBindings& at, LevelLoopOutcome& out) {
    if (!upload() || !describe()) return false;
    Result<DeviceBuffer*> table =
        buffers_.create(VkDeviceSize{kMaxLevelsPerWait} * 4, MemoryPlace::HostVisible);
    if (!table.ok()) return fail(table.error());
    uint32_t group = 2;
    for (uint32_t level = 0; level < loop.max_levels;) {
      const uint32_t levels = std::min(group, loop.max_levels - level);
      const Clock::time_point start = Clock::now();
      Result<VkCommandBuffer> begun = device_.begin(request_.timed);
      if (!begun.ok()) return fail(begun.error());
      const VkCommandBuffer cmd = *begun;
      if (level == 0 && staging_ != nullptr) record_upload(cmd);
      // Orders this group after everything earlier on the queue: the upload,
      // and the last group's copies and fills.
      memory_barrier(vk_, cmd, kLevelStages, kLevelWrites, kLevelStages,
                     kLevelReads | kLevelWrites);
      record_bind(cmd);
      for (uint32_t i = 0; i < levels; ++i) {
        record_level(cmd, loop, at, level + i, (*table)->buffer, i);
      }
      memory_barrier(vk_, cmd, kLevelStages, kLevelWrites,
                     VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                     VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT);
      if (staging_ != nullptr) record_state_readback(cmd, at);
      if (loop.on_submission) loop.on_submission();
      if (!submit(request_.fence_timeout * levels)) return false;
      out.device_ms = add_device_ms(out.device_ms, outcome_.timing.device_ms, level == 0);
      if (!control_words_clear()) return false;
      bool unchanged = false;
      for (uint32_t i = 0; i < levels; ++i) {
        uint32_t word = 0;
        std::memcpy(&word, (*table)->mapped + uint64_t{i} * 4, 4);
        out.changed_words.push_back(word);
        unchanged = unchanged || word == 0;
      }
      level += levels;
      if (unchanged) break;
      group = next_level_group(levels, Clock::now() - start, request_.fence_timeout);
    }
    return true;
  }

  /// One level: its index into the level word, the dispatch, `changed` into
  /// the table's slot, `next` into `current`, then `next` and `changed` zeros,
  /// as the default does on the host between levels.
  void record_level(VkCommandBuffer cmd, const LevelLoop& loop, const LevelBindings& at,
                    uint32_t level, VkBuffer table, uint32_t slot) {
    const Binding& changed = bindings_[at.changed];
    const Binding& next = bindings_[at.next];
    vk_.vkCmdUpdateBuffer(cmd, bindings_[at.level].device->buffer,
                          VkDeviceSize{loop.level_word} * 4, 4, &level);
    memory_barrier(
        vk_, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_UNIFORM_READ_BIT);
    record_dispatch(cmd);
    memory_barrier(vk_, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
    const VkBufferCopy word{0, VkDeviceSize{slot} * 4, 4};
    vk_.vkCmdCopyBuffer(cmd, changed.device->buffer, table, 1, &word);
    const VkBufferCopy state{0, 0, next.size};
    vk_.vkCmdCopyBuffer(cmd, next.device->buffer, bindings_[at.current].device->buffer, 1, &state);
    // The fills overwrite what the copies read.
    memory_barrier(vk_, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT, 0);
    vk_.vkCmdFillBuffer(cmd, next.device->buffer, 0, next.size, 0);
    vk_.vkCmdFillBuffer(cmd, changed.device->buffer, 0, changed.size, 0);
    memory_barrier(vk_, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   kLevelStages, kLevelReads | kLevelWrites);
  }

  /// Staged path: the state into its staging regions after a group, `current`
  /// included when the shader only reads it. Every group records it: which
  /// group is the last is known only after its wait, and a copy in each
  /// costs less than one more submission and wait at the end.
  void record_state_readback(VkCommandBuffer cmd, const LevelBindings& at) {
    const Binding& current = bindings_[at.current];
    if (current.access != BufferAccess::ReadWrite) {
      const VkBufferCopy region{0, current.staging_offset, current.size};
      vk_.vkCmdCopyBuffer(cmd, current.device->buffer, staging_->buffer, 1, &region);
    }
    record_readback(cmd);
  }

  /// A binding's host bytes as the device left them.
  ByteBuffer bytes_of(const Binding& b) const {
    const uint8_t* src =
        staging_ != nullptr ? staging_->mapped + b.staging_offset : b.device->mapped;
    return ByteBuffer(src, src + read_back_bytes(b.bytes->size(), b.size));
  }

  /// The read_write buffers' bytes, from the staging buffer (staged) or the
  /// mapped device buffers.
  void read_back() {
    const ShaderInterface& iface = request_.iface;
    for (size_t i = 0; i < bindings_.size(); ++i) {
      if (iface.buffers[i].access != BufferAccess::ReadWrite) continue;
      outcome_.outputs[iface.buffers[i].name] = bytes_of(bindings_[i]);
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
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  std::vector<uint32_t> counts_;
  DispatchOutcome outcome_;
};

}  // namespace

DispatchOutcome run_dispatch(VulkanDevice& device, BufferPool& pool,
                             const DispatchRequest& request) {
  return Run(device, pool, request).run();
}

std::optional<LevelLoopOutcome> run_level_loop(VulkanDevice& device, BufferPool& pool,
                                               const DispatchRequest& request,
                                               const LevelLoop& loop) {
  return Run(device, pool, request).run_levels(loop);
}

}  // namespace vyre::vulkan
