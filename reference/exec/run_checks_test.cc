// Bad input to run(): every case gets a clear Error before anything big is
// allocated (SEMANTICS S1), never a crash, a hang or a huge allocation.
#include "reference/exec/run_checks.h"

#include <gtest/gtest.h>

#include "reference/exec/lane_compiler.h"
#include "spec/ir/builder.h"
#include "spec/ir/host_words.h"

namespace vyre::reference {
namespace {

using namespace vyre::build;

Program one_store(std::vector<BufferDecl> buffers, std::array<uint32_t, 3> wg = {1, 1, 1}) {
  return Program{std::move(buffers), wg, {store("out", u32(0), u32(1))}};
}

void expect_error(const Result<RunResult>& r, std::string_view needle) {
  ASSERT_FALSE(r.ok()) << "expected an error mentioning `" << needle << "`";
  EXPECT_NE(r.error().message.find(needle), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("Fix:"), std::string::npos) << r.error().message;
}

TEST(RunChecks, Semantics_S1_MissingInputIsAnError) {
  const Program p = one_store(
      {storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)});
  expect_error(run(p, {{"out", to_bytes({0})}}, Grid{}), "no input for buffer `in`");
}

TEST(RunChecks, Semantics_S1_ReadWriteBufferNeedsAnInputToo) {
  const Program p = one_store({storage("out", 0, BufferAccess::ReadWrite)});
  expect_error(run(p, {}, Grid{}), "no input for buffer `out`");
}

TEST(RunChecks, Semantics_S1_UnknownInputNameIsAnError) {
  const Program p = one_store({storage("out", 0, BufferAccess::ReadWrite)});
  expect_error(run(p, {{"out", to_bytes({0})}, {"extra", to_bytes({0})}}, Grid{}),
               "input `extra` names no buffer");
}

TEST(RunChecks, Semantics_S1_WorkgroupBufferCannotBeAnInput) {
  const Program p = one_store(
      {storage("out", 0, BufferAccess::ReadWrite), workgroup("shared", DataType::U32, 4)});
  expect_error(run(p, {{"out", to_bytes({0})}, {"shared", to_bytes({0, 0, 0, 0})}}, Grid{}),
               "workgroup buffer");
}

TEST(RunChecks, Semantics_S1_DeclaredCountNeedsExactSize) {
  const Program p = one_store({storage("out", 0, BufferAccess::ReadWrite, DataType::U32, 4)});
  expect_error(run(p, {{"out", to_bytes({0, 0, 0})}}, Grid{}), "declared with 4 elements");
  const Result<RunResult> ok = run(p, {{"out", to_bytes({0, 0, 0, 0})}}, Grid{});
  EXPECT_TRUE(ok.ok()) << ok.error().message;
}

TEST(RunChecks, Semantics_S1_CountZeroAcceptsAnyLengthIncludingEmpty) {
  const Program p = one_store({storage("out", 0, BufferAccess::ReadWrite)});
  const Result<RunResult> r = run(p, {{"out", {}}}, Grid{});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->outputs.at("out").empty());
  EXPECT_EQ(r->oob.stores, 1u);
}

TEST(RunChecks, Semantics_S1_UniformOver64KiBIsAnError) {
  Program p = one_store(
      {storage("cfg", 0, BufferAccess::Uniform), storage("out", 1, BufferAccess::ReadWrite)});
  const ByteBuffer big(65536 + 4, 0);
  expect_error(run(p, {{"cfg", big}, {"out", to_bytes({0})}}, Grid{}), "more than 65536");
  EXPECT_TRUE(run(p, {{"cfg", ByteBuffer(65536, 0)}, {"out", to_bytes({0})}}, Grid{}).ok());
}

TEST(RunChecks, Semantics_S1_ZeroGridIsAnError) {
  const Program p = one_store({storage("out", 0, BufferAccess::ReadWrite)});
  for (uint32_t axis = 0; axis < 3; ++axis) {
    Grid g;
    g.workgroups[axis] = 0;
    expect_error(run(p, {{"out", to_bytes({0})}}, g),
                 "0 workgroups on axis " + std::to_string(axis));
  }
}

TEST(RunChecks, Semantics_S1_TwoToThe32InvocationsAreRefused) {
  const Program p = one_store({storage("out", 0, BufferAccess::ReadWrite)}, {65536, 1, 1});
  RunOptions options;
  options.max_invocations = ~uint64_t{0};  // even with no option limit, ids are u32
  expect_error(run(p, {{"out", to_bytes({0})}}, Grid{{65536, 1, 1}}, options), "4294967296");
}

