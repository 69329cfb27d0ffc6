// Length-prefixed messages over a pipe, with deadlines. Every wait goes
// through poll() so a silent peer costs at most the deadline; EINTR, partial
// reads and writes, and a peer that closed its end are all handled here.
//
// A frame on the wire: magic u32, kind u32, payload size u64 (little-endian),
// then the payload.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace vyre::isolation {

/// When an operation gives up; nullopt waits as long as it takes.
using Deadline = std::optional<std::chrono::steady_clock::time_point>;

/// A deadline `timeout` from now.
Deadline deadline_in(std::chrono::milliseconds timeout);

/// Why a pipe operation failed.
struct ChannelFailure {
  enum class Kind : uint8_t {
    Closed,     ///< The peer closed its end (or died).
    TimedOut,   ///< The deadline passed.
    Malformed,  ///< Bytes arrived that are not a frame.
    System,     ///< An unexpected system error.
  };
  Kind kind;
  std::string detail;
};

/// One message: its kind and payload.
struct Frame {
  uint32_t kind = 0;
  std::vector<uint8_t> payload;
};

/// Bytes of a frame header.
inline constexpr size_t kFrameHeaderBytes = 16;
/// First word of every frame ("VYRF" read as little-endian bytes).
inline constexpr uint32_t kFrameMagic = 0x46525956;

/// Writes one frame, all of it, or says why not.
std::optional<ChannelFailure> write_frame(int fd, const Frame& frame, Deadline deadline);

/// Reads one frame; a payload over `max_payload` bytes is Malformed.
std::variant<Frame, ChannelFailure> read_frame(int fd, Deadline deadline, uint64_t max_payload);

/// read_frame() into `frame`, reusing its payload's memory (a caller reading
/// many large frames avoids faulting fresh pages in for each).
std::optional<ChannelFailure> read_frame_into(int fd, Deadline deadline, uint64_t max_payload,
                                              Frame& frame);

/// Makes writing to a pipe whose reader is gone fail with EPIPE instead of
/// killing the process; changes SIGPIPE only while it is at its default.
void ignore_sigpipe();

}  // namespace vyre::isolation
