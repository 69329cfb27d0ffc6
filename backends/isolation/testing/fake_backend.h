// A backend for isolation tests that acts out a failure on request: each
// dispatch reads the first byte of its input buffer "mode" as a FakeMode.
// It must only ever run inside an isolated child process.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "backends/backend.h"
#include "backends/isolation/isolate.h"
#include "spec/ir/program.h"

namespace vyre::isolation::testing {

/// What a dispatch of the fake backend does.
enum class FakeMode : uint8_t {
  Echo = 0,            ///< out[i] = out[i] + grid x, byte by byte (mod 256).
  Segfault = 1,        ///< Writes through a null pointer.
  Abort = 2,           ///< std::abort().
  Exit3 = 3,           ///< _Exit(3).
  Hang = 4,            ///< Sleeps forever.
  Garbage = 5,         ///< Writes non-frame bytes on the reply pipe, then sleeps forever.
  BadStatus = 6,       ///< Returns status code 42.
  CountPrograms = 7,   ///< out = live compiled programs in this process (u32).
  HangOnExit = 8,      ///< Like Echo, and the backend's destructor then sleeps forever.
  Huge = 9,            ///< Returns a 2 MiB "out" buffer.
  ReportTimeout = 10,  ///< Returns Status::Timeout, as a backend whose submission hung.
  Pid = 11,            ///< out = this process's id (u32).
  /// Waits (at most 20 s) until another Rendezvous dispatch is running too;
  /// out = 1 if one came, 0 if not.
  Rendezvous = 12,
  /// Like Echo after sleeping kSlowDispatch.
  Slow = 13,
};

/// How long a FakeMode::Slow dispatch sleeps.
inline constexpr std::chrono::milliseconds kSlowDispatch{200};

/// Compile hangs on workgroup size x == 5 (a compiler that never ends).
inline constexpr uint32_t kHangingCompileWidth = 5;
/// prepare() hangs on workgroup size x == 7 (a driver's build that never ends).
inline constexpr uint32_t kHangingPrepareWidth = 7;
/// What the fake reports for concurrent_dispatches() (compiles_concurrently() is true).
inline constexpr uint32_t kFakeConcurrentDispatches = 4;
/// What the fake reports for useful_processes().
inline constexpr uint32_t kFakeUsefulProcesses = 3;

/// Compile rejects workgroup_size x == 3 with this CompileError message.
inline constexpr const char* kFakeRejection = "the fake backend refuses workgroup size 3";

/// Isolation limits for tests: generous start-up (20 s), `call` per call and
/// 500 ms of shutdown grace; under sanitizers a child takes a while to start
/// and to report a crash.
IsolationOptions test_isolation_options(
    std::chrono::milliseconds call = std::chrono::milliseconds(20000));

/// The fake backend: name "fake", device "fake device", driver "pid N".
std::unique_ptr<Backend> make_fake_backend();

/// The fake backend keeping an on-disk driver cache, as a real one given a
/// cache_dir: driver_cache() reports `cache` plus one miss and one stored
/// entry for each prepare() it ran (in its own process: a child's own
/// count). make_fake_backend()'s keeps none (nullopt).
std::unique_ptr<Backend> make_fake_backend_with_cache(DriverCacheUse cache);

/// `use` in one line for tests to compare: "DIR|WHAT|hits misses rejected
/// stored", or "none".
std::string cache_counts(const std::optional<DriverCacheUse>& use);

/// A program with buffers "mode" (read_only) and "out" (read_write) and an
/// empty body; `width` is its workgroup size x.
Program fake_program(uint32_t width = 1);

/// Inputs for fake_program: mode byte and out's initial bytes.
BufferSet fake_inputs(FakeMode mode, ByteBuffer out);

}  // namespace vyre::isolation::testing
