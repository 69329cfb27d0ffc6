// `vyre-certify verify report.json`: checks the certificate digest, the
// schema and that the verdict follows from the per-case statuses.
#include <cstdio>

#include "certify/cli/command.h"
#include "certify/cli/read_input.h"
#include "certify/report/report_json.h"
#include "certify/report/report_verify.h"

namespace vyre::cli {

std::string_view verify_usage() {
  return "vyre-certify verify REPORT.json\n"
         "  Exit 0 when the digest matches, every member schema 1 defines is there with its type\n"
         "  (and no other), and the levels and verdict follow from the per-case statuses; 1 when\n"
         "  not; 2 when the file cannot be read or is not JSON. The digest is unkeyed: it shows\n"
         "  the report was not edited since it was sealed, not who sealed it.";
}

int cmd_verify(std::span<const std::string> args) {
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
  const Result<certify::ParsedReport> parsed = certify::parse_report_text(*text);
  if (!parsed) {
    std::fprintf(stderr, "%s: %s\n", args[0].c_str(), parsed.error().message.c_str());
    return kExitUsage;
  }
  if (parsed->repeated_key) {
    std::printf(
        "%s: NOT VERIFIED: the key `%s` appears twice in one object; a report has each "
        "member once\n",
        args[0].c_str(), parsed->repeated_key->c_str());
    return kExitFail;
  }
  const nlohmann::json& r = parsed->json;
  auto digest = certify::verify_report(r);
  if (!digest) {
    std::printf("%s: NOT VERIFIED: %s\n", args[0].c_str(), digest.error().message.c_str());
    return kExitFail;
  }
  // verify_report checked every member used here: present, with its type.
  std::printf("%s: verified (sha256 %s); backend %s on %s, %s at %s (spec %s, suite %s)\n",
              args[0].c_str(), digest->c_str(), r["backend"].get<std::string>().c_str(),
              r["device"]["name"].get<std::string>().c_str(),
              r["certified"].get<bool>() ? "certified" : "not certified",
              r["requested_level"].get<std::string>().c_str(),
              r["spec_snapshot"].get<std::string>().c_str(),
              r["suite_version"].get<std::string>().c_str());
  return kExitOk;
}

}  // namespace vyre::cli
