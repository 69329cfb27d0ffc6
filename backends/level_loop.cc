// The default dispatch_levels: one dispatch() per level, the state carried
// on the host between levels.
#include "backends/level_loop.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace vyre {
namespace {

LevelLoopOutcome failed(Status status, std::string message) {
  LevelLoopOutcome out;
  out.status = status;
  out.message = std::move(message);
  return out;
}

/// The state's buffers the loop names, or why the loop cannot run on it.
std::optional<std::string> missing_buffer(const BufferSet& state, const LevelLoop& loop) {
  for (const std::string* name : {&loop.changed, &loop.level_buffer, &loop.current, &loop.next}) {
    if (!state.contains(*name)) return "the state has no buffer `" + *name + "`";
  }
  for (const std::string& name : loop.outputs) {
    if (!state.contains(name)) return "the state has no buffer `" + name + "`";
  }
  if (state.at(loop.changed).size() < 4) return "`" + loop.changed + "` holds no word";
  if (state.at(loop.level_buffer).size() < (uint64_t{loop.level_word} + 1) * 4) {
    return "`" + loop.level_buffer + "` has no word " + std::to_string(loop.level_word);
  }
  if (state.at(loop.current).size() != state.at(loop.next).size()) {
    return "`" + loop.current + "` and `" + loop.next + "` differ in length";
  }
  return std::nullopt;
}

/// Why a level's `outputs` cannot be carried into `state`, if they cannot.
std::optional<std::string> malformed(const BufferSet& state, const BufferSet& outputs,
                                     const LevelLoop& loop) {
  for (const std::string& name : loop.outputs) {
    auto it = outputs.find(name);
    const size_t expected = state.at(name).size();
    if (it == outputs.end() || it->second.size() != expected) {
      return "the backend returned buffer " + name + " " +
             (it == outputs.end() ? std::string("missing")
                                  : "with " + std::to_string(it->second.size()) + " bytes") +
             ", expected " + std::to_string(expected) + " bytes";
    }
  }
  return std::nullopt;
}

}  // namespace

LevelLoopOutcome Backend::dispatch_levels(const CompiledProgram& program, const BufferSet& initial,
                                          const Grid& grid, const LevelLoop& loop) {
  if (std::optional<std::string> problem = missing_buffer(initial, loop)) {
    return failed(Status::Error, "level loop: " + *problem);
  }
  LevelLoopOutcome out;
  BufferSet state = initial;
  for (uint32_t level = 0; level < loop.max_levels; ++level) {
    std::memcpy(state[loop.level_buffer].data() + uint64_t{loop.level_word} * 4, &level, 4);
    if (loop.on_submission) loop.on_submission();
    DispatchOutcome stepped = dispatch(program, state, grid);
    out.device_ms = add_device_ms(out.device_ms, stepped.timing.device_ms, level == 0);
    if (stepped.status != Status::Ok) {
      return failed(stepped.status, std::move(stepped.message));
    }
    if (std::optional<std::string> problem = malformed(state, stepped.outputs, loop)) {
      return failed(Status::BadOutput, *problem);
    }
    for (const std::string& name : loop.outputs) state[name] = std::move(stepped.outputs[name]);
    std::swap(state[loop.current], state[loop.next]);
    std::fill(state[loop.next].begin(), state[loop.next].end(), uint8_t{0});
    uint32_t changed = 0;
    std::memcpy(&changed, state[loop.changed].data(), 4);
    std::fill(state[loop.changed].begin(), state[loop.changed].end(), uint8_t{0});
    out.changed_words.push_back(changed);
    if (changed == 0) break;
  }
  out.status = Status::Ok;
  for (const std::string& name : loop.outputs) out.state[name] = std::move(state[name]);
  out.state[loop.current] = std::move(state[loop.current]);
  return out;
}

uint32_t next_level_group(uint32_t n, std::chrono::steady_clock::duration took,
                          std::chrono::milliseconds timeout) {
  using Duration = std::chrono::steady_clock::duration;
  const auto budget = std::chrono::duration_cast<Duration>(timeout) / 4;
  const auto per_level = std::max<Duration>(took / std::max<uint32_t>(n, 1), Duration{1});
  const auto fits = static_cast<uint64_t>(budget / per_level);
  const uint64_t most = std::clamp<uint64_t>(2 * uint64_t{n}, 1, kMaxLevelsPerWait);
  return static_cast<uint32_t>(std::clamp<uint64_t>(fits, 1, most));
}

}  // namespace vyre
