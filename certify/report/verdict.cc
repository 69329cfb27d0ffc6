// Verdicts: of one case (from a backend status) and, by `judge`, of each
// level and of the whole run.
#include "certify/report/report.h"

namespace vyre::certify {

std::string_view name_of(Verdict v) {
  switch (v) {
    case Verdict::Pass:
      return "pass";
    case Verdict::Fail:
      return "fail";
    case Verdict::NotSupported:
      return "not supported";
    case Verdict::CompileError:
      return "compile error";
    case Verdict::DeviceLost:
      return "device lost";
    case Verdict::Timeout:
      return "timeout";
    case Verdict::BadOutput:
      return "bad output";
    case Verdict::Error:
      return "error";
    case Verdict::InvalidCase:
      return "invalid case";
    case Verdict::Crashed:
      return "crashed";
  }
  return "?";
}

Verdict verdict_of(Status s) {
  switch (s) {
    case Status::Ok:
      return Verdict::Pass;
    case Status::NotSupported:
      return Verdict::NotSupported;
    case Status::CompileError:
      return Verdict::CompileError;
    case Status::DeviceLost:
      return Verdict::DeviceLost;
    case Status::Timeout:
      return Verdict::Timeout;
    case Status::BadOutput:
      return Verdict::BadOutput;
    case Status::Error:
      return Verdict::Error;
    case Status::Crashed:
      return Verdict::Crashed;
  }
  return Verdict::Error;
}

std::optional<Verdict> verdict_named(std::string_view name) {
  for (uint8_t i = 0; i <= static_cast<uint8_t>(Verdict::Crashed); ++i) {
    if (name_of(static_cast<Verdict>(i)) == name) return static_cast<Verdict>(i);
  }
  return std::nullopt;
}

bool is_failing(Verdict v) {
  return v != Verdict::Pass;
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
  if (report.not_run) {
    report.certified = false;
    report.reason = "the run was interrupted before " + std::to_string(report.not_run->size()) +
                    " selected case(s) ran: an incomplete report certifies nothing";
  }
}

}  // namespace vyre::certify
