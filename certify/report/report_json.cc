#include "certify/report/report_json.h"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <set>
#include <span>
#include <vector>

namespace vyre::certify {
namespace {

// Buffers larger than this are shown truncated in report.json; the repro
// file always carries them whole.
constexpr size_t kMaxJsonBufferBytes = 4096;
constexpr std::string_view kCertificateAlgorithm = "sha256";
constexpr std::string_view kCanonicalization = "json: sorted keys, no whitespace, UTF-8";

std::string hex(const uint8_t* data, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(n * 2);
  for (size_t i = 0; i < n; ++i) {
    out.push_back(kDigits[data[i] >> 4]);
    out.push_back(kDigits[data[i] & 15]);
  }
  return out;
}

nlohmann::json device_to_json(const Capabilities& c) {
  return {{"name", c.device_name},
          {"driver", c.driver},
          {"api", c.api},
          {"max_workgroup_invocations", c.max_workgroup_invocations},
          {"max_workgroup_size", c.max_workgroup_size},
          {"max_workgroup_count", c.max_workgroup_count},
          {"max_storage_buffer_bytes", c.max_storage_buffer_bytes},
          {"max_uniform_buffer_bytes", c.max_uniform_buffer_bytes},
          {"max_workgroup_memory_bytes", c.max_workgroup_memory_bytes},
          {"preferred_workgroup_size", c.preferred_workgroup_size}};
}

nlohmann::json failure_to_json(const Failure& f) {
  nlohmann::json j = {{"variant", f.variant},
                      {"detail", f.detail},
                      {"inputs", buffers_to_json(f.inputs)},
                      {"expected", buffers_to_json(f.expected)},
                      {"observed", buffers_to_json(f.observed)},
                      {"repro", f.repro}};
  if (f.first_difference) {
    const FirstDifference& d = *f.first_difference;
    j["first_difference"] = {
        {"buffer", d.buffer}, {"word", d.word}, {"expected", d.expected}, {"observed", d.observed}};
  }
  return j;
}

nlohmann::json case_to_json(const CaseResult& c) {
  nlohmann::json j = {
      {"id", c.id},
      {"level", name_of(c.level)},
      {"oracle", c.oracle},
      {"status", name_of(c.verdict)},
      {"message", c.message},
      {"variants", c.variants},
      {"runs_per_variant", c.runs_per_variant},
      {"dispatches", c.dispatches},
      {"distinct_outputs", c.distinct_outputs},
      {"timing_us",
       {{"compile", c.compile_us}, {"backend", c.backend_us}, {"reference", c.reference_us}}}};
  if (c.failure) j["failure"] = failure_to_json(*c.failure);
  return j;
}

nlohmann::json level_to_json(const LevelSummary& l) {
  return {{"level", name_of(l.level)}, {"summary", summary_of(l.level)},
          {"cases", l.cases},          {"passed", l.passed},
          {"failed", l.failed},        {"not_supported", l.not_supported},
          {"certified", l.certified},  {"reason", l.reason}};
}

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
    {"first_difference", Type::Object, true, kFirstDifferenceFields}};
constexpr Field kCaseTimingFields[] = {
    {"compile", Type::Unsigned}, {"backend", Type::Unsigned}, {"reference", Type::Unsigned}};
constexpr Field kCaseFields[] = {{"id", Type::String},
                                 {"level", Type::String},
                                 {"oracle", Type::String},
                                 {"status", Type::String},
                                 {"message", Type::String},
                                 {"variants", Type::Unsigned},
                                 {"runs_per_variant", Type::Unsigned},
                                 {"dispatches", Type::Unsigned},
                                 {"distinct_outputs", Type::Unsigned},
                                 {"timing_us", Type::Object, false, kCaseTimingFields},
                                 {"failure", Type::Object, true, kFailureFields}};
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
constexpr Field kRunTimingFields[] = {{"wall", Type::Unsigned}, {"phases", Type::UnsignedMap}};
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
                                   {"certified", Type::Boolean},
                                   {"reason", Type::String}};

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
    const bool known =
        std::any_of(fields.begin(), fields.end(), [&](const Field& f) { return f.name == key; });
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
  if (!requested) return Error{"/requested_level: not a level (L1, L2, L3, L4)"};
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
    if (!level) return Error{at + "/level: not a level (L1, L2, L3, L4)"};
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

}  // namespace

nlohmann::json buffers_to_json(const BufferSet& buffers) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, bytes] : buffers) {
    size_t n = std::min(bytes.size(), kMaxJsonBufferBytes);
    std::string text = hex(bytes.data(), n);
    if (n < bytes.size()) {
      text += "...(" + std::to_string(bytes.size()) + " bytes; see the repro file)";
    }
    j[name] = text;
  }
  return j;
}

