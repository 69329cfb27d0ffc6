// Frames over real pipes: large payloads, deadlines, closed ends, garbage,
// and signals interrupting the waits.
#include "backends/isolation/frame_io.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/time.h>
#include <unistd.h>

#include <csignal>
#include <thread>

namespace vyre::isolation {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// A pipe whose ends are non-blocking, as the parent's are.
class TestPipe {
 public:
  TestPipe() { EXPECT_EQ(::pipe2(fds_, O_CLOEXEC | O_NONBLOCK), 0); }
  ~TestPipe() {
    close_read();
    close_write();
  }
  int read_end() const { return fds_[0]; }
  int write_end() const { return fds_[1]; }
  void close_read() { close(fds_[0]); }
  void close_write() { close(fds_[1]); }
  void write_raw(const std::vector<uint8_t>& bytes) {
    ASSERT_EQ(::write(fds_[1], bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  }

 private:
  static void close(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  int fds_[2] = {-1, -1};
};

std::vector<uint8_t> header(uint32_t magic, uint32_t kind, uint64_t size) {
  std::vector<uint8_t> out;
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(magic >> (8 * i)));
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(kind >> (8 * i)));
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(size >> (8 * i)));
  return out;
}

ChannelFailure failure_of(const std::variant<Frame, ChannelFailure>& result) {
  EXPECT_TRUE(std::holds_alternative<ChannelFailure>(result));
  return std::holds_alternative<ChannelFailure>(result) ? std::get<ChannelFailure>(result)
                                                        : ChannelFailure{};
}

TEST(FrameIo, HeaderIsMagicKindSizeLittleEndian) {
  TestPipe pipe;
  ASSERT_FALSE(
      write_frame(pipe.write_end(), Frame{0x0102, {9, 8, 7}}, deadline_in(milliseconds(1000))));
  std::vector<uint8_t> raw(kFrameHeaderBytes + 3);
  ASSERT_EQ(::read(pipe.read_end(), raw.data(), raw.size()), static_cast<ssize_t>(raw.size()));
  std::vector<uint8_t> expected = {'V', 'Y', 'R', 'F', 0x02, 0x01, 0, 0, 3, 0,
                                   0,   0,   0,   0,   0,    0,    9, 8, 7};
  EXPECT_EQ(raw, expected);
}

TEST(FrameIo, PayloadLargerThanThePipeArrivesWhole) {
  TestPipe pipe;
  Frame sent{7, std::vector<uint8_t>(size_t{3} << 20)};
  for (size_t i = 0; i < sent.payload.size(); ++i) sent.payload[i] = static_cast<uint8_t>(i % 251);
  std::optional<ChannelFailure> write_failure;
  std::thread writer([&] {
    write_failure = write_frame(pipe.write_end(), sent, deadline_in(milliseconds(10000)));
  });
  auto got = read_frame(pipe.read_end(), deadline_in(milliseconds(10000)), 1 << 30);
  writer.join();
  EXPECT_FALSE(write_failure);
  ASSERT_TRUE(std::holds_alternative<Frame>(got));
  EXPECT_EQ(std::get<Frame>(got).kind, 7u);
  EXPECT_EQ(std::get<Frame>(got).payload, sent.payload);
}

TEST(FrameIo, SilentWriterTimesOut) {
  TestPipe pipe;
  auto start = Clock::now();
  ChannelFailure failure =
      failure_of(read_frame(pipe.read_end(), deadline_in(milliseconds(200)), 64));
  EXPECT_EQ(failure.kind, ChannelFailure::Kind::TimedOut);
  EXPECT_GE(Clock::now() - start, milliseconds(200));
  // It comes back (a generous bound: the timeout, not the clock, is the subject).
  EXPECT_LT(Clock::now() - start, milliseconds(30000));
}

TEST(FrameIo, ClosedWriterIsClosed) {
  TestPipe pipe;
  pipe.close_write();
  ChannelFailure failure =
      failure_of(read_frame(pipe.read_end(), deadline_in(milliseconds(1000)), 64));
  EXPECT_EQ(failure.kind, ChannelFailure::Kind::Closed);
  EXPECT_EQ(failure.detail, "the writer closed the pipe");
}

TEST(FrameIo, WriterClosingMidMessageIsClosed) {
  TestPipe pipe;
  std::vector<uint8_t> raw = header(kFrameMagic, 1, 100);
  raw.resize(raw.size() + 10, 0);
  pipe.write_raw(raw);
  pipe.close_write();
  ChannelFailure failure =
      failure_of(read_frame(pipe.read_end(), deadline_in(milliseconds(1000)), 1000));
  EXPECT_EQ(failure.kind, ChannelFailure::Kind::Closed);
  EXPECT_EQ(failure.detail, "the writer closed the pipe in the middle of a message");
}

TEST(FrameIo, WrongMagicIsMalformed) {
  TestPipe pipe;
  pipe.write_raw(header(0x41414141, 1, 0));
  ChannelFailure failure =
      failure_of(read_frame(pipe.read_end(), deadline_in(milliseconds(1000)), 64));
  EXPECT_EQ(failure.kind, ChannelFailure::Kind::Malformed);
  EXPECT_EQ(failure.detail, "a message started with 0x41414141 instead of the magic");
}

TEST(FrameIo, OversizedMessageIsRejectedBeforeItsPayload) {
  TestPipe pipe;
  pipe.write_raw(header(kFrameMagic, 1, uint64_t{1} << 40));
  ChannelFailure failure =
      failure_of(read_frame(pipe.read_end(), deadline_in(milliseconds(1000)), 1 << 20));
  EXPECT_EQ(failure.kind, ChannelFailure::Kind::Malformed);
  EXPECT_EQ(failure.detail, "a message announced 1099511627776 bytes, over the limit of 1048576");
}

TEST(FrameIo, WritingToAClosedReaderIsClosedNotSigpipe) {
  ignore_sigpipe();
  TestPipe pipe;
  pipe.close_read();
  auto failure =
      write_frame(pipe.write_end(), Frame{1, {1, 2, 3}}, deadline_in(milliseconds(1000)));
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->kind, ChannelFailure::Kind::Closed);
}

