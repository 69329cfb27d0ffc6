#include "certify/run/certification_run.h"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>

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

/// Progress on a terminal: one rewritten line; elsewhere one line per 10%.
class Progress {
 public:
  Progress(size_t total, bool enabled) : total_(total), enabled_(enabled), tty_(isatty(2)) {}
  void update(size_t done, const CaseResult& r) {
    if (!enabled_) return;
    if (r.verdict != Verdict::Pass) {
      std::fprintf(stderr, "%s[%zu/%zu] %s: %s\n", tty_ ? "\r\033[K" : "", done, total_,
                   r.id.c_str(), std::string(name_of(r.verdict)).c_str());
    }
    if (tty_) {
      std::fprintf(stderr, "\r\033[K[%zu/%zu] %s", done, total_, r.id.c_str());
    } else if (done * 10 / total_ != (done - 1) * 10 / total_ || done == total_) {
      std::fprintf(stderr, "[%zu/%zu] cases run\n", done, total_);
    }
    if (tty_ && done == total_) std::fprintf(stderr, "\n");
  }

 private:
  size_t total_;
  bool enabled_;
  bool tty_;
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

  auto probe_start = Clock::now();
  report.device = backend.probe();
  report.phase_us["probe"] = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - probe_start).count());

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
    CaseResult r = run_case(backend, *chosen[i], run_options, write_repro);
    report.phase_us["compile"] += r.compile_us;
    report.phase_us["dispatch"] += r.backend_us;
    report.phase_us["reference"] += r.reference_us;
    progress.update(i + 1, r);
    report.cases.push_back(std::move(r));
  }
  report.wall_us = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count());
  judge(report);
  return report;
}

void judge(Report& report) {
  report.levels.clear();
  report.certified = true;
  report.reason.clear();
  for (Level level : all_levels()) {
    if (level > report.requested_level) break;
    LevelSummary s;
    s.level = level;
    for (const CaseResult& c : report.cases) {
      if (c.level != level) continue;
      ++s.cases;
      if (c.verdict == Verdict::Pass) ++s.passed;
      if (c.verdict == Verdict::NotSupported) ++s.not_supported;
      if (c.verdict != Verdict::Pass && c.verdict != Verdict::NotSupported) ++s.failed;
    }
    if (s.cases == 0) {
      s.reason = "no case ran at this level";
    } else if (s.failed > 0) {
      s.reason = std::to_string(s.failed) + " case(s) failed";
    } else if (s.not_supported > 0) {
      s.reason = std::to_string(s.not_supported) + " case(s) not supported";
    }
    s.certified = s.reason.empty();
    if (!s.certified && report.certified) {
      report.certified = false;
      report.reason = std::string(name_of(level)) + ": " + s.reason;
    }
    report.levels.push_back(s);
  }
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
