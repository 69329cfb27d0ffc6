#include "backends/fault_injection/fault_injecting_backend.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "backends/isolation/isolate.h"
#include "backends/isolation/spread_backend.h"
#include "backends/reference_backend.h"
#include "spec/ir/host_words.h"
#include "spec/text/text_format.h"

namespace vyre {
namespace {

constexpr std::string_view kAddOne = R"(program {
  workgroup_size(64, 1, 1)
  buffer input: u32 read_only @0
  buffer out: u32 read_write @1
  let i = invocation_id.x
  if lt(i, buflen(input)) {
    out[i] = add(input[i], 1)
  }
})";

/// The add-one program compiled on `backend`, with 64 words of input.
struct Workload {
  std::shared_ptr<const CompiledProgram> program;
  BufferSet inputs;
  Grid grid;
  BufferSet expected;
};

Workload workload(Backend& backend) {
  Workload w;
  auto program = parse_program(kAddOne);
  EXPECT_TRUE(program.ok());
  CompileOutcome compiled = backend.compile(*program);
  EXPECT_EQ(compiled.status, Status::Ok) << compiled.message;
  w.program = compiled.program;
  std::vector<uint32_t> in(64), out(64);
  for (uint32_t i = 0; i < 64; ++i) {
    in[i] = i * 3;
    out[i] = i * 3 + 1;
  }
  w.inputs = {{"input", to_bytes(in)}, {"out", ByteBuffer(256, 0)}};
  w.grid.workgroups = {1, 1, 1};
  w.expected = {{"out", to_bytes(out)}};
  return w;
}

std::shared_ptr<FaultCallCounter> counter() {
  auto made = FaultCallCounter::make();
  EXPECT_TRUE(made.ok());
  return *made;
}

std::unique_ptr<Backend> faulty(const std::string& spec,
                                std::shared_ptr<FaultCallCounter> calls = counter()) {
  auto plan = parse_fault_plan(spec);
  EXPECT_TRUE(plan.ok()) << plan.error().message;
  FaultInjection injection{*plan, std::move(calls), false, std::chrono::milliseconds(50)};
  auto made = inject_faults(make_reference_backend({}), injection);
  EXPECT_TRUE(made.ok());
  return std::move(made).value();
}

TEST(FaultInjectingBackend, ALostDeviceStaysLostUntilAFreshBackendContinuesTheCount) {
  auto calls = counter();
  auto backend = faulty("device-lost@2", calls);
  Workload w = workload(*backend);
  DispatchOutcome first = backend->dispatch(*w.program, w.inputs, w.grid);
  EXPECT_EQ(first.status, Status::Ok);
  EXPECT_EQ(first.outputs, w.expected);
  DispatchOutcome lost = backend->dispatch(*w.program, w.inputs, w.grid);
  EXPECT_EQ(lost.status, Status::DeviceLost);
  EXPECT_NE(lost.message.find("device lost (injected by --inject-faults device-lost@2 at "
                              "dispatch call 2)"),
            std::string::npos)
      << lost.message;
  EXPECT_EQ(backend->dispatch(*w.program, w.inputs, w.grid).status, Status::DeviceLost);
  auto fresh = faulty("device-lost@2", calls);
  Workload v = workload(*fresh);
  DispatchOutcome after = fresh->dispatch(*v.program, v.inputs, v.grid);
  EXPECT_EQ(after.status, Status::Ok) << after.message;
}

TEST(FaultInjectingBackend, WrongBytesChangeOneRunOfAHundred) {
  auto backend = faulty("wrong-bytes@1");
  Workload w = workload(*backend);
  BatchOptions options;
  options.runs = 100;
  options.submissions = 10;
  BatchOutcome batch = backend->dispatch_runs(*w.program, w.inputs, w.grid, options);
  ASSERT_EQ(batch.status, Status::Ok) << batch.message;
  EXPECT_EQ(batch.first_outputs, w.expected);
  EXPECT_EQ(batch.differing_runs, 1u);
  ASSERT_EQ(batch.differing.size(), 1u);
  EXPECT_GE(batch.differing[0].run, 1u);
  EXPECT_LT(batch.differing[0].run, 100u);
  const ByteBuffer& good = w.expected.at("out");
  const ByteBuffer& bad = batch.differing[0].outputs.at("out");
  ASSERT_EQ(bad.size(), good.size());
  size_t differing_bytes = 0;
  for (size_t i = 0; i < good.size(); ++i) differing_bytes += good[i] != bad[i];
  EXPECT_EQ(differing_bytes, 1u);
  // The next batch is left alone.
  BatchOutcome next = backend->dispatch_runs(*w.program, w.inputs, w.grid, options);
  EXPECT_EQ(next.differing_runs, 0u);
}

