// `vyre-certify diff A.json B.json`: what changed from report A to report B.
#include <cstdio>

#include "certify/cli/command.h"
#include "certify/report/report_diff.h"
#include "certify/report/report_read.h"

namespace vyre::cli {

std::string_view diff_usage() {
  return "vyre-certify diff A.json B.json\n"
         "  Both reports are verified first. Prints each case whose status changed from A to B\n"
         "  (or that only one report holds) and each case at least 2x slower in B (compile plus\n"
         "  backend time, 1 ms or more in B). Reports of different suite versions are compared\n"
         "  all the same, with a warning first (on stdout and stderr): a case id may name\n"
         "  another case there. Exit 0 when no case newly fails in B, 1 when one does, 2 when a\n"
         "  report cannot be read or does not verify.";
}

int cmd_diff(std::span<const std::string> args) {
  if (args.size() != 2) return usage_error("vyre-certify diff", "give two reports", diff_usage());
  auto a = certify::read_report_file(args[0]);
  auto b = a ? certify::read_report_file(args[1]) : a;
  for (const auto* read : {&a, &b}) {
    if (!*read) {
      std::fprintf(stderr, "vyre-certify diff: %s\n", read->error().message.c_str());
      return kExitUsage;
    }
  }
  const certify::ReportDiff diff = certify::diff_reports(a->report, b->report);
  if (diff.suite_versions) {
    std::fprintf(stderr, "vyre-certify diff: %s\n", certify::suite_version_warning(diff).c_str());
  }
  std::printf("%s -> %s\n%s", args[0].c_str(), args[1].c_str(), certify::diff_text(diff).c_str());
  return diff.regressions.empty() ? kExitOk : kExitFail;
}

}  // namespace vyre::cli
