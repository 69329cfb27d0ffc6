// Recording, submitting and judging the runs of one batch.
#include "backends/vulkan/batch_run.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "backends/batch_failure.h"
#include "backends/clike/batch_buffer.h"
#include "backends/vulkan/batch_plan.h"
#include "backends/vulkan/compare_shader.h"
#include "backends/vulkan/dispatch_checks.h"
#include "backends/vulkan/host_mutants.h"
#include "backends/vulkan/memory_barrier.h"

namespace vyre::vulkan {
namespace {

/// Most workgroups of one comparison (any device takes 65535 on x).
constexpr uint32_t kMaxCompareWorkgroups = 65535;

VkDeviceSize align_up(VkDeviceSize value, VkDeviceSize alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

/// The host bytes, then zeros up to `size`.
void fill(uint8_t* dst, VkDeviceSize size, const ByteBuffer& bytes, BufferAccess access) {
  const uint64_t n = uploaded_bytes(bytes.size(), access);
  if (n != 0) std::memcpy(dst, bytes.data(), n);
  std::memset(dst + n, 0, size - n);
}

/// One bound buffer of the batch. A read-only or uniform buffer has one
/// resident copy all runs read; a read_write buffer has a pristine copy of
/// its initial bytes and one region per slot that a run writes.
struct BatchBinding : clike::BatchBuffer {
  DeviceBuffer* resident = nullptr;  ///< The shared copy, or the pristine one.
  DeviceBuffer* slots = nullptr;     ///< Outputs only: `stride` bytes per slot.
  VkDeviceSize stride = 0;
  VkDeviceSize upload_offset = 0;    ///< In the staging buffer.
  VkDeviceSize readback_offset = 0;  ///< In the staging buffer (outputs).
};

/// One batch on the device, laid out by plan_batch.
class Batch {
 public:
  Batch(VulkanDevice& device, BufferPool& pool, const BatchRequest& request)
      : device_(device), vk_(device.api()), request_(request), buffers_(pool) {}

  ~Batch() {
    if (descriptor_pool_ != VK_NULL_HANDLE && !device_.abandoned()) {
      vk_.vkDestroyDescriptorPool(device_.device(), descriptor_pool_, nullptr);
    }
  }
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;

  BatchOutcome run() {
    if (!plan() || !allocate() || !make_descriptor_sets()) return finish();
    for (uint32_t first = 0; first < plan_.runs; first += plan_.chunk) {
      if (!run_chunk(first, std::min(plan_.runs, first + plan_.chunk))) return finish();
    }
    outcome_.status = Status::Ok;
    return finish();
  }

 private:
  bool fail(Status status, std::string message, uint32_t run = 0) {
    return record_batch_failure(outcome_, status, std::move(message), run);
  }

  bool fail(const Error& error) {
    return fail(buffers_.out_of_memory() ? Status::NotSupported : Status::Error,
                buffers_.out_of_memory() ? "the device ran out of memory: " + error.message
                                         : error.message);
  }

  BatchOutcome finish() { return finished_batch(std::move(outcome_)); }

  uint32_t slot_of(uint32_t run) const { return plan_.slot_of(run); }
  uint32_t reported_differing() const { return request_.options.reported_differing; }
  const BatchOptions& options() const { return request_.options; }
  bool compares() const { return plan_.runs > 1 && outputs_ > 0; }
  /// Runs are compared by the compare shader where outputs sit in device
  /// memory; where the device uses host memory in place (a CPU device), the
  /// host compares them, which on such a device is the same memory and
  /// several times faster than a shader.
  bool compares_on_device() const { return compares() && request_.staged; }

  /// Bindings, slot sizes and how many runs go in one submission.
  bool plan() {
    const VkDeviceSize alignment =
        std::max<VkDeviceSize>(device_.instance().limits().min_storage_buffer_offset_alignment, 4);
    VkDeviceSize per_run = 0;
    for (const BoundBuffer& b : request_.iface.buffers) {
      BatchBinding binding{
          clike::batch_buffer(b, request_.inputs, is_scratch(request_.options, b.name))};
      binding.stride = align_up(binding.size, alignment);
      if (binding.output) {
        per_run += binding.stride;
        ++outputs_;
      }
      bindings_.push_back(binding);
    }
    control_stride_ = align_up(kControlBufferBytes, alignment);
    if (request_.iface.has_control_buffer) per_run += control_stride_;
    plan_ = plan_batch(request_.options, per_run, request_.slot_budget_bytes);
    return true;
  }

  bool allocate() {
    const MemoryPlace place = request_.staged ? MemoryPlace::DeviceLocal : MemoryPlace::HostVisible;
    VkDeviceSize staging_bytes = 0;
    for (BatchBinding& b : bindings_) {
      Result<DeviceBuffer*> resident = buffers_.create(b.size, place);
      if (!resident.ok()) return fail(resident.error());
      b.resident = *resident;
      b.upload_offset = staging_bytes;
      staging_bytes += b.size;
      if (!b.output) continue;
      Result<DeviceBuffer*> slots = buffers_.create(b.stride * plan_.slots, place);
      if (!slots.ok()) return fail(slots.error());
      b.slots = *slots;
    }
    for (BatchBinding& b : bindings_) {
      if (!b.output) continue;
      b.readback_offset = staging_bytes;
      staging_bytes += b.size;
    }
    if (request_.iface.has_control_buffer) {
      Result<DeviceBuffer*> control =
          buffers_.create(control_stride_ * plan_.slots, MemoryPlace::HostVisible);
      if (!control.ok()) return fail(control.error());
      control_ = *control;
    }
    if (compares_on_device()) {
      Result<DeviceBuffer*> flags = buffers_.create(
          std::max<VkDeviceSize>(16, VkDeviceSize{plan_.chunk} * 4), MemoryPlace::HostVisible);
      if (!flags.ok()) return fail(flags.error());
      flags_ = *flags;
    }
    if (!request_.staged) {
      for (const BatchBinding& b : bindings_)
        fill(b.resident->mapped, b.size, *b.bytes, b.decl->access);
      return true;
    }
    if (staging_bytes == 0) return true;
    Result<DeviceBuffer*> staging = buffers_.create(staging_bytes, MemoryPlace::Staging);
    if (!staging.ok()) return fail(staging.error());
    staging_ = *staging;
    for (const BatchBinding& b : bindings_)
      fill(staging_->mapped + b.upload_offset, b.size, *b.bytes, b.decl->access);
    return true;
  }

  VkDescriptorBufferInfo binding_info(const BatchBinding& b, uint32_t slot) const {
    const DeviceLimits& limits = device_.instance().limits();
    const bool uniform = b.decl->access == BufferAccess::Uniform;
    const VkDeviceSize range =
        descriptor_range(b.bytes->size(), uniform ? limits.max_uniform_buffer_range
                                                  : limits.max_storage_buffer_range);
    if (b.output) {
      const uint32_t used = mutant_active(Mutant::BatchSlotsAliased) ? 0 : slot;
      return {b.slots->buffer, b.stride * used, range};
    }
    return {b.resident->buffer, 0, uniform ? uniform_range(range) : range};
  }

  /// One program set per slot and, when runs are compared, one compare set
  /// per (slot other than 0, output); all written once for the whole batch.
  bool make_descriptor_sets() {
    const Pipeline& program = request_.pipeline;
    const Pipeline& compare = request_.compare;
    uint32_t storage = request_.iface.has_control_buffer ? 1 : 0;
    uint32_t uniform = 0;
    for (const BatchBinding& b : bindings_)
      ++(b.decl->access == BufferAccess::Uniform ? uniform : storage);
    const uint32_t program_sets = program.set_layout != VK_NULL_HANDLE ? plan_.slots : 0;
    const uint32_t compare_sets = compares_on_device() ? (plan_.slots - 1) * outputs_ : 0;
    if (program_sets + compare_sets == 0) return true;
    std::vector<VkDescriptorPoolSize> sizes;
    const uint32_t storage_total = program_sets * storage + compare_sets * 3;
    if (storage_total != 0) sizes.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, storage_total});
    if (program_sets * uniform != 0) {
      sizes.push_back({VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, program_sets * uniform});
    }
    VkDescriptorPoolCreateInfo pool{};
    pool.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    pool.maxSets = program_sets + compare_sets;
    pool.poolSizeCount = static_cast<uint32_t>(sizes.size());
    pool.pPoolSizes = sizes.data();
    if (VkResult r =
            vk_.vkCreateDescriptorPool(device_.device(), &pool, nullptr, &descriptor_pool_);
        r != VK_SUCCESS) {
      return fail(vk_error("vkCreateDescriptorPool for a batch", r));
    }
    std::vector<VkDescriptorSetLayout> layouts(program_sets, program.set_layout);
    layouts.insert(layouts.end(), compare_sets, compare.set_layout);
    std::vector<VkDescriptorSet> sets(layouts.size());
    VkDescriptorSetAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    alloc.descriptorPool = descriptor_pool_;
    alloc.descriptorSetCount = static_cast<uint32_t>(layouts.size());
    alloc.pSetLayouts = layouts.data();
    if (VkResult r = vk_.vkAllocateDescriptorSets(device_.device(), &alloc, sets.data());
        r != VK_SUCCESS) {
      return fail(vk_error("vkAllocateDescriptorSets for a batch", r));
    }
    program_sets_.assign(sets.begin(), sets.begin() + program_sets);
    compare_sets_.assign(sets.begin() + program_sets, sets.end());

    // Every info is stored before any write points at it (no reallocation).
    std::vector<VkDescriptorBufferInfo> infos;
    infos.reserve(size_t{program_sets} * (bindings_.size() + 1) + size_t{compare_sets} * 3);
    std::vector<VkWriteDescriptorSet> writes;
    const auto write = [&](VkDescriptorSet set, uint32_t binding, VkDescriptorType type,
                           VkDescriptorBufferInfo info) {
      infos.push_back(info);
      VkWriteDescriptorSet w{};
      w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      w.dstSet = set;
      w.dstBinding = binding;
      w.descriptorCount = 1;
      w.descriptorType = type;
      w.pBufferInfo = &infos.back();
      writes.push_back(w);
    };
    for (uint32_t slot = 0; slot < program_sets; ++slot) {
      for (uint32_t i = 0; i < bindings_.size(); ++i) {
        const bool is_uniform = bindings_[i].decl->access == BufferAccess::Uniform;
        write(program_sets_[slot], i,
              is_uniform ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
              binding_info(bindings_[i], slot));
      }
      if (control_ != nullptr) {
        write(program_sets_[slot], request_.iface.control_binding(),
              VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
              {control_->buffer, control_stride_ * slot, kControlBufferBytes});
      }
    }
    size_t next = 0;
    for (uint32_t slot = 1; compares_on_device() && slot < plan_.slots; ++slot) {
      for (const BatchBinding& b : bindings_) {
        if (!b.output) continue;
        const VkDescriptorSet set = compare_sets_[next++];
        const VkDeviceSize range =
            descriptor_range(b.bytes->size(), device_.instance().limits().max_storage_buffer_range);
        write(set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {b.slots->buffer, 0, range});
        write(set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {b.slots->buffer, b.stride * slot, range});
        write(set, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
              {flags_->buffer, 0, VkDeviceSize{plan_.chunk} * 4});
      }
    }
    vk_.vkUpdateDescriptorSets(device_.device(), static_cast<uint32_t>(writes.size()),
                               writes.data(), 0, nullptr);
    return true;
  }

