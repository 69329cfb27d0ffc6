// Buffers that remember their device bytes (buffer_pool.h), on an OpenCL
// device (PoCL in CI): a chain of dispatches that binds some buffers
// unchanged, some carried from the last outputs and some changed gives the
// reference interpreter's bytes at every step; only changed buffers are
// written again (a few changed words, or a repeated word, by fills); a pool hands a remembered
// buffer out once, for exactly its bytes, and forgets what a failed dispatch may have changed.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "backends/opencl/buffer_pool.h"
#include "backends/opencl/dispatch_run.h"
#include "backends/opencl/lowering.h"
#include "backends/opencl/opencl_test_support.h"
#include "reference/interpreter.h"
#include "spec/ir/builder.h"

namespace vyre::opencl {
namespace {

using namespace vyre::build;
using testing::words;

/// The driver's clEnqueueMapBuffer and clEnqueueFillBuffer, and how often
/// the test API called them.
decltype(&::clEnqueueMapBuffer) real_map = nullptr;
decltype(&::clEnqueueFillBuffer) real_fill = nullptr;
int maps_enqueued = 0;
int fills_enqueued = 0;

void* CL_API_CALL counting_map(cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                               cl_map_flags flags, size_t offset, size_t size, cl_uint waits,
                               const cl_event* wait_list, cl_event* event, cl_int* error) {
  ++maps_enqueued;
  return real_map(queue, buffer, blocking, flags, offset, size, waits, wait_list, event, error);
}

cl_int CL_API_CALL counting_fill(cl_command_queue queue, cl_mem buffer, const void* pattern,
                                 size_t pattern_size, size_t offset, size_t size, cl_uint waits,
                                 const cl_event* wait_list, cl_event* event) {
  ++fills_enqueued;
  return real_fill(queue, buffer, pattern, pattern_size, offset, size, waits, wait_list, event);
}

/// acc[i] = acc[i] * 3 + in[i] + k[0], one invocation per element.
Program accumulate() {
  return {
      {storage("in", 0, BufferAccess::ReadOnly), storage("acc", 1, BufferAccess::ReadWrite),
       storage("k", 2, BufferAccess::Uniform)},
      {4, 1, 1},
      {if_(lt(invocation_id(0), buflen("acc")),
           {store("acc", invocation_id(0),
                  add(add(mul(load("acc", invocation_id(0)), u32(3)), load("in", invocation_id(0))),
                      load("k", u32(0))))})}};
}

/// A queue on the first usable device, its pool, and accumulate() built on it.
class BufferReuseTest : public testing::ProgramOnQueue {
 protected:
  void SetUp() override {
    open_queue();
    ASSERT_FALSE(HasFatalFailure());
    // The queue calls through api_, so maps from now on are counted.
    real_map = api_.clEnqueueMapBuffer;
    api_.clEnqueueMapBuffer = counting_map;
    real_fill = api_.clEnqueueFillBuffer;
    api_.clEnqueueFillBuffer = counting_fill;
    build(accumulate());
  }

  /// One dispatch of accumulate() over `inputs`, one invocation per acc word.
  DispatchOutcome dispatch(const BufferSet& inputs) {
    const Grid grid{{static_cast<uint32_t>((inputs.at("acc").size() / 4 + 3) / 4), 1, 1}};
    const DispatchRequest request{*kernel_, lowered_.iface, inputs, grid, std::chrono::seconds(60)};
    return run_dispatch(api_, *queue_, *pool_, device_.capabilities.device_name, request);
  }

