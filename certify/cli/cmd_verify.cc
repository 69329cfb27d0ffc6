// `vyre-certify verify report.json`: recomputes the certificate digest.
#include <cstdio>
#include <fstream>
#include <sstream>

#include "certify/cli/command.h"
#include "certify/report/report_json.h"

namespace vyre::cli {
namespace {

int run_verify(std::span<const std::string> args) {
  if (args.size() != 1) {
    std::fprintf(stderr, "usage: vyre-certify verify REPORT.json\n");
    return kExitUsage;
  }
  std::ifstream file(args[0], std::ios::binary);
  if (!file) {
    std::fprintf(stderr, "%s: cannot read the file\n", args[0].c_str());
    return kExitUsage;
  }
  std::stringstream text;
  text << file.rdbuf();
  nlohmann::json report = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
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
