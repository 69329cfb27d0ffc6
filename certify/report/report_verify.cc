#include "certify/report/report_verify.h"

#include <map>
#include <optional>
#include <set>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "certify/report/report.h"
#include "certify/report/report_json.h"
#include "certify/report/timing_checks.h"

namespace vyre::certify {
namespace {

// What schema 1 holds, member by member: `verify` accepts exactly this, so
// no member the digest covers can be missing, mistyped or unknown.
enum class Type : uint8_t {
  String,
  Unsigned,
  Boolean,
  UnsignedTriple,  ///< [x, y, z]
  Object,          ///< The members listed in Field::members.
  ObjectArray,     ///< Objects, each with the members listed in Field::members.
  HexBuffers,      ///< buffer name -> hex text
  UnsignedMap,     ///< name -> unsigned
  StringArray,     ///< [text, ...]
};

struct Field {
  std::string_view name;
  Type type;
  bool optional = false;
  std::span<const Field> members = {};
};

constexpr Field kFirstDifferenceFields[] = {{"buffer", Type::String},
                                            {"word", Type::Unsigned},
                                            {"expected", Type::Unsigned},
                                            {"observed", Type::Unsigned}};
constexpr Field kFailureFields[] = {
    {"variant", Type::String},
    {"detail", Type::String},
    {"inputs", Type::HexBuffers},
    {"expected", Type::HexBuffers},
    {"observed", Type::HexBuffers},
    {"repro", Type::String},
    {"reduced_repro", Type::String, true},
    {"reduced_symptom", Type::String, true},
    {"original_repro", Type::String, true},
    {"first_difference", Type::Object, true, kFirstDifferenceFields}};
constexpr Field kCaseTimingFields[] = {{"compile", Type::Unsigned},
                                       {"backend", Type::Unsigned},
                                       {"reference", Type::Unsigned},
                                       // Reports from before batched runs have none.
                                       {"per_dispatch_ns", Type::Unsigned, true},
                                       // Only where the backend measured device time.
                                       {"device", Type::Unsigned, true}};
constexpr Field kCaseFields[] = {{"id", Type::String},
                                 // The backend and device it ran on; reports
                                 // from before it was recorded have none.
                                 {"device_fingerprint", Type::String, true},
                                 {"level", Type::String},
                                 {"oracle", Type::String},
                                 {"status", Type::String},
                                 {"message", Type::String},
                                 {"variants", Type::Unsigned},
                                 {"runs_per_variant", Type::Unsigned},
                                 {"dispatches", Type::Unsigned},
                                 {"distinct_outputs", Type::Unsigned},
                                 {"timing_us", Type::Object, false, kCaseTimingFields},
                                 {"failure", Type::Object, true, kFailureFields},
                                 // The first attempt's status of a case retried on a fresh backend.
                                 {"retried", Type::String, true}};
constexpr Field kLevelFields[] = {{"level", Type::String},      {"summary", Type::String},
                                  {"cases", Type::Unsigned},    {"passed", Type::Unsigned},
                                  {"failed", Type::Unsigned},   {"not_supported", Type::Unsigned},
                                  {"certified", Type::Boolean}, {"reason", Type::String}};
constexpr Field kDeviceFields[] = {{"name", Type::String},
                                   {"driver", Type::String},
                                   {"api", Type::String},
                                   {"max_workgroup_invocations", Type::Unsigned},
                                   {"max_workgroup_size", Type::UnsignedTriple},
                                   {"max_workgroup_count", Type::UnsignedTriple},
                                   {"max_storage_buffer_bytes", Type::Unsigned},
                                   {"max_uniform_buffer_bytes", Type::Unsigned},
                                   {"max_workgroup_memory_bytes", Type::Unsigned},
                                   {"preferred_workgroup_size", Type::Unsigned}};
constexpr Field kCoverageCategoryFields[] = {
    {"category", Type::String}, {"reached", Type::Unsigned}, {"universe", Type::Unsigned}};
constexpr Field kCoverageFields[] = {
    {"categories", Type::ObjectArray, false, kCoverageCategoryFields},
    {"not_reached", Type::StringArray}};
constexpr Field kRandomProgramFields[] = {{"generated", Type::Unsigned},
                                          {"discarded", Type::Unsigned},
                                          {"programs", Type::Unsigned},
                                          {"coverage", Type::Object, false, kCoverageFields}};
/// "mutation_score" (report_mutation.h): the suite's recorded mutation score.
constexpr Field kSurvivingMutantFields[] = {{"name", Type::String}, {"reason", Type::String}};
constexpr Field kMutationScoreFields[] = {
    {"catalogue", Type::String}, {"catalogue_version", Type::Unsigned},
    {"device", Type::String},    {"level", Type::String},
    {"runs", Type::Unsigned},    {"mutants", Type::Unsigned},
    {"killed", Type::Unsigned},  {"surviving", Type::ObjectArray, false, kSurvivingMutantFields},
    {"summary", Type::String}};
/// "shard" (one shard of a sharded run) and "baseline" (known failures compared).
constexpr Field kShardFields[] = {{"index", Type::Unsigned},
                                  {"count", Type::Unsigned},
                                  {"selected", Type::Unsigned},
                                  {"selection_digest", Type::String}};
constexpr Field kKnownFailureFields[] = {
    {"case", Type::String}, {"reason", Type::String}, {"link", Type::String, true}};
constexpr Field kBaselineFields[] = {
    {"source", Type::String},
    {"new_failures", Type::StringArray},
    {"fixed", Type::StringArray},
    {"still_failing", Type::StringArray},
    // Optional: reports written before the reasons were recorded lack it.
    {"known", Type::ObjectArray, true, kKnownFailureFields}};
/// "driver_cache": how the backend's on-disk driver cache served the run.
constexpr Field kDriverCacheFields[] = {{"dir", Type::String},        {"what", Type::String},
                                        {"hits", Type::Unsigned},     {"misses", Type::Unsigned},
                                        {"rejected", Type::Unsigned}, {"stored", Type::Unsigned}};
constexpr Field kDispatchSplitFields[] = {{"device", Type::Unsigned},
                                          {"host", Type::Unsigned},
                                          {"measured_cases", Type::Unsigned},
                                          {"unmeasured_cases", Type::Unsigned}};
constexpr Field kSlowestCaseFields[] = {{"id", Type::String},
                                        {"backend", Type::Unsigned},
                                        {"device", Type::Unsigned, true},
                                        {"host", Type::Unsigned, true}};
constexpr Field kRunTimingFields[] = {
    {"wall", Type::Unsigned},
    {"phases", Type::UnsignedMap},
    // Optional: only where the backend measured device time (timing_checks.h).
    {"dispatch_split", Type::Object, true, kDispatchSplitFields},
    {"slowest", Type::ObjectArray, true, kSlowestCaseFields}};
/// The report without its certificate (verify_certificate checks that).
constexpr Field kReportFields[] = {{"schema_version", Type::Unsigned},
                                   {"spec_snapshot", Type::String},
                                   {"suite_version", Type::String},
                                   {"backend", Type::String},
                                   {"device", Type::Object, false, kDeviceFields},
                                   {"seed", Type::Unsigned},
                                   {"runs", Type::Unsigned},
                                   {"filter", Type::String},
                                   {"requested_level", Type::String},
                                   {"started_utc", Type::String},
                                   {"timing_us", Type::Object, false, kRunTimingFields},
                                   {"levels", Type::ObjectArray, false, kLevelFields},
                                   {"cases", Type::ObjectArray, false, kCaseFields},
                                   {"random_programs", Type::Object, true, kRandomProgramFields},
                                   {"certified", Type::Boolean},
                                   {"reason", Type::String},
                                   // Optional: reports written before it was recorded lack it.
                                   {"mutation_score", Type::Object, true, kMutationScoreFields},
                                   // Optional: only sharded, merged or baselined runs have them.
                                   {"shard", Type::Object, true, kShardFields},
                                   {"shards", Type::StringArray, true},
                                   {"baseline", Type::Object, true, kBaselineFields},
                                   // Optional: the gate's seed policy and whole-run time budget.
                                   {"seed_policy", Type::String, true},
                                   {"time_budget_s", Type::Unsigned, true},
                                   // Optional: only an interrupted run's report has them.
                                   {"complete", Type::Boolean, true},
                                   {"not_run", Type::StringArray, true},

                                   // Optional: only backends that keep a driver cache on disk.
                                   {"driver_cache", Type::Object, true, kDriverCacheFields}};

bool is_unsigned(const nlohmann::json& v) {
  // Parsed text gives number_unsigned; values built in memory may be signed.
  return v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0);
}

std::string_view type_name(Type type) {
  switch (type) {
    case Type::String:
      return "a string";
    case Type::Unsigned:
      return "an unsigned integer";
    case Type::Boolean:
      return "true or false";
    case Type::UnsignedTriple:
      return "an array of 3 unsigned integers";
    case Type::Object:
      return "an object";
    case Type::ObjectArray:
      return "an array of objects";
    case Type::HexBuffers:
      return "an object of buffer name -> hex string";
    case Type::UnsignedMap:
      return "an object of name -> unsigned integer";
    case Type::StringArray:
      return "an array of strings";
  }
  return "?";
}

Result<Ok> check_members(const nlohmann::json& object, std::span<const Field> fields,
                         const std::string& path);

Result<Ok> check_value(const nlohmann::json& v, const Field& field, const std::string& path) {
  const auto all_of = [&](auto&& good) {
    return std::all_of(v.begin(), v.end(), [&](const nlohmann::json& e) { return good(e); });
  };
  bool ok = false;
  switch (field.type) {
    case Type::String:
      ok = v.is_string();
      break;
    case Type::Unsigned:
      ok = is_unsigned(v);
      break;
    case Type::Boolean:
      ok = v.is_boolean();
      break;
    case Type::UnsignedTriple:
      ok = v.is_array() && v.size() == 3 && all_of(is_unsigned);
      break;
    case Type::Object:
      if (!v.is_object()) break;
      return check_members(v, field.members, path);
    case Type::ObjectArray:
      if (!v.is_array()) break;
      for (size_t i = 0; i < v.size(); ++i) {
        const std::string at = path + "/" + std::to_string(i);
        if (!v[i].is_object()) return Error{at + ": expected an object"};
        if (auto r = check_members(v[i], field.members, at); !r) return r;
      }
      return Ok{};
    case Type::HexBuffers:
      ok = v.is_object() && all_of([](const nlohmann::json& e) { return e.is_string(); });
      break;
    case Type::UnsignedMap:
      ok = v.is_object() && all_of(is_unsigned);
      break;
    case Type::StringArray:
      ok = v.is_array() && all_of([](const nlohmann::json& e) { return e.is_string(); });
      break;
  }
  if (!ok) return Error{path + ": expected " + std::string(type_name(field.type))};
  return Ok{};
}

Result<Ok> check_members(const nlohmann::json& object, std::span<const Field> fields,
                         const std::string& path) {
  for (const Field& field : fields) {
    const std::string at = path + "/" + std::string(field.name);
    auto it = object.find(field.name);
    if (it == object.end()) {
      if (field.optional) continue;
      return Error{at + ": missing; schema 1 requires it"};
    }
    if (auto r = check_value(*it, field, at); !r) return r;
  }
  for (const auto& [key, value] : object.items()) {
    const bool known = std::any_of(fields.begin(), fields.end(),
                                   [&k = key](const Field& f) { return f.name == k; });
    if (!known) return Error{path + "/" + key + ": not a member schema 1 defines"};
  }
  return Ok{};
}

/// The level named exactly as name_of writes it.
std::optional<Level> exact_level(const nlohmann::json& name) {
  auto level = level_named(name.get<std::string>());
  if (!level || name_of(*level) != name.get<std::string>()) return std::nullopt;
  return level;
}

/// Judges the per-case statuses again, with the run's own judge, and checks
/// that the levels, the verdict and its reason are what they give.
Result<Ok> rejudge(const nlohmann::json& body) {
  Report judged;
  auto requested = exact_level(body["requested_level"]);
  if (!requested) return Error{"/requested_level: not a level (L1, L2, L3, L4, L5)"};
  judged.requested_level = *requested;
  std::set<std::string> ids;
  for (size_t i = 0; i < body["cases"].size(); ++i) {
    const nlohmann::json& c = body["cases"][i];
    const std::string at = "/cases/" + std::to_string(i);
    CaseResult result;
    result.id = c["id"].get<std::string>();
    if (!ids.insert(result.id).second)
      return Error{at + ": the case id `" + result.id + "` repeats"};
    auto level = exact_level(c["level"]);
    if (!level) return Error{at + "/level: not a level (L1, L2, L3, L4, L5)"};
    // The run never reports a case above the requested level, and judge()
    // would not count one: a case moved up there would silently drop out.
    if (*level > *requested) {
      return Error{at + "/level: " + std::string(name_of(*level)) +
                   " is above the requested level " + std::string(name_of(*requested))};
    }
    auto verdict = verdict_named(c["status"].get<std::string>());
    if (!verdict)
      return Error{at + "/status: `" + c["status"].get<std::string>() + "` is no status"};
    result.level = *level;
    result.verdict = *verdict;
    judged.cases.push_back(std::move(result));
  }
  judge(judged);
  // A level's summary is this build's wording of what the level covers
  // (suite/level.cc), not part of its verdict: the report keeps the wording
  // of the build that wrote it.
  const auto without_summaries = [](nlohmann::json levels) {
    for (nlohmann::json& level : levels) level.erase("summary");
    return levels;
  };
  nlohmann::json levels = nlohmann::json::array();
  for (const LevelSummary& l : judged.levels) levels.push_back(level_to_json(l));
  const nlohmann::json stated = {{"levels", without_summaries(body["levels"])},
                                 {"certified", body["certified"]},
                                 {"reason", body["reason"]}};
  const nlohmann::json recomputed = {{"levels", without_summaries(levels)},
                                     {"certified", judged.certified},
                                     {"reason", judged.reason}};
  // Levels first: a wrong level explains a wrong verdict, not the reverse.
  for (const char* key : {"levels", "certified", "reason"}) {
    const nlohmann::json patch = nlohmann::json::diff(stated[key], recomputed[key]);
    if (patch.empty()) continue;
    // An "add" past the end of an array has the path ".../-": name the index.
    std::string path = patch[0]["path"].get<std::string>();
    if (path.ends_with("/-")) path.replace(path.size() - 1, 1, std::to_string(stated[key].size()));
    const nlohmann::json::json_pointer at(path);
    const auto shown = [&](const nlohmann::json& j) {
      return j.contains(at) ? j[at].dump() : std::string("nothing");
    };
    return Error{"/" + std::string(key) + path + ": the report says " + shown(stated[key]) +
                 ", but judging its per-case statuses gives " + shown(recomputed[key]) +
                 "; the verdict does not follow from the cases"};
  }
  return Ok{};
}

/// The shard's index lies within its count, and the baseline's lists follow
/// from the case statuses: every failing case new or still failing, every
/// listed case one of the report's, with the status its list claims.
Result<Ok> check_gate_members(const nlohmann::json& body) {
  if (body.contains("shard")) {
    const nlohmann::json& s = body["shard"];
    const uint64_t index = s["index"].get<uint64_t>();
    if (index == 0 || index > s["count"].get<uint64_t>()) {
      return Error{"/shard/index: not within 1 .. /shard/count"};
    }
    if (body["cases"].size() > s["selected"].get<uint64_t>()) {
      return Error{"/shard/selected: fewer than the shard's own cases"};
    }
  }
  if (!body.contains("baseline")) return Ok{};
  std::map<std::string, bool> failing;
  for (const nlohmann::json& c : body["cases"]) {
    failing[c["id"].get<std::string>()] =
        is_failing(verdict_named(c["status"].get<std::string>()).value_or(Verdict::Error));
  }
  std::set<std::string> listed_failing;
  for (const auto& [list, must_fail] :
       {std::pair{"new_failures", true}, std::pair{"still_failing", true},
        std::pair{"fixed", false}}) {
    for (const nlohmann::json& id : body["baseline"][list]) {
      auto it = failing.find(id.get<std::string>());
      if (it == failing.end() || it->second != must_fail) {
        return Error{"/baseline/" + std::string(list) + ": `" + id.get<std::string>() + "` is " +
                     (it == failing.end() ? "not a case of the report"
                      : must_fail         ? "a passing case"
                                          : "a failing case")};
      }
      if (must_fail) listed_failing.insert(it->first);
    }
  }
  for (const auto& [id, is_fail] : failing) {
    if (is_fail && !listed_failing.contains(id)) {
      return Error{"/baseline: the failing case `" + id +
                   "` is neither a new failure nor still failing"};
    }
  }
  // Each reason belongs to a known failure the run judged: fixed or still failing.
  std::set<std::string> known_ids;
  for (const char* list : {"fixed", "still_failing"}) {
    for (const nlohmann::json& id : body["baseline"][list]) known_ids.insert(id.get<std::string>());
  }
  for (const nlohmann::json& k : body["baseline"].value("known", nlohmann::json::array())) {
    if (!known_ids.contains(k["case"].get<std::string>())) {
      return Error{"/baseline/known: `" + k["case"].get<std::string>() +
                   "` is neither fixed nor still failing"};
    }
  }
  return Ok{};
}

/// The API each built-in backend's devices report (Capabilities::api), by
/// the text it starts with; a plugin's is its own.
constexpr std::pair<std::string_view, std::string_view> kBackendApis[] = {
    {"vulkan", "Vulkan "}, {"opencl", "OpenCL "}, {"cuda", "CUDA "}, {"reference", "vyre "}};

/// The backend and device fields agree with what the cases record: a
/// built-in backend's API, and every case's device_fingerprint (when the
/// report's cases record one; verify's completeness check requires them).
Result<Ok> check_device_fields(const nlohmann::json& body) {
  const std::string backend = body["backend"].get<std::string>();
  const std::string api = body["device"]["api"].get<std::string>();
  for (const auto& [name, prefix] : kBackendApis) {
    if (backend == name && !api.starts_with(prefix)) {
      return Error{"/device/api: `" + api + "` is no API of the `" + backend +
                   "` backend (its devices report `" + std::string(prefix) +
                   "...`): the backend or device fields were relabelled"};
    }
  }
  const std::string expected = device_fingerprint(backend, body["device"]);
  const nlohmann::json& cases = body["cases"];
  const bool first_has = !cases.empty() && cases[0].contains("device_fingerprint");
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string at = "/cases/" + std::to_string(i) + "/device_fingerprint";
    if (cases[i].contains("device_fingerprint") != first_has) {
      return Error{at + ": " + (first_has ? "missing" : "present") + " where /cases/0 " +
                   (first_has ? "records one" : "records none") +
                   "; every case of a run records the device it ran on"};
    }
    if (!first_has) continue;
    const std::string recorded = cases[i]["device_fingerprint"].get<std::string>();
    if (recorded != expected) {
      return Error{at + ": `" + recorded + "`, but the report's backend `" + backend +
                   "` and device `" + body["device"]["name"].get<std::string>() + "` give `" +
                   expected +
                   "`: the case ran on another backend or device than the report names (the "
                   "backend or device fields were changed)"};
    }
  }
  return Ok{};
}