nlohmann::json report_to_json(const Report& r) {
  nlohmann::json cases = nlohmann::json::array();
  for (const CaseResult& c : r.cases) cases.push_back(case_to_json(c));
  nlohmann::json levels = nlohmann::json::array();
  for (const LevelSummary& l : r.levels) levels.push_back(level_to_json(l));
  return {{"schema_version", Report::kSchemaVersion},
          {"spec_snapshot", Report::kSpecSnapshot},
          {"suite_version", r.suite_version},
          {"backend", r.backend},
          {"device", device_to_json(r.device)},
          {"seed", r.seed},
          {"runs", r.runs},
          {"filter", r.filter},
          {"requested_level", name_of(r.requested_level)},
          {"started_utc", r.started_utc},
          {"timing_us", {{"wall", r.wall_us}, {"phases", r.phase_us}}},
          {"levels", levels},
          {"cases", cases},
          {"certified", r.certified},
          {"reason", r.reason}};
}

std::string canonical_json(const nlohmann::json& value) {
  // nlohmann::json keeps object keys in a std::map, so dump() sorts them.
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string sha256_hex(std::string_view bytes) {
  std::array<uint8_t, EVP_MAX_MD_SIZE> digest{};
  unsigned int len = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest.data(), &len, EVP_sha256(), nullptr);
  return hex(digest.data(), len);
}

nlohmann::json with_certificate(nlohmann::json report) {
  report.erase("certificate");
  std::string digest = sha256_hex(canonical_json(report));
  report["certificate"] = {{"algorithm", kCertificateAlgorithm},
                           {"canonicalization", kCanonicalization},
                           {"digest", digest}};
  return report;
}

Result<std::string> verify_certificate(const nlohmann::json& report) {
  if (!report.is_object()) return Error{"not a report: the top level is not a JSON object"};
  auto schema = report.find("schema_version");
  if (schema == report.end() || !schema->is_number_integer() ||
      schema->get<int64_t>() != Report::kSchemaVersion) {
    return Error{"unknown schema_version; this vyre-certify reads schema " +
                 std::to_string(Report::kSchemaVersion)};
  }
  auto cert = report.find("certificate");
  if (cert == report.end() || !cert->is_object() || !cert->contains("digest") ||
      !(*cert)["digest"].is_string()) {
    return Error{"the report has no certificate digest"};
  }
  // Every member of the certificate is outside the digest, so each must be
  // one this tool wrote, with the value it writes: anything else could
  // change what the certificate means without changing the digest.
  for (const auto& [key, value] : cert->items()) {
    if (key != "algorithm" && key != "canonicalization" && key != "digest") {
      return Error{"the certificate has a member `" + key +
                   "` that schema 1 does not define; only algorithm, canonicalization and digest "
                   "may sit outside the digest"};
    }
  }
  if (cert->value("algorithm", "") != kCertificateAlgorithm) {
    return Error{"unsupported certificate algorithm; expected sha256"};
  }
  if (cert->value("canonicalization", "") != kCanonicalization) {
    return Error{"unsupported certificate canonicalization; expected `" +
                 std::string(kCanonicalization) + "`"};
  }
  nlohmann::json body = report;
  body.erase("certificate");
  std::string expected = (*cert)["digest"].get<std::string>();
  std::string actual = sha256_hex(canonical_json(body));
  if (actual != expected) {
    return Error{"certificate digest mismatch: the report says " + expected +
                 " but its contents hash to " + actual + "; the report was modified"};
  }
  return actual;
}

Result<ParsedReport> parse_report_text(std::string_view text) {
  // One set of keys per open object: a key seen twice in one object is a
  // member the parser silently drops (the last one wins), so the digest
  // never sees it.
  std::vector<std::set<std::string>> open_objects;
  ParsedReport parsed;
  const nlohmann::json::parser_callback_t track_keys = [&](int, nlohmann::json::parse_event_t event,
                                                           nlohmann::json& value) {
    using Event = nlohmann::json::parse_event_t;
    if (event == Event::object_start) open_objects.emplace_back();
    if (event == Event::object_end && !open_objects.empty()) open_objects.pop_back();
    if (event == Event::key && !open_objects.empty() && !parsed.repeated_key &&
        !open_objects.back().insert(value.get<std::string>()).second) {
      parsed.repeated_key = value.get<std::string>();
    }
    return true;
  };
  parsed.json = nlohmann::json::parse(text, track_keys, /*allow_exceptions=*/false);
  if (parsed.json.is_discarded()) return Error{"not valid JSON"};
  return parsed;
}

Result<std::string> verify_report(const nlohmann::json& report) {
  if (!report.is_object()) return Error{"not a report: the top level is not a JSON object"};
  auto digest = verify_certificate(report);
  if (!digest) return digest;
  nlohmann::json body = report;
  body.erase("certificate");
  if (auto shape = check_members(body, kReportFields, ""); !shape) return shape.error();
  if (auto judged = rejudge(body); !judged) return judged.error();
  return digest;
}

}  // namespace vyre::certify
