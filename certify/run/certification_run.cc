#include "certify/run/certification_run.h"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <stop_token>
#include <thread>

#include "certify/report/report_json.h"
#include "certify/report/report_writers.h"
#include "certify/run/case_runner.h"
#include "spec/text/text_format.h"

namespace vyre::certify {
namespace {

using Clock = std::chrono::steady_clock;

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

bool selected(const SuiteCase& c, const CertifyOptions& o) {
  if (c.level > o.level) return false;
  return o.filter.empty() || fnmatch(o.filter.c_str(), c.id.c_str(), 0) == 0;
}

std::string file_name_for(std::string_view id) {
  std::string out;
  for (char ch : id) out += (std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_');
  return out;
}

Result<Ok> write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  if (!f) return Error{"cannot write " + path.string()};
  f << text;
  f.close();
  if (!f) return Error{"cannot write " + path.string() + " (disk full?)"};
  return Ok{};
}

/// The device's preferred workgroup size as a size the suite may run at: 0
/// (unknown) means 64, and it never exceeds what the device says it accepts
/// along x or in all.
uint32_t usable_workgroup_size(const Capabilities& device) {
  uint32_t size = device.preferred_workgroup_size != 0 ? device.preferred_workgroup_size : 64;
  if (device.max_workgroup_size[0] != 0) size = std::min(size, device.max_workgroup_size[0]);
  if (device.max_workgroup_invocations != 0) {
    size = std::min(size, device.max_workgroup_invocations);
  }
  return size;
}

/// Progress of a run on stderr. On a terminal: one line, rewritten in place,
/// naming the case being run with the elapsed time of the run and of the case,
/// redrawn every second so a long case shows it is still going. Elsewhere
/// (a log, CI): a plain line per tenth of the cases. Cases that did not pass
/// get a line of their own either way. Disabled (--quiet): nothing.
class Progress {
 public:
  Progress(size_t total, bool enabled)
      : total_(total), enabled_(enabled), terminal_(enabled && isatty(STDERR_FILENO)) {
    if (terminal_) ticker_ = std::jthread([this](std::stop_token stop) { tick(stop); });
  }
  ~Progress() {
    if (ticker_.joinable()) {
      ticker_.request_stop();
      ticker_.join();
    }
    if (terminal_) std::fprintf(stderr, "\r\033[K");
  }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// Case `index` (0-based) starts.
  void start(size_t index, std::string_view id) {
    std::lock_guard lock(mutex_);
    index_ = index;
    id_ = id;
    case_start_ = Clock::now();
    draw();
  }

  /// The case started last has finished with `r`.
  void finish(const CaseResult& r) {
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

 private:
  void tick(std::stop_token stop) {
    std::unique_lock lock(mutex_);
    while (!stop.stop_requested()) {
      wake_.wait_for(lock, stop, std::chrono::seconds(1), [] { return false; });
      if (!stop.stop_requested()) draw();
    }
  }

  /// Rewrites the terminal line; the caller holds mutex_.
  void draw() {
    if (!terminal_ || id_.empty()) return;
    const std::string line =
        progress_line(index_, total_, id_, seconds_since(run_start_), seconds_since(case_start_));
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    std::fflush(stderr);
  }

  static std::chrono::seconds seconds_since(Clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - start);
  }