TEST(RunChecks, ProductOverflowingSixtyFourBitsIsRefused) {
  const Program p =
      one_store({storage("out", 0, BufferAccess::ReadWrite)}, {0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF});
  expect_error(run(p, {{"out", to_bytes({0})}}, Grid{{0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF}}),
               "invocations");
}

TEST(RunChecks, InvocationLimitOfOptionsIsHonoured) {
  const Program p = one_store({storage("out", 0, BufferAccess::ReadWrite)}, {64, 1, 1});
  RunOptions options;
  options.max_invocations = 128;
  EXPECT_TRUE(run(p, {{"out", to_bytes({0})}}, Grid{{2, 1, 1}}, options).ok());
  expect_error(run(p, {{"out", to_bytes({0})}}, Grid{{3, 1, 1}}, options), "limit of 128");
}

TEST(RunChecks, GigabyteWorkgroupBufferFromATinyProgramIsRefused) {
  // 2^28 Vec4U32 elements = 4 GiB of workgroup memory, declared in one line.
  const Program p{
      {storage("out", 0, BufferAccess::ReadWrite), workgroup("huge", DataType::Vec4U32, 1u << 28)},
      {1, 1, 1},
      {store("out", u32(0), u32(1))}};
  expect_error(run(p, {{"out", to_bytes({0})}}, Grid{}), "bytes for buffers");
}

TEST(RunChecks, HugeWorkgroupTimesRegistersIsRefused) {
  // 2^24 lanes in one workgroup with a barrier: the register file alone would
  // pass the memory limit, so the run is refused before allocating it.
  const Program p{{storage("out", 0, BufferAccess::ReadWrite)},
                  {1u << 24, 1, 1},
                  {barrier(), store("out", local_id(0), add(add(local_id(0), u32(1)), u32(2)))}};
  RunOptions options;
  options.max_invocations = 1u << 24;
  options.max_memory_bytes = 256u << 20;
  expect_error(run(p, {{"out", to_bytes({0})}}, Grid{}, options), "more than the limit");
}

TEST(RunChecks, MemoryLimitCountsHostBuffers) {
  const Program p = one_store({storage("out", 0, BufferAccess::ReadWrite)});
  RunOptions options;
  options.max_memory_bytes = 1024;
  expect_error(run(p, {{"out", ByteBuffer(4096, 0)}}, Grid{}, options), "more than the limit");
}

TEST(RunChecks, MemoryLimitCountsTheCopyOfReadWriteBuffers) {
  // 600 input bytes: a ReadOnly buffer is read in place (600 <= 1000), a
  // ReadWrite one is also copied into the output (1200 > 1000).
  RunOptions options;
  options.checks = false;
  options.max_memory_bytes = 1000;
  const Program read_only = one_store(
      {storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)});
  EXPECT_TRUE(
      run(read_only, {{"in", ByteBuffer(596, 0)}, {"out", ByteBuffer(4, 0)}}, Grid{}, options)
          .ok());
  const Program read_write = one_store({storage("out", 0, BufferAccess::ReadWrite)});
  expect_error(run(read_write, {{"out", ByteBuffer(600, 0)}}, Grid{}, options),
               "more than the limit of 1000");
}

TEST(RunChecks, MemoryLimitCountsTheRaceDetectorsFixedArrays) {
  // A 2^20-word workgroup buffer (4 MiB) written by one Store: with checks,
  // an 8-byte latest-write slot per element (8 MiB) and a reported bit per
  // element (128 KiB), 12 MiB + 128 KiB in all plus the 8-byte `out` and its
  // copy and a 2-lane register file (well under 4 KiB).
  constexpr uint64_t kMiB = 1u << 20;
  const std::vector<BufferDecl> buffers = {storage("out", 0, BufferAccess::ReadWrite),
                                           workgroup("t", DataType::U32, 1u << 20)};
  const Node one_store = store("t", local_id(0), u32(1));
  const Program one_site{buffers, {2, 1, 1}, {one_store}};
  RunOptions options;
  options.max_memory_bytes = 12 * kMiB + 128 * 1024;
  expect_error(run(one_site, {{"out", to_bytes({0, 0})}}, Grid{}, options), "more than the limit");
  options.max_memory_bytes = 12 * kMiB + 132 * 1024;
  EXPECT_TRUE(run(one_site, {{"out", to_bytes({0, 0})}}, Grid{}, options).ok());
  // Writes by two nodes (other source lines) also need each element's last
  // writing node: 4 bytes more per element, 16 MiB + 128 KiB.
  Node second_store = one_store;
  second_store.loc = SourceLoc{2, 1};
  const Program two_sites{buffers, {2, 1, 1}, {one_store, second_store}};
  options.max_memory_bytes = 16 * kMiB + 128 * 1024;
  expect_error(run(two_sites, {{"out", to_bytes({0, 0})}}, Grid{}, options), "more than the limit");
  options.max_memory_bytes = 16 * kMiB + 132 * 1024;
  EXPECT_TRUE(run(two_sites, {{"out", to_bytes({0, 0})}}, Grid{}, options).ok());
  // Without checks the 4 MiB buffer alone fits.
  options.checks = false;
  options.max_memory_bytes = 4 * kMiB + 4 * 1024;
  EXPECT_TRUE(run(two_sites, {{"out", to_bytes({0, 0})}}, Grid{}, options).ok());
}