TEST(FrameIo, WriterTimesOutWhenNobodyReads) {
  TestPipe pipe;
  auto start = Clock::now();
  auto failure = write_frame(pipe.write_end(), Frame{1, std::vector<uint8_t>(size_t{4} << 20)},
                             deadline_in(milliseconds(200)));
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->kind, ChannelFailure::Kind::TimedOut);
  EXPECT_LT(Clock::now() - start, milliseconds(30000));  // It comes back.
}

// A handler without SA_RESTART makes poll() and read() fail with EINTR.
void on_alarm(int) {}

TEST(FrameIo, SignalsNeitherCutWaitsShortNorLoseData) {
  struct sigaction action {};
  action.sa_handler = on_alarm;
  struct sigaction previous {};
  ASSERT_EQ(::sigaction(SIGALRM, &action, &previous), 0);
  itimerval every_10ms{{0, 10000}, {0, 10000}};
  ASSERT_EQ(::setitimer(ITIMER_REAL, &every_10ms, nullptr), 0);

  TestPipe pipe;
  auto start = Clock::now();
  ChannelFailure failure =
      failure_of(read_frame(pipe.read_end(), deadline_in(milliseconds(150)), 64));
  EXPECT_EQ(failure.kind, ChannelFailure::Kind::TimedOut) << failure.detail;
  EXPECT_GE(Clock::now() - start, milliseconds(150));

  std::thread writer([&] {
    std::this_thread::sleep_for(milliseconds(100));
    EXPECT_FALSE(write_frame(pipe.write_end(), Frame{5, {1, 2}}, deadline_in(milliseconds(30000))));
  });
  // Generous: the read returns as soon as the frame is there.
  auto got = read_frame(pipe.read_end(), deadline_in(milliseconds(30000)), 64);
  writer.join();

  itimerval off{};
  ::setitimer(ITIMER_REAL, &off, nullptr);
  ::sigaction(SIGALRM, &previous, nullptr);
  ASSERT_TRUE(std::holds_alternative<Frame>(got));
  EXPECT_EQ(std::get<Frame>(got).payload, (std::vector<uint8_t>{1, 2}));
}

}  // namespace
}  // namespace vyre::isolation
