#include "backends/isolation/testing/fake_backend.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "backends/isolation/child_process.h"
#include "spec/ir/builder.h"
#include "spec/ir/host_words.h"

namespace vyre::isolation::testing {
namespace {

// The compiler cannot prove this null, so the write below really faults.
volatile uintptr_t g_null_address = 0;
bool g_hang_on_exit = false;
int g_live_programs = 0;

[[noreturn]] void sleep_forever() {
  for (;;) ::pause();
}

class FakeProgram final : public CompiledProgram {
 public:
  explicit FakeProgram(uint32_t w) : width(w) { ++g_live_programs; }
  ~FakeProgram() override { --g_live_programs; }
  const uint32_t width;
};

// Rendezvous dispatches running now, and the signal that one arrived.
std::mutex g_rendezvous_mutex;
std::condition_variable g_rendezvous_arrived;
int g_rendezvous_waiting = 0;

uint8_t rendezvous() {
  std::unique_lock lock(g_rendezvous_mutex);
  ++g_rendezvous_waiting;
  g_rendezvous_arrived.notify_all();
  const bool met = g_rendezvous_arrived.wait_for(lock, std::chrono::seconds(20),
                                                 [] { return g_rendezvous_waiting >= 2; });
  return met ? 1 : 0;
}

class FakeBackend final : public Backend {
 public:
  explicit FakeBackend(std::optional<DriverCacheUse> cache = std::nullopt)
      : cache_(std::move(cache)) {}

  ~FakeBackend() override {
    if (g_hang_on_exit) sleep_forever();
  }

  std::string name() const override { return "fake"; }

  Capabilities probe() override {
    Capabilities caps;
    caps.device_name = "fake device";
    caps.driver = "pid " + std::to_string(::getpid());
    caps.api = "none";
    caps.max_workgroup_invocations = 256;
    caps.max_workgroup_size = {256, 128, 64};
    caps.max_workgroup_count = {1000, 2000, 3000};
    caps.max_dispatch_invocations = uint64_t{1} << 24;
    caps.max_storage_buffer_bytes = 1 << 20;
    caps.max_uniform_buffer_bytes = 1 << 16;
    caps.max_workgroup_memory_bytes = 1 << 15;
    caps.preferred_workgroup_size = 32;
    return caps;
  }

  CompileOutcome compile(const Program& program) override {
    if (program.workgroup_size[0] == 3) return {Status::CompileError, kFakeRejection, nullptr};
    if (program.workgroup_size[0] == kHangingCompileWidth) sleep_forever();
    return {Status::Ok, "", std::make_shared<FakeProgram>(program.workgroup_size[0])};
  }

  bool compiles_concurrently() const override { return true; }
  uint32_t concurrent_dispatches() const override { return kFakeConcurrentDispatches; }
  uint32_t useful_processes() const override { return kFakeUsefulProcesses; }

  void prepare(const CompiledProgram& program) override {
    if (static_cast<const FakeProgram&>(program).width == kHangingPrepareWidth) sleep_forever();
    ++prepared_;
  }

  std::optional<DriverCacheUse> driver_cache() const override {
    if (!cache_) return std::nullopt;
    DriverCacheUse use = *cache_;
    use.misses += prepared_;
    use.stored += prepared_;
    return use;
  }

  DispatchOutcome dispatch(const CompiledProgram&, const BufferSet& inputs,
                           const Grid& grid) override {
    auto mode = static_cast<FakeMode>(inputs.at("mode").at(0));
    DispatchOutcome outcome{Status::Ok, "", {}, {}};
    ByteBuffer out = inputs.at("out");
    switch (mode) {
      case FakeMode::HangOnExit:
      case FakeMode::Slow:
      case FakeMode::Echo:
        if (mode == FakeMode::HangOnExit) g_hang_on_exit = true;
        if (mode == FakeMode::Slow) std::this_thread::sleep_for(kSlowDispatch);
        for (uint8_t& byte : out) byte = static_cast<uint8_t>(byte + grid.workgroups[0]);
        break;
      case FakeMode::Segfault:
        *reinterpret_cast<volatile int*>(g_null_address) = 1;
        break;
      case FakeMode::Abort:
        std::abort();
      case FakeMode::Exit3:
        std::_Exit(3);
      case FakeMode::Hang:
        sleep_forever();
      case FakeMode::Garbage: {
        const char garbage[] = "this is certainly not a frame header";
        ssize_t wrote = ::write(kChildReplyFd, garbage, sizeof garbage);
        (void)wrote;
        sleep_forever();
      }
      case FakeMode::BadStatus:
        outcome.status = static_cast<Status>(42);
        break;
      case FakeMode::CountPrograms:
        out.assign(4, 0);
        out[0] = static_cast<uint8_t>(g_live_programs);
        break;
      case FakeMode::Huge:
        out.assign(size_t{2} << 20, 0x5a);
        break;
      case FakeMode::ReportTimeout:
        return {Status::Timeout, "the fake's submission did not finish", {}, {}};
      case FakeMode::Pid:
        out = to_bytes({static_cast<uint32_t>(::getpid())});
        break;
      case FakeMode::Rendezvous:
        out = {rendezvous()};
        break;
    }
    outcome.outputs["out"] = std::move(out);
    return outcome;
  }

 private:
  const std::optional<DriverCacheUse> cache_;
  std::atomic<uint64_t> prepared_{0};
};

}  // namespace

IsolationOptions test_isolation_options(std::chrono::milliseconds call) {
  IsolationOptions options;
  options.startup_timeout = std::chrono::milliseconds(20000);
  options.call_timeout = call;
  options.shutdown_grace = std::chrono::milliseconds(500);
  return options;
}

std::unique_ptr<Backend> make_fake_backend() {
  return std::make_unique<FakeBackend>();
}

std::unique_ptr<Backend> make_fake_backend_with_cache(DriverCacheUse cache) {
  return std::make_unique<FakeBackend>(std::move(cache));
}

std::string cache_counts(const std::optional<DriverCacheUse>& use) {
  if (!use) return "none";
  return use->dir + "|" + use->what + "|" + std::to_string(use->hits) + " " +
         std::to_string(use->misses) + " " + std::to_string(use->rejected) + " " +
         std::to_string(use->stored);
}

Program fake_program(uint32_t width) {
  using namespace build;
  return Program{
      {storage("mode", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
      {width, 1, 1},
      {}};
}

BufferSet fake_inputs(FakeMode mode, ByteBuffer out) {
  return {{"mode", {static_cast<uint8_t>(mode), 0, 0, 0}}, {"out", std::move(out)}};
}

}  // namespace vyre::isolation::testing