TEST(RunChecks, MalformedProgramsRunUnvalidatedGiveErrorsNotCrashes) {
  // What the validator normally rejects, handed straight to the interpreter.
  const BufferDecl out = storage("out", 0, BufferAccess::ReadWrite);
  const BufferDecl bytes = storage("raw", 1, BufferAccess::ReadWrite, DataType::Bytes);
  const std::vector<std::pair<std::string, Program>> programs = {
      {"duplicate buffer",
       Program{{out, storage("out", 1, BufferAccess::ReadWrite)}, {1, 1, 1}, {}}},
      {"undeclared variable", Program{{out}, {1, 1, 1}, {store("out", u32(0), var("nope"))}}},
      {"unknown buffer", Program{{out}, {1, 1, 1}, {store("out", u32(0), load("nope", u32(0)))}}},
      {"bytes load", Program{{out, bytes}, {1, 1, 1}, {store("out", u32(0), load("raw", u32(0)))}}},
      {"store type", Program{{out}, {1, 1, 1}, {store("out", u32(0), boolean(true))}}},
      {"id axis", Program{{out}, {1, 1, 1}, {store("out", u32(0), invocation_id(7))}}},
      {"unknown op", Program{{out}, {1, 1, 1}, {store("out", u32(0), call("nope", {}))}}},
      {"graph op call", Program{{out}, {1, 1, 1}, {store("out", u32(0), call("graph.bfs", {}))}}},
      {"arity", Program{{out}, {1, 1, 1}, {store("out", u32(0), call("primitive.add", {u32(1)}))}}},
      {"shadowing", Program{{out}, {1, 1, 1}, {let("x", u32(1)), block({let("x", u32(2))})}}},
      {"loop variable assigned",
       Program{{out}, {1, 1, 1}, {loop("i", u32(0), u32(2), {assign("i", u32(5))})}}},
      {"cas without expected",
       Program{
           {out}, {1, 1, 1}, {let("o", atomic(AtomicOp::CompareExchange, "out", u32(0), u32(1)))}}},
      {"null expression", Program{{out}, {1, 1, 1}, {store("out", u32(0), nullptr)}}},
      {"cast to bytes", Program{{out}, {1, 1, 1}, {let("b", cast(DataType::Bytes, u32(1)))}}},
  };
  for (const auto& [what, p] : programs) {
    const Result<RunResult> r =
        run_unvalidated(p, {{"out", to_bytes({0})}, {"raw", to_bytes({0})}}, Grid{});
    EXPECT_FALSE(r.ok()) << what;
  }
}

TEST(RunChecks, DuplicateBufferNamesRunUnvalidatedIsAnError) {
  const Program p{
      {storage("out", 0, BufferAccess::ReadWrite), storage("out", 1, BufferAccess::ReadWrite)},
      {1, 1, 1},
      {store("out", u32(0), u32(1))}};
  expect_error(run_unvalidated(p, {{"out", to_bytes({0})}}, Grid{}), "two buffers are named `out`");
}

TEST(RunChecks, DeepNestingRunUnvalidatedIsAnError) {
  // Just past the compiler's limit; built with moves, since copying or
  // destroying much deeper IR trees would itself exhaust the stack.
  Body body;
  body.push_back(store("out", u32(0), u32(1)));
  for (uint32_t i = 0; i < kMaxStatementDepth + 8; ++i) {
    Body outer;
    outer.push_back(block(std::move(body)));
    body = std::move(outer);
  }
  const Program p{{storage("out", 0, BufferAccess::ReadWrite)}, {1, 1, 1}, std::move(body)};
  const Result<RunResult> r = run_unvalidated(p, {{"out", to_bytes({0})}}, Grid{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("nest deeper"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace vyre::reference
