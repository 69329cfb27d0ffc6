// Building, caching and evicting compute pipelines.
#include "backends/vulkan/pipeline_cache.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "backends/mutants/mutant.h"
#include "backends/vulkan/pipeline_cache_file.h"

namespace vyre::vulkan {

namespace {

/// A descriptor pool of `sizes` with one set of `layout` allocated from it;
/// `pool` is set as soon as it exists, so that the caller frees it either way.
Result<VkDescriptorSet> make_descriptor_set(const VulkanDevice& device,
                                            const std::vector<VkDescriptorPoolSize>& sizes,
                                            VkDescriptorSetLayout layout, VkDescriptorPool& pool) {
  const VulkanApi& vk = device.api();
  VkDescriptorPoolCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  info.maxSets = 1;
  info.poolSizeCount = static_cast<uint32_t>(sizes.size());
  info.pPoolSizes = sizes.data();
  if (VkResult r = vk.vkCreateDescriptorPool(device.device(), &info, nullptr, &pool);
      r != VK_SUCCESS) {
    pool = VK_NULL_HANDLE;
    return vk_error("vkCreateDescriptorPool", r);
  }
  VkDescriptorSetAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  alloc.descriptorPool = pool;
  alloc.descriptorSetCount = 1;
  alloc.pSetLayouts = &layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  if (VkResult r = vk.vkAllocateDescriptorSets(device.device(), &alloc, &set); r != VK_SUCCESS) {
    return vk_error("vkAllocateDescriptorSets", r);
  }
  return set;
}

/// Destroys what `p` holds on `device` (null handles are skipped), unless
/// the device was abandoned with work in flight.
void destroy_pipeline(const VulkanDevice& device, const Pipeline& p) {
  if (device.abandoned()) return;
  const VulkanApi& vk = device.api();
  const VkDevice dev = device.device();
  for (VkDescriptorPool pool : p.sets->pools) vk.vkDestroyDescriptorPool(dev, pool, nullptr);
  if (p.pipeline != VK_NULL_HANDLE) vk.vkDestroyPipeline(dev, p.pipeline, nullptr);
  if (p.layout != VK_NULL_HANDLE) vk.vkDestroyPipelineLayout(dev, p.layout, nullptr);
  if (p.set_layout != VK_NULL_HANDLE) vk.vkDestroyDescriptorSetLayout(dev, p.set_layout, nullptr);
  if (p.module != VK_NULL_HANDLE) vk.vkDestroyShaderModule(dev, p.module, nullptr);
}

}  // namespace

PipelineCache::PipelineCache(std::shared_ptr<const VulkanDevice> device, size_t capacity,
                             std::shared_ptr<DiskCache> disk,
                             std::shared_ptr<std::atomic<uint64_t>> refused)
    : device_(std::move(device)), capacity_(capacity), disk_(std::move(disk)) {
  const VulkanApi& vk = device_->api();
  VkPipelineCacheCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
  std::optional<std::vector<uint8_t>> data;
  if (disk_) {
    VkPhysicalDeviceProperties props{};
    vk.vkGetPhysicalDeviceProperties(device_->instance().physical_device(), &props);
    const PipelineCacheOwner owner = pipeline_cache_owner(props);
    disk_key_ = pipeline_cache_key(owner);
    data = disk_->load(disk_key_);
    if (data && !pipeline_cache_data_fits(*data, owner)) {
      data.reset();  // Intact, but not this device's: never handed to the driver.
      if (refused) ++*refused;
    }
    if (data) {
      info.initialDataSize = data->size();
      info.pInitialData = data->data();
    }
  }
  // Optional: without a cache every build compiles from scratch, as before.
  if (vk.vkCreatePipelineCache(device_->device(), &info, nullptr, &driver_cache_) == VK_SUCCESS) {
    loaded_bytes_ = info.initialDataSize;
    return;
  }
  driver_cache_ = VK_NULL_HANDLE;
  if (!data) return;
  if (refused) ++*refused;  // The driver refused the data: start empty.
  info.initialDataSize = 0;
  info.pInitialData = nullptr;
  if (vk.vkCreatePipelineCache(device_->device(), &info, nullptr, &driver_cache_) != VK_SUCCESS) {
    driver_cache_ = VK_NULL_HANDLE;
  }
}

PipelineCache::~PipelineCache() {
  if (device_->abandoned() || driver_cache_ == VK_NULL_HANDLE) return;
  save();
  device_->api().vkDestroyPipelineCache(device_->device(), driver_cache_, nullptr);
}

void PipelineCache::save() {
  if (device_->abandoned() || driver_cache_ == VK_NULL_HANDLE) return;
  std::lock_guard lock(save_mutex_);
  const VulkanApi& vk = device_->api();
  if (!disk_ || !built_any_.exchange(false)) return;
  // Data of the size loaded holds nothing new (a warm run's pipelines all
  // came from it), and fetching and storing it again copies every
  // pipeline's binary at each close on NVIDIA, whose data holds them all.
  // A driver that rewrote its data at the same size only misses the
  // rewrite; the entry loaded stays as it was.
  // A periodic save runs while other threads build into the same cache, so
  // the data may grow between the size query and the copy (VK_INCOMPLETE):
  // it is fetched into room to spare, and again if it outgrew that. A
  // driver that does not say how much it wrote (lavapipe leaves the size as
  // given) is asked again at exactly the size it reports. Copied at exactly
  // the queried size, the periodic saves of a busy H200 run kept little (a
  // 12.0 MB entry after a cold run that crashed, against 28.2 MB).
  size_t room = 65536;
  for (int attempt = 0; attempt < 8; ++attempt) {
    size_t size = 0;
    if (vk.vkGetPipelineCacheData(device_->device(), driver_cache_, &size, nullptr) != VK_SUCCESS ||
        size == 0 || size == loaded_bytes_) {
      return;
    }
    std::vector<uint8_t> data(size + (room == 0 ? 0 : size / 8 + room));
    size_t written = data.size();
    const VkResult r =
        vk.vkGetPipelineCacheData(device_->device(), driver_cache_, &written, data.data());
    if (r == VK_INCOMPLETE) continue;
    if (r != VK_SUCCESS) break;
    if (room != 0 && written == data.size()) {
      room = 0;  // Not told how much: fetch exactly the size it reports.
      continue;
    }
    data.resize(std::min(written, data.size()));
    disk_->store(disk_key_, data);
    loaded_bytes_ = data.size();
    return;
  }
  built_any_ = true;  // Not saved: the next save or the close tries again.
}

Result<std::shared_ptr<const Pipeline>> PipelineCache::get(uint64_t id, const SpirvWords& spirv,
                                                           const ShaderInterface& iface,
                                                           bool& built) {
  built = false;
  // PipelineKeyCollides: a key of too few bits, as a truncated hash would be.
  if (mutant_active(Mutant::PipelineKeyCollides)) id %= 4;
  {
    std::lock_guard lock(mutex_);
    if (auto it = entries_.find(id); it != entries_.end()) {
      it->second.last_use = ++clock_;
      return it->second.pipeline;
    }
  }
  // The driver's compiler runs outside the lock: other threads' builds and
  // the run's lookups go on meanwhile.
  Result<std::shared_ptr<const Pipeline>> pipeline = build(spirv, iface);
  if (!pipeline.ok()) return pipeline.error();
  bool save_due = false;
  {
    std::lock_guard lock(mutex_);
    if (auto it = entries_.find(id); it != entries_.end()) {
      it->second.last_use = ++clock_;
      return it->second.pipeline;  // Another thread's build won; ours is dropped.
    }
    built = true;
    built_any_ = true;
    if (entries_.size() >= capacity_) {
      auto oldest = entries_.begin();
      for (auto it = entries_.begin(); it != entries_.end(); ++it) {
        if (it->second.last_use < oldest->second.last_use) oldest = it;
      }
      entries_.erase(oldest);
    }
    entries_[id] = Entry{*pipeline, ++clock_};
    const auto now = std::chrono::steady_clock::now();
    save_due = disk_ != nullptr && now - last_save_ >= kSaveEvery;
    if (save_due) last_save_ = now;
  }
  if (save_due) save();
  return *pipeline;
}

Result<std::shared_ptr<const Pipeline>> PipelineCache::build(const SpirvWords& spirv,
                                                             const ShaderInterface& iface) const {
  const VulkanApi& vk = device_->api();
  const VkDevice dev = device_->device();
  Pipeline p;
  // Destroys whatever was created when a later step fails.
  struct Cleanup {
    const VulkanDevice& device;
    Pipeline* pipeline;
    bool armed = true;
    ~Cleanup() {
      if (armed) destroy_pipeline(device, *pipeline);
    }
  } cleanup{*device_, &p};

  VkShaderModuleCreateInfo module{};
  module.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  module.codeSize = spirv.size() * sizeof(uint32_t);
  module.pCode = spirv.data();
  if (VkResult r = vk.vkCreateShaderModule(dev, &module, nullptr, &p.module); r != VK_SUCCESS) {
    return vk_error("the driver rejected the SPIR-V module: vkCreateShaderModule", r);
  }

  std::vector<VkDescriptorSetLayoutBinding> bindings;
  uint32_t storage = 0;
  uint32_t uniform = 0;
  const auto add_binding = [&](VkDescriptorType type) {
    VkDescriptorSetLayoutBinding b{};
    b.binding = static_cast<uint32_t>(bindings.size());
    b.descriptorType = type;
    b.descriptorCount = 1;
    b.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    bindings.push_back(b);
    ++(type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ? uniform : storage);
  };
  for (const BoundBuffer& b : iface.buffers) {
    add_binding(b.access == BufferAccess::Uniform ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                                  : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
  }
  if (iface.has_control_buffer) add_binding(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);

  if (!bindings.empty()) {
    VkDescriptorSetLayoutCreateInfo set{};
    set.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    set.bindingCount = static_cast<uint32_t>(bindings.size());
    set.pBindings = bindings.data();
    if (VkResult r = vk.vkCreateDescriptorSetLayout(dev, &set, nullptr, &p.set_layout);
        r != VK_SUCCESS) {
      return vk_error("vkCreateDescriptorSetLayout", r);
    }
  }
  VkPushConstantRange push{};
  push.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  push.size = iface.push_constant_bytes();
  VkPipelineLayoutCreateInfo layout{};
  layout.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layout.setLayoutCount = p.set_layout != VK_NULL_HANDLE ? 1 : 0;
  layout.pSetLayouts = &p.set_layout;
  layout.pushConstantRangeCount = push.size != 0 ? 1 : 0;
  layout.pPushConstantRanges = &push;
  if (VkResult r = vk.vkCreatePipelineLayout(dev, &layout, nullptr, &p.layout); r != VK_SUCCESS) {
    return vk_error("vkCreatePipelineLayout", r);
  }

  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = p.module;
  info.stage.pName = "main";
  info.layout = p.layout;
  if (VkResult r = vk.vkCreateComputePipelines(dev, driver_cache_, 1, &info, nullptr, &p.pipeline);
      r != VK_SUCCESS) {
    return vk_error("the driver rejected the pipeline: vkCreateComputePipelines", r);
  }

  if (storage != 0) p.pool_sizes.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, storage});
  if (uniform != 0) p.pool_sizes.push_back({VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, uniform});
  if (!p.pool_sizes.empty()) {
    // The first set is made here, so that a device that cannot give one
    // fails the build rather than a dispatch.
    VkDescriptorPool pool = VK_NULL_HANDLE;
    Result<VkDescriptorSet> set = make_descriptor_set(*device_, p.pool_sizes, p.set_layout, pool);
    if (pool != VK_NULL_HANDLE) p.sets->pools.push_back(pool);
    if (!set.ok()) return set.error();
    p.sets->free.push_back(*set);
  }
  cleanup.armed = false;
  // The deleter holds the device: a pipeline outliving the cache (a batch
  // still using it) is destroyed on a device that still exists.
  std::shared_ptr<const VulkanDevice> device = device_;
  return std::shared_ptr<const Pipeline>(new Pipeline(p), [device](const Pipeline* held) {
    destroy_pipeline(*device, *held);
    delete held;
  });
}

Result<VkDescriptorSet> DescriptorSetLease::acquire() {
  if (pipeline_.pool_sizes.empty()) return VkDescriptorSet{VK_NULL_HANDLE};
  DescriptorSets& sets = *pipeline_.sets;
  {
    std::lock_guard lock(sets.mutex);
    if (!sets.free.empty()) {
      set_ = sets.free.back();
      sets.free.pop_back();
      return set_;
    }
  }
  VkDescriptorPool pool = VK_NULL_HANDLE;
  Result<VkDescriptorSet> made =
      make_descriptor_set(device_, pipeline_.pool_sizes, pipeline_.set_layout, pool);
  std::lock_guard lock(sets.mutex);
  if (pool != VK_NULL_HANDLE) sets.pools.push_back(pool);  // Freed with the pipeline.
  if (!made.ok()) return made.error();
  return set_ = *made;
}

DescriptorSetLease::~DescriptorSetLease() {
  if (set_ == VK_NULL_HANDLE) return;
  DescriptorSets& sets = *pipeline_.sets;
  std::lock_guard lock(sets.mutex);
  sets.free.push_back(set_);
}

}  // namespace vyre::vulkan
