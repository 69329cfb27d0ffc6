#include "certify/report/report_json.h"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <set>
#include <span>
#include <vector>

#include "certify/report/report_mutation.h"
#include "certify/report/report_signature.h"

namespace vyre::certify {
namespace {

// Buffers larger than this are shown cut in report.json; a failure's repro
// file, or for the largest cases its rerun command, gives them whole.
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

nlohmann::json failure_to_json(const Failure& f) {
  nlohmann::json j = {{"variant", f.variant},
                      {"detail", f.detail},
                      {"inputs", buffers_to_json(f.inputs)},
                      {"expected", buffers_to_json(f.expected)},
                      {"observed", buffers_to_json(f.observed)},
                      {"repro", f.repro}};
  // Written only where there is one, so reports of levels that never reduce
  // keep schema 1's shape.
  if (!f.reduced_repro.empty()) j["reduced_repro"] = f.reduced_repro;
  if (!f.reduced_symptom.empty()) j["reduced_symptom"] = f.reduced_symptom;
  if (!f.original_repro.empty()) j["original_repro"] = f.original_repro;
  if (f.first_difference) {
    const FirstDifference& d = *f.first_difference;
    j["first_difference"] = {
        {"buffer", d.buffer}, {"word", d.word}, {"expected", d.expected}, {"observed", d.observed}};
  }
  return j;
}

nlohmann::json case_to_json(const CaseResult& c, const std::string& device) {
  nlohmann::json j = {
      {"id", c.id},
      {"device_fingerprint", device},
      {"level", name_of(c.level)},
      {"oracle", c.oracle},
      {"status", name_of(c.verdict)},
      {"message", c.message},
      {"variants", c.variants},
      {"runs_per_variant", c.runs_per_variant},
      {"dispatches", c.dispatches},
      {"distinct_outputs", c.distinct_outputs},
      {"timing_us",
       {{"compile", c.compile_us},
        {"backend", c.backend_us},
        {"reference", c.reference_us},
        // The backend's own per-dispatch overhead in its batches, in ns.
        {"per_dispatch_ns", static_cast<uint64_t>(c.per_dispatch_us * 1000.0 + 0.5)}}}};
  // Only a measured case has one: a missing device time is "not measured", never 0.
  if (c.device_us) j["timing_us"]["device"] = *c.device_us;
  if (c.failure) j["failure"] = failure_to_json(*c.failure);
  if (c.retried) j["retried"] = *c.retried;
  return j;
}

nlohmann::json random_programs_to_json(const RandomProgramSummary& s) {
  nlohmann::json categories = nlohmann::json::array();
  for (const CoverageCategory& c : s.categories) {
    categories.push_back(
        {{"category", c.category}, {"reached", c.reached}, {"universe", c.universe}});
  }
  return {{"generated", s.generated},
          {"discarded", s.discarded},
          {"programs", s.programs},
          {"coverage", {{"categories", categories}, {"not_reached", s.not_reached}}}};
}

nlohmann::json shard_to_json(const ShardInfo& s) {
  return {{"index", s.index},
          {"count", s.count},
          {"selected", s.selected},
          {"selection_digest", s.selection_digest}};
}

nlohmann::json baseline_to_json(const BaselineComparison& b) {
  nlohmann::json known = nlohmann::json::array();
  for (const KnownFailure& k : b.known) {
    nlohmann::json entry = {{"case", k.case_id}, {"reason", k.reason}};
    if (!k.link.empty()) entry["link"] = k.link;
    known.push_back(std::move(entry));
  }
  return {{"source", b.source},
          {"new_failures", b.new_failures},
          {"fixed", b.fixed},
          {"still_failing", b.still_failing},
          {"known", known}};
}

/// The run's timing: wall and phases, and where the backend measured device
/// time, the dispatch phase's split and the slowest cases' (written only
/// then, so that reports of unmeasured backends keep schema 1's shape).
nlohmann::json run_timing_to_json(const Report& r) {
  nlohmann::json j = {{"wall", r.wall_us}, {"phases", r.phase_us}};
  if (!r.dispatch_split) return j;
  const DispatchSplit& s = *r.dispatch_split;
  j["dispatch_split"] = {{"device", s.device_us},
                         {"host", s.host_us},
                         {"measured_cases", s.measured_cases},
                         {"unmeasured_cases", s.unmeasured_cases}};
  nlohmann::json slowest = nlohmann::json::array();
  for (const CaseResult* c : slowest_cases(r)) {
    nlohmann::json entry = {{"id", c->id}, {"backend", c->backend_us}};
    if (c->device_us) {
      entry["device"] = *c->device_us;
      entry["host"] = c->backend_us - *c->device_us;
    }
    slowest.push_back(std::move(entry));
  }
  j["slowest"] = std::move(slowest);
  return j;
}

}  // namespace

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

nlohmann::json level_to_json(const LevelSummary& l) {
  return {{"level", name_of(l.level)}, {"summary", summary_of(l.level)},
          {"cases", l.cases},          {"passed", l.passed},
          {"failed", l.failed},        {"not_supported", l.not_supported},
          {"certified", l.certified},  {"reason", l.reason}};
}

nlohmann::json buffers_to_json(const BufferSet& buffers) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, bytes] : buffers) {
    size_t n = std::min(bytes.size(), kMaxJsonBufferBytes);
    std::string text = hex(bytes.data(), n);
    if (n < bytes.size()) {
      text += "...(" + std::to_string(bytes.size()) + " bytes in all, cut here)";
    }
    j[name] = text;
  }
  return j;
}

