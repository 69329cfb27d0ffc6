// Test helpers for the OpenCL backend.
#include "backends/opencl/opencl_test_support.h"

#include <gtest/gtest.h>

#include "spec/ir/builder.h"

namespace vyre::opencl::testing {

void ProgramOnQueue::open_queue() {
  open_device_queue(api_, device_, queue_);
}

void ProgramOnQueue::build(const Program& program, const std::vector<std::string>& extra) {
  pool_ = std::make_unique<BufferPool>(api_, *queue_, device_.limits.max_mem_alloc_size,
                                       uint64_t{64} << 20);
  Result<LoweredKernel> lowered = lower_program(program);
  ASSERT_TRUE(lowered.ok()) << lowered.error().message;
  lowered_ = *lowered;
  std::vector<std::string_view> sources{lowered_.source};
  sources.insert(sources.end(), extra.begin(), extra.end());
  ProgramBuilder builder(api_, queue_->shared_context(), nullptr, "test device",
                         device_.capabilities.device_name, std::make_shared<BuildCounts>());
  auto built = builder.build(sources);
  for (auto& kernel : built) ASSERT_TRUE(kernel.ok()) << kernel.error().message;
  kernel_ = *built[0];
  for (size_t i = 1; i < built.size(); ++i) extra_.push_back(*built[i]);
}

void ProgramOnQueue::TearDown() {
  kernel_.reset();
  extra_.clear();
  pool_.reset();
}

Program spinning_program() {
  using namespace vyre::build;
  return {{storage("n", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
          {1, 1, 1},
          {let("x", u32(1)),
           loop("i", u32(0), load("n", u32(0)),
                {assign("x", bit_xor(var("x"), shl(var("x"), u32(13)))),
                 assign("x", bit_xor(var("x"), shr(var("x"), u32(17)))),
                 assign("x", bit_xor(var("x"), shl(var("x"), u32(5))))}),
           store("out", u32(0), var("x"))}};
}

OpenClBackend& shared_backend() {
  // Never destroyed: drivers tear themselves down in atexit handlers that may
  // run before a static's destructor.
  static OpenClBackend& backend = *new OpenClBackend{BackendOptions{}};
  const Capabilities caps = backend.probe();
  if (!caps.unavailable.empty()) {
    ADD_FAILURE() << "no usable OpenCL device, so the OpenCL backend cannot be tested: "
                  << caps.unavailable << "\n(CI has PoCL: install pocl-opencl-icd)";
  }
  return backend;
}

void open_device_queue(OpenClApi& api, ClDevice& device, std::shared_ptr<ClQueue>& queue) {
  Result<OpenClApi> opened = OpenClApi::open();
  ASSERT_TRUE(opened.ok()) << opened.error().message;
  api = *opened;
  Result<std::vector<ClDevice>> devices = list_devices(api);
  ASSERT_TRUE(devices.ok()) << devices.error().message;
  Result<ClDevice> chosen = select_device(*devices, "");
  ASSERT_TRUE(chosen.ok()) << chosen.error().message;
  device = *chosen;
  Result<std::unique_ptr<ClQueue>> created = ClQueue::create(api, device);
  ASSERT_TRUE(created.ok()) << created.error().message;
  queue = std::move(*created);
}

}  // namespace vyre::opencl::testing
