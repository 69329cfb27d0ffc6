#include "backends/isolation/frame_io.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "spec/ir/host_words.h"

namespace vyre::isolation {
namespace {

using Clock = std::chrono::steady_clock;

// Payloads are read in slices, and at most this much is reserved up front, so
// a garbage length costs little memory; a real payload up to it grows without
// being copied again.
constexpr size_t kReadSlice = size_t{1} << 20;
constexpr uint64_t kMaxUpFrontReserve = uint64_t{64} << 20;

ChannelFailure system_failure(const char* what) {
  return {ChannelFailure::Kind::System, std::string(what) + ": " + std::strerror(errno)};
}

// Waits until `fd` is ready for `events` (or hung up); EINTR restarts the
// wait with what is left of the deadline.
std::optional<ChannelFailure> wait_ready(int fd, short events, Deadline deadline) {
  for (;;) {
    int timeout_ms = -1;
    if (deadline) {
      auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now());
      if (left.count() <= 0) return ChannelFailure{ChannelFailure::Kind::TimedOut, "timed out"};
      timeout_ms = static_cast<int>(std::min<int64_t>(left.count(), 1 << 30));
    }
    pollfd entry{fd, events, 0};
    int ready = ::poll(&entry, 1, timeout_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      return system_failure("poll");
    }
    if (ready == 0) continue;  // The loop head decides whether the deadline passed.
    if (entry.revents & POLLNVAL) {
      return ChannelFailure{ChannelFailure::Kind::System, "poll: descriptor not open"};
    }
    return std::nullopt;  // Readable, writable, or hung up: the next read/write tells.
  }
}

std::optional<ChannelFailure> write_all(int fd, std::span<const uint8_t> bytes, Deadline deadline) {
  while (!bytes.empty()) {
    ssize_t wrote = ::write(fd, bytes.data(), bytes.size());
    if (wrote > 0) {
      bytes = bytes.subspan(static_cast<size_t>(wrote));
      continue;
    }
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (auto failure = wait_ready(fd, POLLOUT, deadline)) return failure;
      continue;
    }
    if (wrote < 0 && errno == EPIPE) {
      return ChannelFailure{ChannelFailure::Kind::Closed, "the reader closed the pipe"};
    }
    return system_failure("write");
  }
  return std::nullopt;
}

// Reads exactly bytes.size() bytes. `started` says whether part of the frame
// was already read, so a close then is reported as a cut-off message.
std::optional<ChannelFailure> read_exact(int fd, std::span<uint8_t> bytes, Deadline deadline,
                                         bool started) {
  size_t got = 0;
  while (got < bytes.size()) {
    if (auto failure = wait_ready(fd, POLLIN, deadline)) return failure;
    ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
    if (n > 0) {
      got += static_cast<size_t>(n);
      continue;
    }
    if (n == 0) {
      bool mid_frame = started || got > 0;
      return ChannelFailure{ChannelFailure::Kind::Closed,
                            mid_frame ? "the writer closed the pipe in the middle of a message"
                                      : "the writer closed the pipe"};
    }
    if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
    return system_failure("read");
  }
  return std::nullopt;
}

}  // namespace

Deadline deadline_in(std::chrono::milliseconds timeout) {
  return Clock::now() + timeout;
}

std::optional<ChannelFailure> write_frame(int fd, const Frame& frame, Deadline deadline) {
  ByteBuffer header;
  header.reserve(kFrameHeaderBytes);
  append_le(header, kFrameMagic, 4);
  append_le(header, frame.kind, 4);
  append_le(header, frame.payload.size(), 8);
  if (auto failure = write_all(fd, header, deadline)) return failure;
  return write_all(fd, frame.payload, deadline);
}

std::variant<Frame, ChannelFailure> read_frame(int fd, Deadline deadline, uint64_t max_payload) {
  Frame frame;
  if (auto failure = read_frame_into(fd, deadline, max_payload, frame)) return *failure;
  return frame;
}

std::optional<ChannelFailure> read_frame_into(int fd, Deadline deadline, uint64_t max_payload,
                                              Frame& frame) {
  uint8_t header[kFrameHeaderBytes];
  if (auto failure = read_exact(fd, header, deadline, false)) return failure;
  uint32_t magic = static_cast<uint32_t>(read_le(std::span<const uint8_t>(header, 4)));
  if (magic != kFrameMagic) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08x", magic);
    return ChannelFailure{ChannelFailure::Kind::Malformed,
                          std::string("a message started with ") + hex + " instead of the magic"};
  }
  frame.kind = static_cast<uint32_t>(read_le(std::span<const uint8_t>(header + 4, 4)));
  uint64_t size = read_le(std::span<const uint8_t>(header + 8, 8));
  if (size > max_payload) {
    return ChannelFailure{ChannelFailure::Kind::Malformed,
                          "a message announced " + std::to_string(size) +
                              " bytes, over the limit of " + std::to_string(max_payload)};
  }
  frame.payload.clear();
  frame.payload.reserve(static_cast<size_t>(std::min(size, kMaxUpFrontReserve)));
  while (frame.payload.size() < size) {
    size_t before = frame.payload.size();
    size_t slice = static_cast<size_t>(std::min<uint64_t>(size - before, kReadSlice));
    frame.payload.resize(before + slice);
    if (auto failure =
            read_exact(fd, std::span(frame.payload).subspan(before, slice), deadline, true)) {
      return failure;
    }
  }
  return std::nullopt;
}

void ignore_sigpipe() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction current {};
    if (::sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
      ::signal(SIGPIPE, SIG_IGN);
    }
  });
}

}  // namespace vyre::isolation
