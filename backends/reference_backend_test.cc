// The reference adapter: outputs pass through, invalid programs are compile
// errors, a non-conforming run is Status::Error carrying the violation, and a
// run past the interpreter's invocation limit is Status::NotSupported, and
// probe() reports that limit.
#include "backends/reference_backend.h"

#include <gtest/gtest.h>

#include "spec/ir/builder.h"
#include "spec/ir/host_words.h"

namespace vyre {
namespace {

using namespace vyre::build;

TEST(ReferenceBackend, RunsAProgramAndReturnsTheReadWriteBuffers) {
  auto backend = make_reference_backend({});
  const Program p{
      {storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
      {2, 1, 1},
      {store("out", invocation_id(0), add(load("in", invocation_id(0)), u32(10)))}};
  CompileOutcome compiled = backend->compile(p);
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
  DispatchOutcome run = backend->dispatch(
      *compiled.program, {{"in", to_bytes({1, 2})}, {"out", to_bytes({0, 0})}}, Grid{});
  ASSERT_EQ(run.status, Status::Ok) << run.message;
  EXPECT_EQ(run.outputs, (BufferSet{{"out", to_bytes({11, 12})}}));
}

TEST(ReferenceBackend, InvalidProgramIsACompileErrorWithTheRuleId) {
  auto backend = make_reference_backend({});
  // Stores to a buffer the program does not declare.
  const Program p{{}, {1, 1, 1}, {store("nowhere", u32(0), u32(1))}};
  CompileOutcome compiled = backend->compile(p);
  EXPECT_EQ(compiled.status, Status::CompileError);
  EXPECT_NE(compiled.message.find("V0"), std::string::npos) << compiled.message;
}

TEST(ReferenceBackend, DataRaceIsAnErrorNamingTheViolation) {
  auto backend = make_reference_backend({});
  // Every invocation writes element 0: a race between workgroups.
  const Program p{{storage("out", 0, BufferAccess::ReadWrite)},
                  {1, 1, 1},
                  {store("out", u32(0), invocation_id(0))}};
  CompileOutcome compiled = backend->compile(p);
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
  DispatchOutcome run =
      backend->dispatch(*compiled.program, {{"out", to_bytes({0})}}, Grid{{2, 1, 1}});
  EXPECT_EQ(run.status, Status::Error);
  EXPECT_NE(run.message.find("data race"), std::string::npos) << run.message;
  EXPECT_TRUE(run.outputs.empty());
}

// dispatch_runs checks run 0 alone: a racy program still fails the batch
// at run 0, and a conforming one gives every run its bytes.
TEST(ReferenceBackend, BatchFlagsARaceAtRunZeroAndRunsAConformingProgramEveryTime) {
  auto backend = make_reference_backend({});
  const Program racy{{storage("out", 0, BufferAccess::ReadWrite)},
                     {1, 1, 1},
                     {store("out", u32(0), invocation_id(0))}};
  CompileOutcome compiled = backend->compile(racy);
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
  BatchOptions options;
  options.runs = 5;
  BatchOutcome raced =
      backend->dispatch_runs(*compiled.program, {{"out", to_bytes({0})}}, Grid{{2, 1, 1}}, options);
  EXPECT_EQ(raced.status, Status::Error);
  EXPECT_EQ(raced.failed_run, 0u);
  EXPECT_NE(raced.message.find("data race"), std::string::npos) << raced.message;

  const Program plus_ten{
      {storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
      {2, 1, 1},
      {store("out", invocation_id(0), add(load("in", invocation_id(0)), u32(10)))}};
  compiled = backend->compile(plus_ten);
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
  BatchOutcome batch = backend->dispatch_runs(
      *compiled.program, {{"in", to_bytes({1, 2})}, {"out", to_bytes({0, 0})}}, Grid{}, options);
  ASSERT_EQ(batch.status, Status::Ok) << batch.message;
  EXPECT_EQ(batch.first_outputs, (BufferSet{{"out", to_bytes({11, 12})}}));
  EXPECT_EQ(batch.dispatches, 5u);
  EXPECT_EQ(batch.differing_runs, 0u);
}

TEST(ReferenceBackend, InterpreterErrorIsAnError) {
  auto backend = make_reference_backend({});
  const Program p{{storage("out", 0, BufferAccess::ReadWrite)}, {1, 1, 1}, {}};
  CompileOutcome compiled = backend->compile(p);
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
  DispatchOutcome run = backend->dispatch(*compiled.program, {}, Grid{});  // "out" is missing.
  EXPECT_EQ(run.status, Status::Error);
  EXPECT_NE(run.message.find("out"), std::string::npos) << run.message;
}

TEST(ReferenceBackend, ProbeReportsTheLimitOnInvocationsPerDispatch) {
  // RunOptions::max_invocations is 2^26 (reference/interpreter.h): the limit is
  // on the product of every axis, so the per-axis counts cannot express it.
  EXPECT_EQ(make_reference_backend({})->probe().max_dispatch_invocations, uint64_t{1} << 26);
}

TEST(ReferenceBackend, RunPastTheInvocationLimitIsNotSupported) {
  auto backend = make_reference_backend({});
  const Program p{{storage("out", 0, BufferAccess::ReadWrite)}, {64, 1, 1}, {}};
  CompileOutcome compiled = backend->compile(p);
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
  // 2^20 workgroups of 64 = 2^26 invocations: the interpreter's limit, still run.
  DispatchOutcome at_limit =
      backend->dispatch(*compiled.program, {{"out", {}}}, Grid{{1u << 20, 1, 1}});
  EXPECT_EQ(at_limit.status, Status::Ok) << at_limit.message;
  DispatchOutcome past =
      backend->dispatch(*compiled.program, {{"out", {}}}, Grid{{(1u << 20) + 1, 1, 1}});
  EXPECT_EQ(past.status, Status::NotSupported);
  EXPECT_EQ(past.message,
            "the dispatch has 67108928 invocations, more than the 67108864 the reference "
            "interpreter runs; dispatch fewer or smaller workgroups");
  DispatchOutcome huge = backend->dispatch(*compiled.program, {{"out", {}}},
                                           Grid{{0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF}});
  EXPECT_EQ(huge.status, Status::NotSupported);
  EXPECT_NE(huge.message.find("more than 2^64 invocations"), std::string::npos) << huge.message;
}

}  // namespace
}  // namespace vyre