/// An interrupted run's report (`"complete": false`, with the cases it did
/// not run) is a partial record, never a certificate.
Result<Ok> check_complete(const nlohmann::json& body) {
  const bool incomplete = body.contains("complete") && !body["complete"].get<bool>();
  if (incomplete != body.contains("not_run")) {
    return Error{
        "/complete and /not_run: an interrupted run's report has both (complete: "
        "false), any other report neither"};
  }
  if (!incomplete) return Ok{};
  return Error{"/complete: false: the run was interrupted before " +
               std::to_string(body["not_run"].size()) +
               " selected case(s) ran (/not_run); an incomplete report is not a certificate"};
}

}  // namespace

Result<std::string> verify_report(const nlohmann::json& report) {
  if (!report.is_object()) return Error{"not a report: the top level is not a JSON object"};
  auto digest = verify_certificate(report);
  if (!digest) return digest;
  nlohmann::json body = report;
  body.erase("certificate");
  if (auto shape = check_members(body, kReportFields, ""); !shape) return shape.error();
  if (auto complete = check_complete(body); !complete) return complete.error();
  if (auto judged = rejudge(body); !judged) return judged.error();
  if (auto gate = check_gate_members(body); !gate) return gate.error();
  if (auto device = check_device_fields(body); !device) return device.error();
  if (auto timing = check_timing(body); !timing) return timing.error();
  return digest;
}

}  // namespace vyre::certify