  /// Dispatches `inputs` and expects the reference interpreter's bytes.
  BufferSet dispatch_as_reference(const BufferSet& inputs, int step) {
    const Grid grid{{static_cast<uint32_t>((inputs.at("acc").size() / 4 + 3) / 4), 1, 1}};
    Result<reference::RunResult> expected = reference::run(accumulate(), inputs, grid);
    EXPECT_TRUE(expected.ok()) << expected.error().message;
    DispatchOutcome out = dispatch(inputs);
    EXPECT_EQ(out.status, Status::Ok) << "step " << step << ": " << out.message;
    if (!expected.ok() || out.status != Status::Ok) return {};
    EXPECT_EQ(out.outputs.at("acc"), expected->outputs.at("acc"))
        << "step " << step << "\nopencl" << testing::describe(out.outputs) << "\nreference"
        << testing::describe(expected->outputs);
    return out.outputs;
  }
};

TEST_F(BufferReuseTest, ChainedDispatchesGiveTheReferenceBytesAtEveryStep) {
  BufferSet state{{"in", words({1, 2, 3, 4, 5, 6})},
                  {"acc", words({1, 2, 3, 4, 5, 6})},  // The same bytes as `in`: two buffers.
                  {"k", words({7})}};
  for (int step = 0; step < 12; ++step) {
    BufferSet out = dispatch_as_reference(state, step);
    if (out.empty()) return;
    state["acc"] = out.at("acc");  // Carried: the device holds these bytes already.
    if (step % 3 == 1) state["k"] = words({static_cast<uint32_t>(step)});
    if (step % 4 == 2) state["in"] = state["acc"];            // Now equal to what `acc` holds.
    if (step == 5) state["acc"] = words({9, 9, 9, 9, 9, 9});  // Changed by the host.
    if (step == 8) state["acc"] = words({1, 2, 3, 4, 5, 6, 7, 8, 9, 10});   // Resized.
    if (step == 9) state["in"] = words({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});  // Longer, not read.
  }
}

TEST_F(BufferReuseTest, OnlyChangedInputsAreUploadedAgain) {
  BufferSet state{{"in", words({1, 2, 3, 4})}, {"acc", words({0, 0, 0, 0})}, {"k", words({5})}};
  maps_enqueued = 0;
  fills_enqueued = 0;
  BufferSet out = dispatch_as_reference(state, 0);
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(maps_enqueued, 1 + 1);  // `in` uploaded, then the read-back.
  // `acc` (zeros) filled; `k`, one word, filled with it and zeros past it.
  EXPECT_EQ(fills_enqueued, 1 + 2);

  state["acc"] = out.at("acc");
  maps_enqueued = 0;
  fills_enqueued = 0;
  out = dispatch_as_reference(state, 1);
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(maps_enqueued, 1);  // Nothing to upload: every buffer holds its bytes.
  EXPECT_EQ(fills_enqueued, 0);

  state["acc"] = out.at("acc");
  state["k"] = words({6});
  maps_enqueued = 0;
  fills_enqueued = 0;
  out = dispatch_as_reference(state, 2);
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(maps_enqueued, 1);   // The read-back.
  EXPECT_EQ(fills_enqueued, 1);  // `k`'s changed word only.

  // A remembered buffer that differs in more than four words is uploaded.
  state["acc"] = out.at("acc");
  state["in"] = words({11, 12, 13, 14, 15});
  state["k"] = words({6});
  maps_enqueued = 0;
  fills_enqueued = 0;
  out = dispatch_as_reference(state, 3);
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(maps_enqueued, 1 + 1);
  EXPECT_EQ(fills_enqueued, 0);
}

TEST_F(BufferReuseTest, ARememberedBufferServesItsExactBytesOnce) {
  const ByteBuffer bytes = words({1, 2, 3});
  cl_int error = CL_SUCCESS;
  uint64_t capacity = 0;
  cl_mem buffer = pool_->take(16, capacity, error);
  ASSERT_NE(buffer, nullptr) << cl_error_name(error);
  pool_->give(buffer, capacity, bytes);
  EXPECT_EQ(pool_->remembered_bytes(), bytes.size());

  std::optional<ByteBuffer> content;
  uint64_t held_capacity = 0;
  EXPECT_EQ(pool_->take_holding(words({1, 2, 4}), 16, held_capacity, content), nullptr);
  EXPECT_EQ(pool_->take_holding(words({1, 2}), 16, held_capacity, content), nullptr);
  EXPECT_EQ(pool_->take_holding(bytes, 16, held_capacity, content), buffer);
  EXPECT_EQ(content, bytes);
  EXPECT_EQ(held_capacity, capacity);
  // Taken, it is no longer in the pool: a second binding of the same bytes
  // gets a buffer of its own.
  EXPECT_EQ(pool_->take_holding(bytes, 16, held_capacity, content), nullptr);
  EXPECT_EQ(pool_->remembered_bytes(), 0u);
  pool_->give(buffer, capacity);
}

TEST_F(BufferReuseTest, ADispatchThatEndsUnconfirmedLeavesNothingRemembered) {
  const ByteBuffer bytes = words({1, 2, 3, 4});
  cl_int error = CL_SUCCESS;
  uint64_t capacity = 0;
  cl_mem buffer = pool_->take(16, capacity, error);
  ASSERT_NE(buffer, nullptr) << cl_error_name(error);
  pool_->give(buffer, capacity, bytes);
  {
    // As a failed dispatch: it binds the buffer, then ends before it learns
    // what the buffer holds now (no remember, no still_holds).
    DispatchBuffers failing(*pool_, *queue_);
    ASSERT_EQ(failing.take_holding(bytes, 16), buffer);
  }
  EXPECT_EQ(pool_->remembered_bytes(), 0u);
  std::optional<ByteBuffer> content;
  EXPECT_EQ(pool_->take_holding(bytes, 16, capacity, content), nullptr);
  // The next dispatch uploads everything again and is right.
  maps_enqueued = 0;
  fills_enqueued = 0;
  BufferSet out =
      dispatch_as_reference({{"in", bytes}, {"acc", words({0, 0, 0, 0})}, {"k", words({5})}}, 0);
  EXPECT_FALSE(out.empty());
  EXPECT_EQ(maps_enqueued, 1 + 1);   // `in` uploaded, the read-back.
  EXPECT_EQ(fills_enqueued, 1 + 2);  // `acc`, and `k` with the zeros past it.
}

}  // namespace
}  // namespace vyre::opencl
