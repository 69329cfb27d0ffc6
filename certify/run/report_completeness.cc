#include "certify/run/report_completeness.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "certify/report/selection_digest.h"
#include "certify/run/certification_run.h"
#include "certify/suite/catalog.h"

namespace vyre::certify {
namespace {

// Ids named in full in an error; the rest are counted.
constexpr size_t kIdsShown = 5;

/// "`a`, `b` and 7 more".
std::string some_of(const std::vector<std::string>& ids) {
  std::string text;
  for (size_t i = 0; i < ids.size() && i < kIdsShown; ++i) {
    text += (i == 0 ? "`" : ", `") + ids[i] + "`";
  }
  if (ids.size() > kIdsShown) text += " and " + std::to_string(ids.size() - kIdsShown) + " more";
  return text;
}

std::string what_was_selected(const nlohmann::json& report) {
  const std::string filter = report["filter"].get<std::string>();
  return "suite " + report["suite_version"].get<std::string>() + ", seed " +
         std::to_string(report["seed"].get<uint64_t>()) + ", up to " +
         report["requested_level"].get<std::string>() +
         (filter.empty() ? std::string() : ", filter `" + filter + "`");
}

/// The catalogue of `seed` up to `level`, kept for the last pair asked: a
/// verify of several reports of one run (samples, shards) builds it once,
/// and building it (L5's programs screened by the reference) is most of a
/// verify's time.
std::shared_ptr<const std::vector<SuiteCase>> catalogue_of(uint64_t seed, Level level) {
  static std::mutex mutex;
  static std::tuple<uint64_t, Level> built_for;
  static std::shared_ptr<const std::vector<SuiteCase>> built;
  std::lock_guard lock(mutex);
  if (!built || built_for != std::tuple{seed, level}) {
    built = std::make_shared<const std::vector<SuiteCase>>(
        build_catalog({.seed = seed, .up_to = level}));
    built_for = {seed, level};
  }
  return built;
}

}  // namespace

Result<ReportScope> check_completeness(const nlohmann::json& report,
                                       std::string_view suite_version) {
  // Written by an interrupted run: whatever it holds, it is not the run.
  if (report.contains("complete") && report["complete"] != true) {
    return Error{"/complete: the run was interrupted before every case ran; it certifies nothing"};
  }
  const std::string version = report["suite_version"].get<std::string>();
  if (version != suite_version) {
    return Error{"/suite_version: `" + version +
                 "`, but this vyre-certify holds the catalogue of suite `" +
                 std::string(suite_version) +
                 "`; check the report with a vyre-certify of its own suite version"};
  }
  CertifyOptions selection;
  selection.level = *level_named(report["requested_level"].get<std::string>());
  selection.seed = report["seed"].get<uint64_t>();
  selection.filter = report["filter"].get<std::string>();
  const std::shared_ptr<const std::vector<SuiteCase>> built =
      catalogue_of(selection.seed, selection.level);
  const std::vector<SuiteCase>& catalog = *built;
  std::map<std::string, const SuiteCase*> selected;
  for (const SuiteCase* c : select_cases(catalog, selection)) selected.emplace(c->id, c);

  const nlohmann::json& cases = report["cases"];
  std::set<std::string> present;
  std::vector<std::string> extra;
  std::optional<std::string> without_fingerprint;
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string id = cases[i]["id"].get<std::string>();
    present.insert(id);
    auto it = selected.find(id);
    if (it == selected.end()) {
      extra.push_back(id);
      continue;
    }
    const std::string at = "/cases/" + std::to_string(i);
    const std::string level(name_of(it->second->level));
    if (cases[i]["level"] != level) {
      return Error{at + "/level: `" + id + "` is a case of " + level + " in the catalogue"};
    }
    if (cases[i]["oracle"] != it->second->oracle) {
      return Error{at + "/oracle: `" + id + "` is checked against `" + it->second->oracle +
                   "` in the catalogue"};
    }
    if (!cases[i].contains("device_fingerprint") && !without_fingerprint) without_fingerprint = at;
  }
  std::vector<std::string> missing;
  for (const auto& [id, c] : selected) {
    if (!present.contains(id)) missing.push_back(id);
  }
  const bool is_shard = report.contains("shard");
  if (!extra.empty() || (!is_shard && !missing.empty())) {
    std::string problem = "/cases: not the catalogue's cases for " + what_was_selected(report) +
                          " (" + std::to_string(selected.size()) + " cases):";
    if (!missing.empty() && !is_shard) {
      problem += " " + std::to_string(missing.size()) + " missing (" + some_of(missing) + ")";
    }
    if (!extra.empty()) {
      problem += std::string(missing.empty() || is_shard ? " " : "; ") +
                 std::to_string(extra.size()) + " not in the catalogue (" + some_of(extra) + ")";
    }
    return Error{problem + "; a report lists every case its run selected"};
  }
  if (without_fingerprint) {
    return Error{*without_fingerprint +
                 "/device_fingerprint: missing; a report written before the cases recorded the "
                 "backend and device they ran on cannot show that its backend and device fields "
                 "are the ones its cases ran on"};
  }

  const std::string total = std::to_string(cases.size()) + " of the " +
                            std::to_string(catalog.size()) + " cases up to " +
                            report["requested_level"].get<std::string>();
  if (is_shard) {
    const nlohmann::json& shard = report["shard"];
    std::vector<std::string> ids;
    for (const auto& [id, c] : selected) ids.push_back(id);
    if (shard["selected"].get<uint64_t>() != ids.size() ||
        shard["selection_digest"].get<std::string>() != selection_digest(ids)) {
      return Error{"/shard: names a selection of " + shard["selected"].dump() +
                   " cases, but the catalogue for " + what_was_selected(report) + " selects " +
                   std::to_string(ids.size()) + " (selection_digest " + selection_digest(ids) +
                   ")"};
    }
    return ReportScope{false, "shard " + shard["index"].dump() + " of " + shard["count"].dump() +
                                  " of a run (" + total +
                                  "); `vyre-certify merge` joins the shards into a certificate"};
  }
  if (!selection.filter.empty()) {
    return ReportScope{false, "a run filtered by `" + selection.filter + "` (" + total + ")"};
  }
  return ReportScope{true, ""};
}

}  // namespace vyre::certify
