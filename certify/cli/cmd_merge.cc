// `vyre-certify merge --out DIR SHARD_DIR...`: the reports of a sharded run
// joined into one, judged again and sealed.
#include <cstdio>
#include <filesystem>
#include <optional>

#include "certify/cli/command.h"
#include "certify/cli/output_folder.h"
#include "certify/cli/shard_and_baseline.h"
#include "certify/report/baseline_comparison.h"
#include "certify/report/report_files.h"
#include "certify/report/report_signature.h"
#include "certify/run/shard_merge.h"
#include "certify/suite/catalog.h"

namespace vyre::cli {

std::string_view merge_usage() {
  return "vyre-certify merge --out DIR [--sign-key KEY.pem] [--public-key PUB.pem] SHARD_DIR...\n"
         "  Joins the report.json of every shard of one `--shard I/N` run (each SHARD_DIR holds\n"
         "  one) into DIR/report.json, report.md and junit.xml: cases in catalog order, phases\n"
         "  and wall time summed, levels judged again, sealed with a certificate that `verify`\n"
         "  checks. Refused (exit 2, naming the mismatch): a report that is not a shard's, a\n"
         "  shard missing or given twice, different N, seed, runs, level, filter, backend,\n"
         "  device, suite version, baseline or selection, or a case in two shards. Exit 0\n"
         "  certified (shards run with --baseline: no new failure), 1 not. The repro files the\n"
         "  shards' failures name are copied into DIR/repro. The shards' cases must be the\n"
         "  selection this build's catalogue gives for their seed, level and filter; a symbolic\n"
         "  link among the repros, or DIR a shard folder or inside one, is refused (exit 2).\n"
         "  --sign-key KEY.pem signs the merged report (Ed25519); --public-key PUB.pem refuses\n"
         "  (exit 2) any shard not signed by that key or changed since it was signed.";
}

int cmd_merge(std::span<const std::string> args) {
  const auto bad_usage = [](const std::string& problem) {
    return usage_error("vyre-certify merge", problem, merge_usage());
  };
  std::string out_dir;
  std::vector<std::string> dirs;
  std::optional<certify::Ed25519Key> sign_key;
  std::optional<certify::Ed25519Key> public_key;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--out") {
      if (i + 1 >= args.size() || args[i + 1].empty()) return bad_usage("--out needs a folder");
      if (!out_dir.empty()) return bad_usage("--out given twice; give it once");
      out_dir = args[++i];
    } else if (args[i] == "--sign-key" || args[i] == "--public-key") {
      const bool signing = args[i] == "--sign-key";
      std::optional<certify::Ed25519Key>& key = signing ? sign_key : public_key;
      if (i + 1 >= args.size()) return bad_usage(args[i] + " needs a PEM file");
      if (key) return bad_usage(args[i] + " given twice; give it once");
      auto loaded = signing ? certify::Ed25519Key::load_private(args[i + 1])
                            : certify::Ed25519Key::load_public(args[i + 1]);
      if (!loaded) {
        std::fprintf(stderr, "vyre-certify merge: %s %s\n", args[i].c_str(),
                     loaded.error().message.c_str());
        return kExitUsage;
      }
      key = std::move(*loaded);
      ++i;
    } else if (args[i].starts_with("--")) {
      return bad_usage("unknown option `" + args[i] + "`");
    } else {
      dirs.push_back(args[i]);
    }
  }
  if (out_dir.empty()) return bad_usage("give --out DIR for the merged report");
  if (dirs.empty()) return bad_usage("give the report folder of every shard");
  // Writing there would first delete the shard's own repro files.
  for (const std::string& dir : dirs) {
    if (same_or_inside(out_dir, dir)) {
      return bad_usage("--out " + out_dir + " is the shard folder " + dir +
                       " or inside it; give a folder of its own for the merged report");
    }
  }
  std::vector<certify::SealedReport> shards;
  for (const std::string& dir : dirs) {
    const std::string path = (std::filesystem::path(dir) / "report.json").string();
    auto read = certify::read_report_file(path, public_key ? &*public_key : nullptr);
    if (!read) {
      std::fprintf(stderr, "vyre-certify merge: %s\n", read.error().message.c_str());
      return kExitUsage;
    }
    shards.push_back(std::move(*read));
  }
  // Catalog order needs the catalog: the same seed and level rebuild it
  // (merge_shard_reports refuses shards that disagree on either).
  const certify::Report& first = shards[0].report;
  std::vector<std::string> order;
  for (const certify::SuiteCase& c :
       certify::build_catalog({.seed = first.seed, .up_to = first.requested_level})) {
    order.push_back(c.id);
  }
  auto merged = certify::merge_shard_reports(shards, order);
  if (!merged) {
    std::fprintf(stderr, "vyre-certify merge: %s\n", merged.error().message.c_str());
    return kExitUsage;
  }
  if (auto problem = check_writable(out_dir)) return bad_usage(*problem);
  // The merged report names its shards' repros: they go beside it, in place
  // of any an earlier run left there.
  auto copied = certify::clear_old_repros(out_dir);
  for (size_t i = 0; i < shards.size() && copied; ++i) {
    copied = certify::copy_repro_files(shards[i].report, dirs[i], out_dir);
  }
  if (!copied) {
    std::fprintf(stderr, "vyre-certify merge: %s\n", copied.error().message.c_str());
    return kExitUsage;
  }
  if (auto written = certify::write_reports(*merged, out_dir, sign_key ? &*sign_key : nullptr);
      !written) {
    std::fprintf(stderr, "vyre-certify merge: %s\n", written.error().message.c_str());
    return kExitUsage;
  }
  std::printf("%s: %s at %s; %zu cases from %zu shards; reports in %s\n", merged->backend.c_str(),
              merged->certified ? "CERTIFIED" : "NOT CERTIFIED",
              std::string(certify::name_of(merged->requested_level)).c_str(), merged->cases.size(),
              shards.size(), out_dir.c_str());
  print_gate_summary(*merged);
  return certify::gate_passes(*merged) ? kExitOk : kExitFail;
}

}  // namespace vyre::cli
