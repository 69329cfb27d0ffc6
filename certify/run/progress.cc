#include "certify/run/progress.h"

#include <unistd.h>

#include <cstdio>

namespace vyre::certify {

Progress::Progress(size_t total, bool enabled)
    : total_(total), enabled_(enabled), terminal_(enabled && isatty(STDERR_FILENO)) {
  if (terminal_) ticker_ = std::jthread([this](std::stop_token stop) { tick(stop); });
}

Progress::~Progress() {
  if (ticker_.joinable()) {
    ticker_.request_stop();
    ticker_.join();
  }
  if (terminal_) std::fprintf(stderr, "\r\033[K");
}

void Progress::start(size_t index, std::string_view id) {
  std::lock_guard lock(mutex_);
  index_ = index;
  id_ = id;
  case_start_ = Clock::now();
  draw();
}

void Progress::finish(const CaseResult& r) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  const size_t done = index_ + 1;
  if (r.verdict != Verdict::Pass) {
    std::fprintf(stderr, "%s[%zu/%zu] %s: %s\n", terminal_ ? "\r\033[K" : "", done, total_,
                 r.id.c_str(), std::string(name_of(r.verdict)).c_str());
  }
  if (!terminal_ && (done * 10 / total_ != (done - 1) * 10 / total_ || done == total_)) {
    std::fprintf(stderr, "[%zu/%zu] cases run, %s elapsed\n", done, total_,
                 clock_text(seconds_since(run_start_)).c_str());
  }
}

void Progress::tick(std::stop_token stop) {
  std::unique_lock lock(mutex_);
  while (!stop.stop_requested()) {
    wake_.wait_for(lock, stop, std::chrono::seconds(1), [] { return false; });
    if (!stop.stop_requested()) draw();
  }
}

void Progress::draw() {
  if (!terminal_ || id_.empty()) return;
  const std::string line =
      progress_line(index_, total_, id_, seconds_since(run_start_), seconds_since(case_start_));
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
}

std::chrono::seconds Progress::seconds_since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - start);
}

std::string clock_text(std::chrono::seconds elapsed) {
  const long long total = elapsed.count() < 0 ? 0 : elapsed.count();
  char text[32];
  if (total >= 3600) {
    std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", total / 3600, total / 60 % 60,
                  total % 60);
  } else {
    std::snprintf(text, sizeof text, "%lld:%02lld", total / 60, total % 60);
  }
  return text;
}

std::string progress_line(size_t index, size_t total, std::string_view id,
                          std::chrono::seconds run_elapsed, std::chrono::seconds case_elapsed) {
  // One terminal row: a line that wraps would leave its first part behind
  // when \r rewrites it. The id is what gives way.
  constexpr size_t kColumns = 79;
  const std::string head = "[" + std::to_string(index + 1) + "/" + std::to_string(total) + "] " +
                           clock_text(run_elapsed) + " running ";
  const std::string tail = " (" + clock_text(case_elapsed) + ")";
  std::string shown(id);
  const size_t room =
      kColumns > head.size() + tail.size() ? kColumns - head.size() - tail.size() : 0;
  if (shown.size() > room)
    shown = (room > 3 ? "..." + shown.substr(shown.size() - (room - 3)) : "");
  return head + shown + tail;
}

}  // namespace vyre::certify