  /// Records, submits and judges runs [first, end).
  bool run_chunk(uint32_t first, uint32_t end) {
    Result<VkCommandBuffer> begun = device_.begin();
    if (!begun.ok()) return fail(begun.error());
    const VkCommandBuffer cmd = *begun;
    if (first == 0 && staging_ != nullptr) {
      for (const BatchBinding& b : bindings_) {
        if (mutant_active(Mutant::StagingUploadSkipsUniform) &&
            b.decl->access == BufferAccess::Uniform)
          continue;
        const VkBufferCopy region{b.upload_offset, 0, b.size};
        vk_.vkCmdCopyBuffer(cmd, staging_->buffer, b.resident->buffer, 1, &region);
      }
      if (!mutant_active(Mutant::StagingUploadBarrierDropped)) {
        memory_barrier(
            vk_, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_UNIFORM_READ_BIT);
      }
    }
    record_fresh_outputs(cmd, first, end);
    record_runs(cmd, first, end);
    record_comparisons(cmd, first, end);
    if (first == 0 && staging_ != nullptr) record_readback(cmd, 0, /*judged_only=*/false);
    memory_barrier(vk_, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    if (!submit(end - first)) return false;
    ++outcome_.submissions;
    for (uint32_t run = first; run < end; ++run) {
      if (!check_control(run)) return false;
    }
    outcome_.dispatches += end - first;
    if (first == 0) {
      record_run_outputs(outcome_, 0, returned_outputs(outputs_in(0, /*judged_only=*/false)),
                         options());
    }
    for (uint32_t run = std::max<uint32_t>(first, 1); compares() && run < end; ++run) {
      // A run whose bytes equal run 0's is never read back; a seeded flaky
      // run is, so its flipped bit shows as the backend would return it.
      BufferSet outputs;
      if (mutant_active(Mutant::FlakyOutputByte)) {
        if (!read_back_slot(slot_of(run))) return false;
        outputs = returned_outputs(outputs_in(slot_of(run), /*judged_only=*/true));
        if (same_judged_outputs(outcome_.first_outputs, outputs, options())) continue;
      } else if (!differs_from_run_zero(run)) {
        continue;
      }
      if (outcome_.differing.size() >= reported_differing()) {
        ++outcome_.differing_runs;
        continue;
      }
      if (outputs.empty()) {
        if (!read_back_slot(slot_of(run))) return false;
        outputs = outputs_in(slot_of(run), /*judged_only=*/true);
      }
      record_run_outputs(outcome_, run, std::move(outputs), options());
    }
    return true;
  }

  /// The compare shader's flag, or the host's comparison of the mapped slots.
  bool differs_from_run_zero(uint32_t run) const {
    const uint32_t slot = slot_of(run);
    if (compares_on_device()) {
      uint32_t flag = 0;
      std::memcpy(&flag, flags_->mapped + 4 * (slot - 1), 4);
      return flag != 0;
    }
    for (const BatchBinding& b : bindings_) {
      if (!b.output || b.scratch || b.bytes->empty()) continue;
      if (std::memcmp(b.slots->mapped + b.stride * slot, b.slots->mapped, b.bytes->size()) != 0) {
        return true;
      }
    }
    return false;
  }

  /// Each run's outputs start from the pristine bytes, its control words from 0.
  void record_fresh_outputs(VkCommandBuffer cmd, uint32_t first, uint32_t end) {
    // One copy command per output, one region per run: on lavapipe each
    // command costs microseconds, as much as a small run.
    std::vector<VkBufferCopy> regions;
    for (const BatchBinding& b : bindings_) {
      if (!b.output) continue;
      regions.clear();
      for (uint32_t run = first; run < end; ++run) {
        if (run != 0 && mutant_active(Mutant::BatchFreshOutputsRunZeroOnly)) continue;
        regions.push_back({0, b.stride * slot_of(run), b.size});
      }
      if (regions.empty()) continue;
      vk_.vkCmdCopyBuffer(cmd, b.resident->buffer, b.slots->buffer,
                          static_cast<uint32_t>(regions.size()), regions.data());
    }
    // Every slot's control words, run 0's included: they were read already.
    if (control_ != nullptr) vk_.vkCmdFillBuffer(cmd, control_->buffer, 0, VK_WHOLE_SIZE, 0);
    if (compares_on_device()) {
      vk_.vkCmdFillBuffer(cmd, flags_->buffer, 0, VkDeviceSize{plan_.chunk} * 4, 0);
    }
    memory_barrier(vk_, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  }

  /// The runs themselves, with no barrier between them: they write disjoint
  /// slots and only read the resident inputs, so they may overlap.
  void record_runs(VkCommandBuffer cmd, uint32_t first, uint32_t end) {
    const Pipeline& pipeline = request_.pipeline;
    const ShaderInterface& iface = request_.iface;
    vk_.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
    std::vector<uint32_t> counts;
    for (const BatchBinding& b : bindings_) {
      // Fits a u32: exceeded_limit caps host bytes at the device's range, a u32.
      counts.push_back(static_cast<uint32_t>(
          host_element_count(b.decl->element, counted_bytes(b.bytes->size(), b.size))));
    }
    if (!counts.empty()) {
      vk_.vkCmdPushConstants(cmd, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                             iface.push_constant_bytes(), counts.data());
    }
    const auto g = dispatched_grid(request_.grid.workgroups);
    for (uint32_t run = first; run < end; ++run) {
      if (!program_sets_.empty()) {
        vk_.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1,
                                    &program_sets_[slot_of(run)], 0, nullptr);
      }
      vk_.vkCmdDispatch(cmd, g[0], g[1], g[2]);
    }
    if (request_.perturbed_run && *request_.perturbed_run >= first &&
        *request_.perturbed_run < end) {
      record_perturbation(cmd, slot_of(*request_.perturbed_run));
    }
    memory_barrier(
        vk_, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
        VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT |
            VK_PIPELINE_STAGE_HOST_BIT,
        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_HOST_READ_BIT);
  }

  /// Test only: flips word 0 of the first output of `slot` after its run.
  void record_perturbation(VkCommandBuffer cmd, uint32_t slot) {
    for (const BatchBinding& b : bindings_) {
      if (!b.output) continue;
      memory_barrier(vk_, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                     VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
      vk_.vkCmdFillBuffer(cmd, b.slots->buffer, b.stride * slot, 4, 0x5A5A5A5A);
      return;
    }
  }

  /// Every run but 0 against run 0, output by output, on the device.
  void record_comparisons(VkCommandBuffer cmd, uint32_t first, uint32_t end) {
    if (!compares_on_device() || end <= std::max<uint32_t>(first, 1)) return;
    const Pipeline& compare = request_.compare;
    vk_.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, compare.pipeline);
    for (uint32_t run = std::max<uint32_t>(first, 1); run < end; ++run) {
      const uint32_t slot = slot_of(run);
      uint32_t output = 0;
      for (const BatchBinding& b : bindings_) {
        if (!b.output) continue;
        const VkDescriptorSet set = compare_sets_[(slot - 1) * outputs_ + output++];
        const uint64_t host_bytes = b.bytes->size();
        if (host_bytes == 0 || b.scratch) continue;
        const uint32_t skipped = mutant_active(Mutant::CompareIgnoresLastWord) ? 1 : 0;
        const CompareParams params{static_cast<uint32_t>((host_bytes + 3) / 4) - skipped,
                                   last_word_mask(host_bytes), slot - 1};
        vk_.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, compare.layout, 0, 1, &set,
                                    0, nullptr);
        vk_.vkCmdPushConstants(cmd, compare.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof params,
                               &params);
        const uint32_t groups =
            std::min<uint32_t>((params.words + kCompareWorkgroupSize - 1) / kCompareWorkgroupSize,
                               kMaxCompareWorkgroups);
        vk_.vkCmdDispatch(cmd, groups, 1, 1);
      }
    }
  }

