// `vyre-certify verify [--public-key PUB.pem] REPORT.json...`: checks the
// certificate digest and signature, the schema, that the verdict follows
// from the per-case statuses, and that the cases are the whole catalogue of
// the level they claim.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "certify/cli/command.h"
#include "certify/cli/read_input.h"
#include "certify/report/report_json.h"
#include "certify/report/report_signature.h"
#include "certify/report/report_verify.h"
#include "certify/run/report_completeness.h"

namespace vyre::cli {

std::string_view verify_usage() {
  return "vyre-certify verify [--public-key PUB.pem] REPORT.json...\n"
         "  Checks each report in turn (one line each). Exit 0 when, for every report, the digest "
         "matches, every member schema 1 defines is there with its type\n"
         "  (and no other), the levels and verdict follow from the per-case statuses, the cases\n"
         "  are exactly this build's catalogue for the report's suite version, seed and level,\n"
         "  each recording the backend and device the report names, and the report is no\n"
         "  filtered run, single shard or interrupted run; 1 when one is not (naming the first\n"
         "  problem, or the cases missing and extra); 2 when a file or the key cannot be read.\n"
         "  --public-key PUB.pem (Ed25519): the report must be signed by that key and unchanged\n"
         "  since. Without it, verify says whether the report is signed and by which key\n"
         "  fingerprint, unchecked: the digest alone shows the report is self-consistent, not\n"
         "  who sealed it.";
}

namespace {

/// What the verified line says about who sealed the report.
std::string signer_words(const certify::SignatureStatus& status) {
  if (!status.is_signed) {
    return "unsigned (anyone can seal a report; trust it as far as where it came from)";
  }
  if (status.signer_checked) return "signed by the given key " + status.signer;
  return "signed by key " + status.signer + ", signer not checked (give --public-key)";
}

/// Verifies the report at `path` against `key` (any signer when null), and
/// prints its one line: kExitOk, kExitFail (not verified) or kExitUsage (unreadable).
int verify_one(const std::string& path, const certify::Ed25519Key* key) {
  // Reports keep at most 4 KiB of each buffer, so even a suite of many
  // thousand cases stays far below this.
  constexpr size_t kMaxReportBytes = size_t{256} << 20;
  const Result<std::string> text =
      read_input(path, kMaxReportBytes, "256 MiB, too large for a report");
  if (!text) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), text.error().message.c_str());
    return kExitUsage;
  }
  const Result<certify::ParsedReport> parsed = certify::parse_report_text(*text);
  if (!parsed) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), parsed.error().message.c_str());
    return kExitUsage;
  }
  const auto not_verified = [&](const std::string& why) {
    std::printf("%s: NOT VERIFIED: %s\n", path.c_str(), why.c_str());
    return kExitFail;
  };
  if (parsed->repeated_key) {
    return not_verified("the key `" + *parsed->repeated_key +
                        "` appears twice in one object; a report has each member once");
  }
  const nlohmann::json& r = parsed->json;
  auto digest = certify::verify_report(r);
  if (!digest) return not_verified(digest.error().message);
  auto signature = certify::check_signature(r, key);
  if (!signature) return not_verified(signature.error().message);
  auto scope = certify::check_completeness(r, VYRE_SUITE_VERSION);
  if (!scope) return not_verified(scope.error().message);
  // verify_report checked every member used here: present, with its type.
  const std::string level = r["requested_level"].get<std::string>();
  if (!scope->whole_level) {
    return not_verified("not a certificate of " + level + ": " + scope->part +
                        "; only a run of every case up to its level certifies it");
  }
  std::printf(
      "%s: verified (sha256 %s); %s; backend %s on %s, %s at %s, all %zu cases (spec %s, "
      "suite %s)\n",
      path.c_str(), digest->c_str(), signer_words(*signature).c_str(),
      r["backend"].get<std::string>().c_str(), r["device"]["name"].get<std::string>().c_str(),
      r["certified"].get<bool>() ? "certified" : "not certified", level.c_str(), r["cases"].size(),
      r["spec_snapshot"].get<std::string>().c_str(), r["suite_version"].get<std::string>().c_str());
  return kExitOk;
}

}  // namespace

int cmd_verify(std::span<const std::string> args) {
  const auto bad_usage = [](const std::string& problem) {
    return usage_error("vyre-certify verify", problem, verify_usage());
  };
  std::optional<std::string> key_path;
  std::vector<std::string> paths;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--public-key") {
      if (i + 1 >= args.size()) return bad_usage("--public-key needs a PEM file");
      if (key_path) return bad_usage("--public-key given twice; give it once");
      key_path = args[++i];
    } else if (args[i].starts_with("--")) {
      return bad_usage("unknown option `" + args[i] + "`");
    } else {
      paths.push_back(args[i]);
    }
  }
  if (paths.empty()) return bad_usage("give the report.json to verify");
  std::optional<certify::Ed25519Key> key;
  if (key_path) {
    auto loaded = certify::Ed25519Key::load_public(*key_path);
    if (!loaded) {
      std::fprintf(stderr, "vyre-certify verify: --public-key %s\n",
                   loaded.error().message.c_str());
      return kExitUsage;
    }
    key = std::move(*loaded);
  }
  // The worst outcome: a file that cannot be read (2) over a report that is
  // not verified (1) over a verified one.
  int exit_code = kExitOk;
  for (const std::string& path : paths) {
    const int one = verify_one(path, key ? &*key : nullptr);
    if (one == kExitUsage || (one == kExitFail && exit_code == kExitOk)) exit_code = one;
  }
  return exit_code;
}

}  // namespace vyre::cli
