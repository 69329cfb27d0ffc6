// How many driver calls a batched run costs (batch_run.h), counted through
// a wrapped OpenClApi on an OpenCL device (PoCL in CI): a run of a program
// with four outputs is at most three enqueues and about one kernel argument,
// the sub-buffers are made once per batch, and outputs too large to pack
// into one buffer run as single dispatches with the same results. The
// counts are deterministic; a timing would depend on the machine (on
// NVIDIA's driver every call costs microseconds, serialised over queues).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <vector>

#include "backends/opencl/batch_run.h"
#include "backends/opencl/compare_kernel.h"
#include "backends/opencl/counting_api.h"
#include "backends/opencl/lowering.h"
#include "backends/opencl/opencl_test_support.h"
#include "reference/interpreter.h"
#include "spec/ir/builder.h"

namespace vyre::opencl {
namespace {

using namespace vyre::build;
using testing::CallCounts;
using testing::words;

constexpr uint32_t kOutputs = 4;

/// Each invocation i, twice over (a loop: the kernel has a control word),
/// stores in[i] * (k + 1) + j into o<k>[i] for each output k it reaches.
Program four_outputs() {
  std::vector<BufferDecl> buffers{storage("in", 0, BufferAccess::ReadOnly)};
  Body stores;
  for (uint32_t k = 0; k < kOutputs; ++k) {
    const std::string name = "o" + std::to_string(k);
    buffers.push_back(storage(name, k + 1, BufferAccess::ReadWrite));
    stores.push_back(if_(lt(invocation_id(0), buflen(name)),
                         {store(name, invocation_id(0),
                                add(mul(load("in", invocation_id(0)), u32(k + 1)), var("j")))}));
  }
  return {buffers, {64, 1, 1}, {loop("j", u32(0), u32(2), stores)}};
}

/// Outputs of 64, 3, 17 and 100 words over 64 input words.
BufferSet four_outputs_inputs() {
  std::vector<uint32_t> in(64);
  for (uint32_t i = 0; i < 64; ++i) in[i] = 7 * i + 1;
  return {{"in", words(in)},
          {"o0", words(std::vector<uint32_t>(64, 0))},
          {"o1", words({9, 9, 9})},
          {"o2", words(std::vector<uint32_t>(17, 5))},
          {"o3", words(std::vector<uint32_t>(100, 3))}};
}

/// The counted clGetDeviceInfo, and the CL_DEVICE_MAX_MEM_ALLOC_SIZE and
/// CL_DEVICE_TYPE it reports instead of the device's when not 0.
decltype(&::clGetDeviceInfo) counted_device_info = nullptr;
cl_ulong reported_max_alloc = 0;
cl_device_type reported_type = 0;

cl_int CL_API_CALL device_info_with_max_alloc(cl_device_id device, cl_device_info what, size_t size,
                                              void* value, size_t* size_ret) {
  if (what == CL_DEVICE_MAX_MEM_ALLOC_SIZE && reported_max_alloc != 0 && size == sizeof(cl_ulong) &&
      value != nullptr) {
    *static_cast<cl_ulong*>(value) = reported_max_alloc;
    return CL_SUCCESS;
  }
  if (what == CL_DEVICE_TYPE && reported_type != 0 && size == sizeof(cl_device_type) &&
      value != nullptr) {
    *static_cast<cl_device_type*>(value) = reported_type;
    return CL_SUCCESS;
  }
  return counted_device_info(device, what, size, value, size_ret);
}

/// What a kernel enqueue was asked: its queue, kernel and wait list, and
/// the event it returned.
struct KernelEnqueue {
  cl_command_queue queue;
  cl_kernel kernel;
  std::vector<cl_event> waits;
  cl_event event;
};
decltype(&::clEnqueueNDRangeKernel) counted_kernel_enqueue = nullptr;
decltype(&::clEnqueueFillBuffer) counted_fill = nullptr;
decltype(&::clEnqueueCopyBuffer) counted_copy = nullptr;
std::vector<KernelEnqueue> kernel_enqueues;
/// The copies enqueued, in order: their queues and wait lists.
std::vector<std::pair<cl_command_queue, std::vector<cl_event>>> copies;
/// The events of the fills enqueued, in order (null where none was asked).
std::vector<cl_event> fills;

cl_int CL_API_CALL recorded_kernel_enqueue(cl_command_queue queue, cl_kernel kernel, cl_uint dims,
                                           const size_t* offset, const size_t* global,
                                           const size_t* local, cl_uint waits,
                                           const cl_event* wait_list, cl_event* event) {
  const cl_int error =
      counted_kernel_enqueue(queue, kernel, dims, offset, global, local, waits, wait_list, event);
  kernel_enqueues.push_back({queue, kernel, std::vector<cl_event>(wait_list, wait_list + waits),
                             event != nullptr ? *event : nullptr});
  return error;
}

cl_int CL_API_CALL recorded_fill(cl_command_queue queue, cl_mem buffer, const void* pattern,
                                 size_t pattern_size, size_t offset, size_t size, cl_uint waits,
                                 const cl_event* wait_list, cl_event* event) {
  const cl_int error =
      counted_fill(queue, buffer, pattern, pattern_size, offset, size, waits, wait_list, event);
  fills.push_back(event != nullptr ? *event : nullptr);
  return error;
}

cl_int CL_API_CALL recorded_copy(cl_command_queue queue, cl_mem from, cl_mem to, size_t from_offset,
                                 size_t to_offset, size_t size, cl_uint waits,
                                 const cl_event* wait_list, cl_event* event) {
  copies.emplace_back(queue, std::vector<cl_event>(wait_list, wait_list + waits));
  return counted_copy(queue, from, to, from_offset, to_offset, size, waits, wait_list, event);
}

/// A queue on the first usable device whose calls are counted, its pool,
/// and four_outputs() and the compare kernel built on it.
class BatchCallCountTest : public testing::ProgramOnQueue {
 protected:
  void SetUp() override {
    open_queue();
    ASSERT_FALSE(HasFatalFailure());
    CallCounts::wrap(api_);
    counted_device_info = api_.clGetDeviceInfo;
    api_.clGetDeviceInfo = device_info_with_max_alloc;
    counted_kernel_enqueue = api_.clEnqueueNDRangeKernel;
    api_.clEnqueueNDRangeKernel = recorded_kernel_enqueue;
    counted_fill = api_.clEnqueueFillBuffer;
    api_.clEnqueueFillBuffer = recorded_fill;
    counted_copy = api_.clEnqueueCopyBuffer;
    api_.clEnqueueCopyBuffer = recorded_copy;
    reported_max_alloc = 0;
    reported_type = 0;
    build(four_outputs(), {kCompareKernelSource});
    ASSERT_FALSE(HasFatalFailure());
    ASSERT_TRUE(lowered_.iface.has_control_buffer);
    compare_ = extra_.at(0);
  }
  void TearDown() override {
    reported_max_alloc = 0;
    reported_type = 0;
    stream_kernels_.clear();
    streams_.clear();
    compare_.reset();
    ProgramOnQueue::TearDown();
  }