  /// Staged path: copies `slot`'s outputs (`judged_only`: but scratch) into
  /// the staging buffer.
  void record_readback(VkCommandBuffer cmd, uint32_t slot, bool judged_only) {
    for (const BatchBinding& b : bindings_) {
      if (!b.output || (judged_only && b.scratch)) continue;
      const VkDeviceSize to = mutant_active(Mutant::StagingReadbackFirstRegion)
                                  ? bindings_.front().readback_offset
                                  : b.readback_offset;
      const VkBufferCopy region{b.stride * slot, to, b.size};
      vk_.vkCmdCopyBuffer(cmd, b.slots->buffer, staging_->buffer, 1, &region);
    }
  }

  /// Staged path: a differing run's judged outputs into the staging buffer.
  bool read_back_slot(uint32_t slot) {
    if (staging_ == nullptr) return true;
    Result<VkCommandBuffer> cmd = device_.begin();
    if (!cmd.ok()) return fail(cmd.error());
    record_readback(*cmd, slot, /*judged_only=*/true);
    memory_barrier(vk_, *cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    return submit(1);
  }

  /// The read_write buffers of `slot` (`judged_only`: but scratch), from
  /// the staging buffer when staged (read_back_slot or the first submission
  /// put them there).
  BufferSet outputs_in(uint32_t slot, bool judged_only) const {
    BufferSet outputs;
    for (const BatchBinding& b : bindings_) {
      if (!b.output || (judged_only && b.scratch)) continue;
      const uint8_t* src = staging_ != nullptr ? staging_->mapped + b.readback_offset
                                               : b.slots->mapped + b.stride * slot;
      outputs[b.decl->name] = ByteBuffer(src, src + read_back_bytes(b.bytes->size(), b.size));
    }
    return outputs;
  }

  /// A run that ended a loop early or ran out of its loop budget fails the
  /// batch, as it would fail dispatch().
  bool check_control(uint32_t run) {
    if (control_ == nullptr) return true;
    uint32_t control[2] = {0, 0};
    std::memcpy(control, control_->mapped + control_stride_ * slot_of(run), sizeof control);
    if (control[1] != 0) {
      return fail(Status::NotSupported,
                  loop_ended_early_message(device_.instance().limits().device_name), run);
    }
    if (control[0] != 0) {
      return fail(Status::Timeout, loop_budget_message(request_.iface.loop_iteration_budget), run);
    }
    return true;
  }

  bool submit(uint32_t runs) {
    SubmitOutcome submitted = device_.submit_and_wait(request_.fence_timeout * runs);
    if (submitted.status == Status::Ok) {
      outcome_.timing.device_ms =
          add_device_ms(outcome_.timing.device_ms, submitted.device_ms, !submitted_once_);
      submitted_once_ = true;
      report_submission(options());
      return true;
    }
    // The hung work may still use the batch's buffers: abandon the device
    // before ~DispatchBuffers could free them.
    if (submitted.status == Status::Timeout) device_.abandon();
    return fail(submitted.status, submitted.message, outcome_.dispatches);
  }

  VulkanDevice& device_;
  const VulkanApi& vk_;
  const BatchRequest& request_;
  DispatchBuffers buffers_;
  BatchOutcome outcome_;
  bool submitted_once_ = false;  ///< Whether outcome_.timing.device_ms holds a submission's time.
  BatchPlan plan_;
  uint32_t outputs_ = 0;  ///< read_write bindings.
  std::vector<BatchBinding> bindings_;
  VkDeviceSize control_stride_ = 0;
  DeviceBuffer* control_ = nullptr;
  DeviceBuffer* flags_ = nullptr;
  DeviceBuffer* staging_ = nullptr;
  VkDescriptorPool descriptor_pool_ = VK_NULL_HANDLE;
  std::vector<VkDescriptorSet> program_sets_;
  std::vector<VkDescriptorSet> compare_sets_;
};

}  // namespace

BatchOutcome run_batch(VulkanDevice& device, BufferPool& pool, const BatchRequest& request) {
  return Batch(device, pool, request).run();
}

}  // namespace vyre::vulkan