nlohmann::json report_to_json(const Report& r) {
  const std::string device = device_fingerprint(r.backend, device_to_json(r.device));
  nlohmann::json cases = nlohmann::json::array();
  for (const CaseResult& c : r.cases) cases.push_back(case_to_json(c, device));
  nlohmann::json levels = nlohmann::json::array();
  for (const LevelSummary& l : r.levels) levels.push_back(level_to_json(l));
  nlohmann::json j = {{"schema_version", Report::kSchemaVersion},
                      {"spec_snapshot", Report::kSpecSnapshot},
                      {"suite_version", r.suite_version},
                      {"backend", r.backend},
                      {"device", device_to_json(r.device)},
                      {"seed", r.seed},
                      {"runs", r.runs},
                      {"filter", r.filter},
                      {"requested_level", name_of(r.requested_level)},
                      {"started_utc", r.started_utc},
                      {"timing_us", run_timing_to_json(r)},
                      {"levels", levels},
                      {"cases", cases},
                      {"certified", r.certified},
                      {"reason", r.reason}};
  if (auto score = mutation_score_json(r.backend)) j["mutation_score"] = std::move(*score);
  if (r.random_programs) j["random_programs"] = random_programs_to_json(*r.random_programs);
  // Written only when used, so unsharded runs without a baseline keep schema 1's shape.
  if (r.shard) j["shard"] = shard_to_json(*r.shard);
  if (r.shards) j["shards"] = *r.shards;
  if (r.baseline) j["baseline"] = baseline_to_json(*r.baseline);
  if (r.seed_policy) j["seed_policy"] = *r.seed_policy;
  if (r.time_budget_s) j["time_budget_s"] = *r.time_budget_s;
  if (r.not_run) {
    j["complete"] = false;
    j["not_run"] = *r.not_run;
  }
  if (r.driver_cache) {
    j["driver_cache"] = {
        {"dir", r.driver_cache->dir},           {"what", r.driver_cache->what},
        {"hits", r.driver_cache->hits},         {"misses", r.driver_cache->misses},
        {"rejected", r.driver_cache->rejected}, {"stored", r.driver_cache->stored}};
  }
  return j;
}

std::string device_fingerprint(std::string_view backend, const nlohmann::json& device) {
  const nlohmann::json ran_on = {{"backend", backend}, {"device", device}};
  return sha256_hex(canonical_json(ran_on)).substr(0, kDeviceFingerprintHexDigits);
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
  // The signature is checked for form here and against a key by
  // check_signature (report_signature.h); it signs the digest's certificate too.
  for (const auto& [key, value] : cert->items()) {
    if (key != "algorithm" && key != "canonicalization" && key != "digest" && key != "signature") {
      return Error{"the certificate has a member `" + key +
                   "` that schema 1 does not define; only algorithm, canonicalization, digest "
                   "and signature may sit outside the digest"};
    }
  }
  if (cert->contains("signature")) {
    if (auto form = check_signature_form((*cert)["signature"]); !form) return form.error();
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
  bool too_deep = false;
  const nlohmann::json::parser_callback_t track_keys = [&](int depth,
                                                           nlohmann::json::parse_event_t event,
                                                           nlohmann::json& value) {
    using Event = nlohmann::json::parse_event_t;
    // Copying, hashing and freeing a value recurse once per level: a deeper
    // one is dropped while parsing (the parser itself keeps its own stack),
    // so no deep value is ever built.
    if ((event == Event::object_start || event == Event::array_start) && depth >= kMaxReportDepth) {
      too_deep = true;
    }
    if (too_deep) return false;
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
  if (too_deep) {
    return Error{"arrays and objects nested more than " + std::to_string(kMaxReportDepth) +
                 " levels deep; a report nests a few levels, so this is no report"};
  }
  return parsed;
}

}  // namespace vyre::certify