  /// A batch of four_outputs() over `queues` queues of one context (the
  /// fixture's and streams, each with kernel objects of its own), its calls
  /// counted from zero.
  BatchOutcome run(const BatchOptions& options, uint64_t slot_budget = kBatchSlotBytes,
                   std::optional<uint32_t> perturbed = std::nullopt, uint32_t queues = 1) {
    BatchRequest request{*kernel_, *compare_, lowered_.iface, inputs_,   grid_,
                         options,  timeout_,  slot_budget,    perturbed, {}};
    while (streams_.size() + 1 < queues) {
      Result<std::unique_ptr<ClQueue>> stream =
          ClQueue::create(api_, queue_->shared_context(), device_);
      EXPECT_TRUE(stream.ok()) << stream.error().message;
      if (!stream.ok()) return {};
      streams_.push_back(std::move(*stream));
      for (const auto* kernel : {&kernel_, &compare_}) {
        Result<std::shared_ptr<const BuiltKernel>> object =
            kernel_for_lane(*kernel, streams_.size());
        EXPECT_TRUE(object.ok()) << object.error().message;
        if (!object.ok()) return {};
        stream_kernels_.push_back(*object);
      }
    }
    for (size_t s = 0; s + 1 < queues; ++s) {
      request.streams.push_back(
          {*streams_[s], *stream_kernels_[2 * s], *stream_kernels_[2 * s + 1]});
    }
    CallCounts::reset();
    kernel_enqueues.clear();
    fills.clear();
    copies.clear();
    const auto start = std::chrono::steady_clock::now();
    BatchOutcome outcome =
        run_batch(api_, *queue_, *pool_, device_.capabilities.device_name, request);
    last_batch_ms_ =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return outcome;
  }