/// out[i] = input[i] + 1 and a scratch buffer that sorts before `out` (as
/// graph.bfs's bfs_queue sorts before its findings): bfs_queue[i] = input[i].
constexpr std::string_view kAddOneWithScratch = R"(program {
  workgroup_size(64, 1, 1)
  buffer input: u32 read_only @0
  buffer out: u32 read_write @1
  buffer bfs_queue: u32 read_write @2
  let i = invocation_id.x
  if lt(i, buflen(input)) {
    out[i] = add(input[i], 1)
    bfs_queue[i] = input[i]
  }
})";

/// How many bytes of `a` and `b` (of one size) differ.
size_t bytes_differing(const ByteBuffer& a, const ByteBuffer& b) {
  EXPECT_EQ(a.size(), b.size());
  size_t n = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) n += a[i] != b[i];
  return n;
}

TEST(FaultInjectingBackend, WrongBytesHitAJudgedBufferNeverOnlyScratch) {
  auto program = parse_program(kAddOneWithScratch);
  ASSERT_TRUE(program.ok()) << program.error().message;
  std::vector<uint32_t> in(64), out(64);
  for (uint32_t i = 0; i < 64; ++i) {
    in[i] = i * 3;
    out[i] = i * 3 + 1;
  }
  const BufferSet inputs = {
      {"input", to_bytes(in)}, {"out", ByteBuffer(256, 0)}, {"bfs_queue", ByteBuffer(256, 0)}};
  const BufferSet expected = {{"out", to_bytes(out)}, {"bfs_queue", to_bytes(in)}};
  BatchOptions options;
  options.runs = 100;
  options.submissions = 10;
  options.scratch = {"bfs_queue"};
  auto backend = faulty("wrong-bytes@1+");
  CompileOutcome compiled = backend->compile(*program);
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
  const Grid grid{{1, 1, 1}};
  BatchOutcome batch = backend->dispatch_runs(*compiled.program, inputs, grid, options);
  ASSERT_EQ(batch.status, Status::Ok) << batch.message;
  EXPECT_EQ(batch.first_outputs, expected);
  EXPECT_EQ(batch.differing_runs, 1u);
  ASSERT_EQ(batch.differing.size(), 1u);
  // The corrupt run comes back as a backend returns it: without scratch.
  ASSERT_EQ(batch.differing[0].outputs.size(), 1u);
  EXPECT_EQ(bytes_differing(batch.differing[0].outputs.at("out"), expected.at("out")), 1u);
  // A batch of one run: run 0 itself, its scratch untouched.
  options.runs = 1;
  BatchOutcome one = backend->dispatch_runs(*compiled.program, inputs, grid, options);
  ASSERT_EQ(one.status, Status::Ok) << one.message;
  EXPECT_EQ(one.first_outputs.at("bfs_queue"), expected.at("bfs_queue"));
  EXPECT_EQ(bytes_differing(one.first_outputs.at("out"), expected.at("out")), 1u);
}

TEST(FaultInjectingBackend, TruncatedReadbackIsOneByteShort) {
  auto backend = faulty("truncate@1");
  Workload w = workload(*backend);
  DispatchOutcome out = backend->dispatch(*w.program, w.inputs, w.grid);
  ASSERT_EQ(out.status, Status::Ok);
  EXPECT_EQ(out.outputs.at("out").size(), 255u);
}

TEST(FaultInjectingBackend, AllocationFailureAndHangEndTheCallWithTheirStatus) {
  auto backend = faulty("alloc-fail@1,hang@2");
  Workload w = workload(*backend);
  BatchOptions options;
  options.runs = 10;
  BatchOutcome alloc = backend->dispatch_runs(*w.program, w.inputs, w.grid, options);
  EXPECT_EQ(alloc.status, Status::Error);
  EXPECT_NE(alloc.message.find("out of device memory"), std::string::npos) << alloc.message;
  EXPECT_LT(alloc.failed_run, 10u);
  DispatchOutcome hang = backend->dispatch(*w.program, w.inputs, w.grid);
  EXPECT_EQ(hang.status, Status::Timeout);
  EXPECT_NE(hang.message.find("did not finish within 50 ms"), std::string::npos) << hang.message;
}

TEST(FaultInjectingBackend, RefusesACrashOutsideAChildProcess) {
  auto plan = parse_fault_plan("crash@1");
  ASSERT_TRUE(plan.ok());
  auto made = inject_faults(make_reference_backend({}), {*plan, counter()});
  ASSERT_FALSE(made.ok());
  EXPECT_NE(made.error().message.find("needs the backend in a child process"), std::string::npos);
}

