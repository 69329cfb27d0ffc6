// A level-synchronous loop of one program on a backend (Backend::
// dispatch_levels): the dataflow engine's BFS levels. Each level is one
// dispatch of the same program on the state the last one left, until a level
// leaves its `changed` word at 0 or the levels run out. The default runs each
// level as a dispatch() with the state on the host between them; a backend
// may keep the state on its device and run several levels per wait, as long
// as every level it runs after the first unchanged one leaves the state as it
// was (true of a program whose only writes are the ones that set `changed`,
// such as the engine's level program).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "backends/backend.h"

namespace vyre {

/// The buffers and bounds of a level loop, by BufferSet name.
struct LevelLoop {
  /// Most levels to dispatch.
  uint32_t max_levels = 0;
  /// A read_write buffer of one u32 that a level sets non-zero when it
  /// changed the state; it holds 0 as each level starts.
  std::string changed;
  /// The buffer (any access) and word that hold the level's index, 0 first.
  std::string level_buffer;
  uint32_t level_word = 0;
  /// After each level the bytes of `next` (read_write) become `current`'s,
  /// and `next` holds zeros again.
  std::string current;
  std::string next;
  /// The read_write buffers every level must return (`changed` and `next`
  /// among them): a level's outputs without one of them, or with another
  /// length than the state's, is Status::BadOutput.
  std::vector<std::string> outputs;
  /// Called as each wait for the device begins (each level's dispatch, or
  /// each group of levels), on the calling thread: an isolated backend's
  /// child reports progress with it. May be empty.
  std::function<void()> on_submission;
};

/// What dispatch_levels() did.
struct LevelLoopOutcome {
  /// Ok when every level dispatched finished; otherwise the failing one's.
  Status status = Status::Error;
  std::string message;
  /// `changed`'s word after each level dispatched, in order. The default
  /// stops after the first 0; a backend that runs levels ahead reports
  /// every level it ran, the caller checks that none after a 0 is non-zero.
  std::vector<uint32_t> changed_words;
  /// When Ok: LevelLoop::outputs and `current` after the last level, carried
  /// as between levels (`current` the last `next`, `next` and `changed` zeros).
  BufferSet state;
  /// The device's own time of the levels, in milliseconds; nullopt unless
  /// every level was measured.
  std::optional<double> device_ms;
};

/// Most levels a backend's device-resident loop runs per wait (OpenCL's and
/// Vulkan's): a long loop waits once per this many levels, one that ends
/// early runs at most this many past its end.
inline constexpr uint32_t kMaxLevelsPerWait = 32;

/// The size of a device loop's next group of levels after one of `n` levels
/// that took `took`: twice as many, at most kMaxLevelsPerWait, and no more
/// than take about a quarter of `timeout` (a level's) at this group's pace,
/// so that a group stays well within the two timeouts an isolated child's
/// parent allows between progress reports, even if its levels slow down.
uint32_t next_level_group(uint32_t n, std::chrono::steady_clock::duration took,
                          std::chrono::milliseconds timeout);

}  // namespace vyre