  /// Where the last batch's host time went, for people reading the test's
  /// output on a driver whose calls are costly (NVIDIA's); no test judges it.
  void print_call_table(const char* batch) const {
    std::printf("%s on %s, %.2f ms:\n%s", batch, device_.capabilities.device_name.c_str(),
                last_batch_ms_, CallCounts::table().c_str());
  }

  /// Expects an Ok batch whose run 0 has the reference interpreter's bytes.
  void expect_reference_outputs(const BatchOutcome& batch) {
    ASSERT_EQ(batch.status, Status::Ok) << batch.message;
    Result<reference::RunResult> expected = reference::run(four_outputs(), inputs_, grid_);
    ASSERT_TRUE(expected.ok()) << expected.error().message;
    EXPECT_EQ(batch.first_outputs, expected->outputs)
        << "batch" << testing::describe(batch.first_outputs) << "\nreference"
        << testing::describe(expected->outputs);
  }

  std::shared_ptr<const BuiltKernel> compare_;
  /// The wall time of the last run().
  double last_batch_ms_ = 0;
  std::vector<std::unique_ptr<ClQueue>> streams_;
  std::vector<std::shared_ptr<const BuiltKernel>> stream_kernels_;
  const BufferSet inputs_ = four_outputs_inputs();
  const Grid grid_{};
  const std::chrono::milliseconds timeout_{60'000};
};

TEST_F(BatchCallCountTest, ARunIsAtMostThreeEnqueuesAndAboutOneKernelArgument) {
  constexpr uint32_t kRuns = 100;
  const BatchOutcome batch = run({kRuns, 4});
  expect_reference_outputs(batch);
  EXPECT_EQ(batch.dispatches, kRuns);
  EXPECT_EQ(batch.submissions, 4u);
  EXPECT_EQ(batch.differing_runs, 0u);
  print_call_table("100 runs in 4 submissions, one queue");
  RecordProperty("enqueues", static_cast<int>(CallCounts::enqueues()));
  RecordProperty("kernel_arguments", static_cast<int>(CallCounts::of("clSetKernelArg")));
  // Per run: the kernel and the comparison; the first copy, uploads,
  // flags and readback of the batch spread over its runs.
  EXPECT_LE(CallCounts::enqueues(), 3u * kRuns);
  // Per run: the comparison's slot; the rest is set once per batch (11
  // arguments of the program, 11 of the comparison).
  EXPECT_LE(CallCounts::of("clSetKernelArg"), kRuns + 32u);
  // One sub-buffer per output and the control word, for the whole batch.
  EXPECT_EQ(CallCounts::of("clCreateSubBuffer"), kOutputs + 1u);
  // Fresh outputs: one copy before the first run; each comparison restores
  // them for the next run.
  EXPECT_EQ(CallCounts::of("clEnqueueCopyBuffer"), 1u);
}

TEST_F(BatchCallCountTest, RunsOverFourQueuesCostTheSameCallsAndAJoinASubmission) {
  constexpr uint32_t kRuns = 100;
  constexpr uint32_t kQueues = 4;
  const BatchOutcome batch = run({kRuns, 4}, kBatchSlotBytes, std::nullopt, kQueues);
  expect_reference_outputs(batch);
  EXPECT_EQ(batch.dispatches, kRuns);
  EXPECT_EQ(batch.submissions, 4u);
  EXPECT_EQ(batch.differing_runs, 0u);
  // Per submission, a marker in each of the three streams and a barrier
  // that joins them to the fixture's queue.
  EXPECT_EQ(CallCounts::of("clEnqueueMarkerWithWaitList"), 4u * (kQueues - 1));
  EXPECT_EQ(CallCounts::of("clEnqueueBarrierWithWaitList"), 4u);
  print_call_table("100 runs in 4 submissions over 4 queues");
  EXPECT_LE(CallCounts::enqueues(), 4u * kRuns);
  // Every queue's two kernels get their fixed arguments once.
  EXPECT_LE(CallCounts::of("clSetKernelArg"), kRuns + kQueues * 32u);
  // Each queue's copy of the outputs has its sub-buffers.
  EXPECT_EQ(CallCounts::of("clCreateSubBuffer"), kQueues * (kOutputs + 1u));
  EXPECT_EQ(CallCounts::of("clEnqueueCopyBuffer"), kQueues);
}

TEST_F(BatchCallCountTest, AStreamStartsAfterTheUploadAndComparesAfterRunZeroIsSaved) {
  // A device may run the queues in any order, so the order is checked where
  // it is asked for: in the wait lists. 12 runs, 3 submissions, 4 queues.
  const BatchOutcome batch = run({12, 3}, kBatchSlotBytes, std::nullopt, 4);
  expect_reference_outputs(batch);
  ASSERT_EQ(fills.size(), 3u);  // The flags, cleared once a submission.
  // The compare kernel objects, by queue: the fixture's, then each stream's.
  std::vector<std::pair<cl_command_queue, cl_kernel>> compare_objects{
      {queue_->queue(), compare_->kernel}};
  for (size_t i = 0; i < streams_.size(); ++i) {
    compare_objects.emplace_back(streams_[i]->queue(), stream_kernels_[2 * i + 1]->kernel);
  }
  const auto is_compare = [&](const KernelEnqueue& e) {
    return std::find(compare_objects.begin(), compare_objects.end(),
                     std::pair{e.queue, e.kernel}) != compare_objects.end();
  };
  // Each run's program kernel, then its comparison, in enqueue order.
  std::vector<const KernelEnqueue*> kernels;
  std::vector<const KernelEnqueue*> compares;
  for (const KernelEnqueue& e : kernel_enqueues) (is_compare(e) ? compares : kernels).push_back(&e);
  ASSERT_EQ(compares.size(), 12u);
  ASSERT_EQ(kernels.size(), 12u);
  // One copy of the pristine outputs per queue, before its first run; each
  // comparison restores them after that.
  ASSERT_EQ(copies.size(), 4u);
  const cl_event run_zero_saved = compares[0]->event;
  ASSERT_EQ(compares[0]->queue, queue_->queue());
  const auto waits_for = [](const std::vector<cl_event>& waits, cl_event event) {
    return std::find(waits.begin(), waits.end(), event) != waits.end();
  };
  for (uint32_t run = 1; run < 12; ++run) {
    const KernelEnqueue& compare = *compares[run];
    ASSERT_EQ(kernels[run]->queue, compare.queue) << run;
    if (run % 4 == 0) {
      EXPECT_EQ(compare.queue, queue_->queue()) << run;
      continue;  // In order after the fill and run 0 in the same queue.
    }
    EXPECT_NE(compare.queue, queue_->queue()) << run;
    // Each stream's run is its first of the submission (4 runs, 4 queues).
    // Its first command waits for the fill of the flags, which the
    // fixture's queue runs after the upload (an unmap, which a discrete GPU
    // may still be carrying out when a stream starts): in the first
    // submission the copy, later the program's kernel. Its comparison, in
    // the first submission, waits for run 0's.
    if (run < 4) {
      ASSERT_EQ(copies[run].first, compare.queue) << run;
      EXPECT_TRUE(waits_for(copies[run].second, fills[0])) << run;
      EXPECT_TRUE(waits_for(compare.waits, run_zero_saved)) << run;
    } else {
      EXPECT_TRUE(waits_for(kernels[run]->waits, fills[run / 4])) << run;
    }
  }
}

TEST_F(BatchCallCountTest, APerturbedRunInAnotherQueueComesBackWithItsBytes) {
  // Runs 5 and 6 of 12 over 4 queues and 3 submissions: each run's slot
  // and flag are its own whichever queue ran it.
  for (const uint32_t perturbed : {5u, 6u}) {
    const BatchOutcome batch = run({12, 3}, kBatchSlotBytes, perturbed, 4);
    expect_reference_outputs(batch);
    EXPECT_EQ(batch.differing_runs, 1u);
    ASSERT_EQ(batch.differing.size(), 1u);
    EXPECT_EQ(batch.differing[0].run, perturbed);
    BufferSet changed = batch.first_outputs;
    std::fill(changed.at("o0").begin(), changed.at("o0").begin() + 4, uint8_t{0x5A});
    EXPECT_EQ(batch.differing[0].outputs, changed);
  }
}

TEST_F(BatchCallCountTest, OnlyAKernelsFirstRunOnACpuDeviceMayWaitAFenceTimeoutMore) {
  // PoCL builds a kernel's work-group function at its first enqueue, inside
  // the first wait; a GPU's driver has built everything before.
  const std::chrono::milliseconds fence{10'000};
  const std::chrono::milliseconds first =
      (device_.type & CL_DEVICE_TYPE_CPU) != 0 ? fence : std::chrono::milliseconds{0};
  EXPECT_EQ(queue_->first_run_allowance(*kernel_, fence), first);
  EXPECT_EQ(queue_->first_run_allowance(*compare_, fence), first);
  expect_reference_outputs(run({4, 2}));
  EXPECT_TRUE(kernel_->ran.load());
  EXPECT_TRUE(compare_->ran.load());
  EXPECT_EQ(queue_->first_run_allowance(*kernel_, fence), std::chrono::milliseconds{0});
  EXPECT_EQ(queue_->first_run_allowance(*compare_, fence), std::chrono::milliseconds{0});
}

TEST_F(BatchCallCountTest, ATinySlotBudgetRunsOneRunASubmissionAlike) {
  const BatchOutcome batch = run({20, 2}, /*slot_budget=*/1);
  expect_reference_outputs(batch);
  EXPECT_EQ(batch.dispatches, 20u);
  EXPECT_EQ(batch.submissions, 20u);
  EXPECT_EQ(batch.differing_runs, 0u);
  EXPECT_EQ(CallCounts::of("clCreateSubBuffer"), kOutputs + 1u);
}

TEST_F(BatchCallCountTest, APerturbedRunComesBackWithItsBytes) {
  // On a CPU the comparison walks each work-item's words as one block, on
  // a GPU grid-strided: both, whatever this device is.
  for (const cl_device_type type : {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU}) {
    reported_type = type;
    const BatchOutcome batch = run({12, 3}, kBatchSlotBytes, 7);
    expect_reference_outputs(batch);
    EXPECT_EQ(batch.differing_runs, 1u) << type;
    ASSERT_EQ(batch.differing.size(), 1u) << type;
    EXPECT_EQ(batch.differing[0].run, 7u);
    BufferSet perturbed = batch.first_outputs;
    std::fill(perturbed.at("o0").begin(), perturbed.at("o0").begin() + 4, uint8_t{0x5A});
    EXPECT_EQ(batch.differing[0].outputs, perturbed) << type;
  }
}

TEST_F(BatchCallCountTest, OutputsTooLargeForOneBufferRunAsSingleDispatches) {
  // The four outputs and the control word need 756 bytes packed, before
  // any alignment.
  reported_max_alloc = 512;
  const BatchOutcome batch = run({10, 2}, kBatchSlotBytes, 3);
  expect_reference_outputs(batch);
  EXPECT_EQ(batch.dispatches, 10u);
  EXPECT_EQ(batch.submissions, 10u);  // Every dispatch is its own.
  EXPECT_EQ(CallCounts::of("clCreateSubBuffer"), 0u);
  ASSERT_EQ(batch.differing.size(), 1u);
  EXPECT_EQ(batch.differing[0].run, 3u);
  EXPECT_EQ(batch.differing[0].outputs.at("o0")[0], 0x5A);
}

}  // namespace
}  // namespace vyre::opencl