/// The reference backend with `spec`'s faults, in a child process.
std::unique_ptr<Backend> isolated_faulty(const std::string& spec,
                                         std::shared_ptr<FaultCallCounter> calls) {
  auto plan = parse_fault_plan(spec);
  EXPECT_TRUE(plan.ok());
  IsolationOptions options;
  options.call_timeout = std::chrono::milliseconds(2000);
  return isolate(
      [plan = *plan, calls]() -> Result<std::unique_ptr<Backend>> {
        return inject_faults(make_reference_backend({}), {plan, calls, true});
      },
      options);
}

TEST(FaultInjectingBackend, ACrashOrAHangInAChildFailsOneCallAndTheCountGoesOn) {
  auto calls = counter();
  auto backend = isolated_faulty("crash@2,hang@4", calls);
  Workload w = workload(*backend);
  std::vector<Status> statuses;
  std::vector<std::string> messages;
  for (int i = 0; i < 5; ++i) {
    DispatchOutcome out = backend->dispatch(*w.program, w.inputs, w.grid);
    statuses.push_back(out.status);
    messages.push_back(out.message);
  }
  // A count kept per child would crash the second child at its own call 2.
  EXPECT_EQ(statuses, (std::vector<Status>{Status::Ok, Status::Crashed, Status::Ok, Status::Timeout,
                                           Status::Ok}));
  EXPECT_NE(messages[1].find("backend process crashed"), std::string::npos) << messages[1];
  // A dispatch may take two call timeouts (isolate.h) before the child is killed.
  EXPECT_NE(messages[3].find("did not answer within 4000 ms"), std::string::npos) << messages[3];
}

/// The reference backend with a wrapper's questions answered otherwise:
/// how many processes it asks for (two, as NVIDIA's OpenCL), and its driver
/// cache's counts.
class AnsweringReference final : public Backend {
 public:
  AnsweringReference(uint32_t processes, std::optional<DriverCacheUse> cache)
      : processes_(processes), cache_(std::move(cache)) {}
  std::string name() const override { return inner_->name(); }
  Capabilities probe() override { return inner_->probe(); }
  CompileOutcome compile(const Program& program) override { return inner_->compile(program); }
  DispatchOutcome dispatch(const CompiledProgram& program, const BufferSet& inputs,
                           const Grid& grid) override {
    return inner_->dispatch(program, inputs, grid);
  }
  uint32_t useful_processes() const override { return processes_; }
  std::optional<DriverCacheUse> driver_cache() const override { return cache_; }

 private:
  uint32_t processes_;
  std::optional<DriverCacheUse> cache_;
  std::unique_ptr<Backend> inner_ = make_reference_backend({});
};

TEST(FaultInjectingBackend, SpreadOverTwoChildrenTheCountIsOneForBoth) {
  auto calls = counter();
  auto plan = parse_fault_plan("device-lost@3");
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  IsolationOptions options;
  options.call_timeout = std::chrono::milliseconds(20000);
  auto spread = start_isolated_spread(
      [plan = *plan, calls]() -> Result<std::unique_ptr<Backend>> {
        return inject_faults(std::make_unique<AnsweringReference>(2, std::nullopt),
                             {plan, calls, true});
      },
      options, 4);
  ASSERT_TRUE(spread.ok()) << spread.error().message;
  // The wrapper passes the backend's answer on, so the children are two.
  ASSERT_NE(dynamic_cast<isolation::SpreadBackend*>(spread->get()), nullptr);
  Backend& backend = **spread;
  // Compiled in turn: one program on each child.
  Workload first = workload(backend);
  Workload second = workload(backend);
  std::vector<Status> statuses;
  for (const Workload* w : {&first, &second, &first, &second}) {
    statuses.push_back(backend.dispatch(*w->program, w->inputs, w->grid).status);
  }
  // A count kept per child would reach 3 in neither of them.
  EXPECT_EQ(statuses,
            (std::vector<Status>{Status::Ok, Status::Ok, Status::DeviceLost, Status::Ok}));
}

TEST(FaultInjectingBackend, PassesTheDriverCacheCountsOn) {
  auto plan = parse_fault_plan("device-lost@3");
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  auto wrapped = inject_faults(
      std::make_unique<AnsweringReference>(1, DriverCacheUse{"/cache", "test cache", 3, 1, 0, 1}),
      {*plan, counter(), true});
  ASSERT_TRUE(wrapped.ok()) << wrapped.error().message;
  const std::optional<DriverCacheUse> cache = (*wrapped)->driver_cache();
  ASSERT_TRUE(cache.has_value()) << "report.json of a run with --inject-faults lost driver_cache";
  EXPECT_EQ(cache->hits, 3u);
  EXPECT_EQ(cache->misses, 1u);
  EXPECT_EQ(cache->what, "test cache");
}

}  // namespace
}  // namespace vyre
