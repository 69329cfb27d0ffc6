// `vyre-certify verify report.json`: recomputes the certificate digest.
#include <cstdio>

#include "certify/cli/command.h"
#include "certify/cli/read_input.h"
#include "certify/report/report_json.h"

namespace vyre::cli {
namespace {

int run_verify(std::span<const std::string> args) {
  if (args.size() != 1) {
    std::fprintf(stderr, "usage: vyre-certify verify REPORT.json\n");
    return kExitUsage;
  }
  // Reports keep at most 4 KiB of each buffer, so even a suite of many
  // thousand cases stays far below this.
  constexpr size_t kMaxReportBytes = size_t{256} << 20;
  const Result<std::string> text =
      read_input(args[0], kMaxReportBytes, "256 MiB, too large for a report");
  if (!text) {
    std::fprintf(stderr, "%s: %s\n", args[0].c_str(), text.error().message.c_str());
    return kExitUsage;
  }
  nlohmann::json report = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (report.is_discarded()) {
    std::fprintf(stderr, "%s: not valid JSON\n", args[0].c_str());
    return kExitUsage;
  }
  auto digest = certify::verify_certificate(report);
  if (!digest) {
    std::printf("%s: NOT VERIFIED: %s\n", args[0].c_str(), digest.error().message.c_str());
    return kExitFail;
  }
  std::printf("%s: verified (sha256 %s); backend %s, %s at %s\n", args[0].c_str(), digest->c_str(),
              report.value("backend", "?").c_str(),
              report.value("certified", false) ? "certified" : "not certified",
              report.value("requested_level", "?").c_str());
  return kExitOk;
}

const bool registered = register_command({"verify", "check a report's certificate digest",
                                          "vyre-certify verify REPORT.json", run_verify});

}  // namespace
}  // namespace vyre::cli