  const size_t total_;
  const bool enabled_;
  const bool terminal_;
  const Clock::time_point run_start_ = Clock::now();
  std::mutex mutex_;
  size_t index_ = 0;
  std::string id_;
  Clock::time_point case_start_ = run_start_;
  /// Wakes the ticker once a second, or at once when it is asked to stop.
  std::condition_variable_any wake_;
  std::jthread ticker_;
};

}  // namespace

Report run_certification(Backend& backend, const std::vector<SuiteCase>& cases,
                         const CertifyOptions& options) {
  auto start = Clock::now();
  Report report;
  report.backend = options.backend.empty() ? backend.name() : options.backend;
  report.seed = options.seed;
  report.runs = options.runs;
  report.filter = options.filter;
  report.requested_level = options.level;
  report.started_utc = utc_now();

  // The caller opened the backend and probed it (its "open" phase); this is
  // the backend's kept answer.
  report.device = backend.probe();

  std::vector<const SuiteCase*> chosen;
  for (const SuiteCase& c : cases) {
    if (selected(c, options)) chosen.push_back(&c);
  }
  std::filesystem::path repro_dir = std::filesystem::path(options.out_dir) / "repro";
  auto write_repro = [&](const Repro& repro) -> std::string {
    const TestCase& tc = repro.test_case;
    // A case past the text format's data limit would print a file that no
    // parser accepts back; the report keeps its (truncated) bytes instead.
    uint64_t data_bytes = 0;
    for (const auto& [name, bytes] : tc.inputs) data_bytes += bytes.size();
    if (tc.expected) {
      for (const auto& [name, bytes] : *tc.expected) data_bytes += bytes.size();
    }
    if (data_bytes > kMaxCaseDataBytes) return "";
    std::error_code ec;
    std::filesystem::create_directories(repro_dir, ec);
    std::string name = file_name_for(tc.name) + ".vyre";
    std::string text = std::string(kReproMarker) + tc.name + "\n";
    if (std::string how = comparison_line(repro.comparison); !how.empty()) text += how + "\n";
    text += print_case(tc);
    if (ec || !write_file(repro_dir / name, text).ok()) return "";
    return "repro/" + name;
  };

  CaseRunOptions run_options;
  run_options.runs = options.runs;
  run_options.preferred_workgroup_size = usable_workgroup_size(report.device);
  Progress progress(chosen.size(), options.progress);
  for (size_t i = 0; i < chosen.size(); ++i) {
    progress.start(i, chosen[i]->id);
    CaseResult r = run_case(backend, *chosen[i], run_options, write_repro);
    report.phase_us["compile"] += r.compile_us;
    report.phase_us["dispatch"] += r.backend_us;
    report.phase_us["reference"] += r.reference_us;
    progress.finish(r);
    report.cases.push_back(std::move(r));
  }
  judge(report);
  report.wall_us = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count());
  record_other_time(report);
  return report;
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

void record_other_time(Report& report) {
  uint64_t measured = 0;
  for (const auto& [phase, us] : report.phase_us) {
    if (phase != kOtherPhase) measured += us;
  }
  report.phase_us[std::string(kOtherPhase)] =
      report.wall_us > measured ? report.wall_us - measured : 0;
}

Result<Ok> clear_old_repros(const std::string& out_dir) {
  const std::filesystem::path dir = std::filesystem::path(out_dir) / "repro";
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) return Ok{};
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file(ec) || entry.path().extension() != ".vyre") continue;
    std::ifstream f(entry.path(), std::ios::binary);
    std::string first(kReproMarker.size(), '\0');
    f.read(first.data(), static_cast<std::streamsize>(first.size()));
    if (!f || first != kReproMarker) continue;  // not ours: leave it
    f.close();
    if (!std::filesystem::remove(entry.path(), ec)) {
      return Error{"cannot remove the old repro " + entry.path().string() + ": " + ec.message()};
    }
  }
  if (ec) return Error{"cannot list " + dir.string() + ": " + ec.message()};
  return Ok{};
}

Result<Ok> write_reports(const Report& report, const std::string& out_dir) {
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) return Error{"cannot create output folder " + out_dir + ": " + ec.message()};
  std::filesystem::path dir(out_dir);
  nlohmann::json json = with_certificate(report_to_json(report));
  // Backends' text is made UTF-8 where it enters (plugin host); replacing
  // here too means no string can make the writer throw.
  const std::string text = json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  if (auto r = write_file(dir / "report.json", text + "\n"); !r) return r.error();
  if (auto r = write_file(dir / "report.md", report_markdown(report)); !r) return r.error();
  if (auto r = write_file(dir / "junit.xml", report_junit(report)); !r) return r.error();
  return Ok{};
}

}  // namespace vyre::certify
