#include "certify/report/report_read.h"

#include <array>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "certify/report/report_json.h"
#include "certify/report/report_verify.h"

namespace vyre::certify {
namespace {

// Reports keep at most 4 KiB of each buffer, so even a suite of many
// thousand cases stays far below this (the limit `verify` reads under).
constexpr uintmax_t kMaxReportBytes = uintmax_t{256} << 20;
// A cut buffer's stated size is padded back only up to this: a forged size
// must not make the reader allocate without bound.
constexpr uint64_t kMaxPaddedBufferBytes = uint64_t{64} << 20;
constexpr std::string_view kCutMark = "...(";

/// A member the C++ report holds in 32 bits. Past that it throws, and
/// report_from_json turns the exception into its Error: verify_report checks
/// only that numbers are unsigned.
uint32_t u32(const nlohmann::json& v) {
  const uint64_t x = v.get<uint64_t>();
  if (x > UINT32_MAX) throw std::out_of_range("a number is larger than its member's 32 bits");
  return static_cast<uint32_t>(x);
}

std::array<uint32_t, 3> u32_triple(const nlohmann::json& v) {
  return {u32(v[0]), u32(v[1]), u32(v[2])};
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

/// Bytes of one buffer as buffers_to_json writes it.
Result<std::vector<uint8_t>> buffer_from_hex(const std::string& text, const std::string& at) {
  const size_t cut = text.find(kCutMark);
  const std::string_view digits = std::string_view(text).substr(0, cut);
  if (digits.size() % 2 != 0) return Error{at + ": odd number of hex digits"};
  std::vector<uint8_t> bytes;
  bytes.reserve(digits.size() / 2);
  for (size_t i = 0; i < digits.size(); i += 2) {
    const int hi = hex_digit(digits[i]);
    const int lo = hex_digit(digits[i + 1]);
    if (hi < 0 || lo < 0) return Error{at + ": not lower-case hex"};
    bytes.push_back(static_cast<uint8_t>(hi * 16 + lo));
  }
  if (cut == std::string::npos) return bytes;
  uint64_t total = 0;
  const char* first = text.data() + cut + kCutMark.size();
  const char* last = text.data() + text.size();
  auto [end, ec] = std::from_chars(first, last, total);
  if (ec != std::errc() || std::string_view(end, last) != " bytes in all, cut here)" ||
      total < bytes.size() || total > kMaxPaddedBufferBytes) {
    return Error{at + ": a cut buffer must end `...(N bytes in all, cut here)`"};
  }
  bytes.resize(total, 0);
  return bytes;
}

Result<BufferSet> buffers_from_json(const nlohmann::json& j, const std::string& at) {
  BufferSet out;
  for (const auto& [name, text] : j.items()) {
    auto bytes = buffer_from_hex(text.get<std::string>(), at + "/" + name);
    if (!bytes) return bytes.error();
    out[name] = std::move(*bytes);
  }
  return out;
}

Result<Failure> failure_from_json(const nlohmann::json& j, const std::string& at) {
  Failure f;
  f.variant = j["variant"].get<std::string>();
  f.detail = j["detail"].get<std::string>();
  f.repro = j["repro"].get<std::string>();
  f.reduced_repro = j.value("reduced_repro", "");
  f.reduced_symptom = j.value("reduced_symptom", "");
  f.original_repro = j.value("original_repro", "");
  for (auto [name, set] : {std::pair{"inputs", &f.inputs}, std::pair{"expected", &f.expected},
                           std::pair{"observed", &f.observed}}) {
    auto buffers = buffers_from_json(j[name], at + "/" + name);
    if (!buffers) return buffers.error();
    *set = std::move(*buffers);
  }
  if (j.contains("first_difference")) {
    const nlohmann::json& d = j["first_difference"];
    f.first_difference = FirstDifference{d["buffer"].get<std::string>(), d["word"].get<uint64_t>(),
                                         u32(d["expected"]), u32(d["observed"])};
  }
  return f;
}

Result<CaseResult> case_from_json(const nlohmann::json& j, const std::string& at) {
  CaseResult c;
  c.id = j["id"].get<std::string>();
  // verify_report checked that the level and status are names this build knows.
  c.level = *level_named(j["level"].get<std::string>());
  c.verdict = *verdict_named(j["status"].get<std::string>());
  c.oracle = j["oracle"].get<std::string>();
  c.message = j["message"].get<std::string>();
  c.variants = u32(j["variants"]);
  c.runs_per_variant = u32(j["runs_per_variant"]);
  c.dispatches = j["dispatches"].get<uint64_t>();
  c.distinct_outputs = u32(j["distinct_outputs"]);
  const nlohmann::json& t = j["timing_us"];
  c.compile_us = t["compile"].get<uint64_t>();
  c.backend_us = t["backend"].get<uint64_t>();
  c.reference_us = t["reference"].get<uint64_t>();
  c.per_dispatch_us = static_cast<double>(t.value("per_dispatch_ns", uint64_t{0})) / 1000.0;
  if (t.contains("device")) c.device_us = t["device"].get<uint64_t>();
  if (j.contains("failure")) {
    auto failure = failure_from_json(j["failure"], at + "/failure");
    if (!failure) return failure.error();
    c.failure = std::move(*failure);
  }
  return c;
}

Capabilities device_from_json(const nlohmann::json& j) {
  Capabilities c;
  c.device_name = j["name"].get<std::string>();
  c.driver = j["driver"].get<std::string>();
  c.api = j["api"].get<std::string>();
  c.max_workgroup_invocations = u32(j["max_workgroup_invocations"]);
  c.max_workgroup_size = u32_triple(j["max_workgroup_size"]);
  c.max_workgroup_count = u32_triple(j["max_workgroup_count"]);
  c.max_storage_buffer_bytes = j["max_storage_buffer_bytes"].get<uint64_t>();
  c.max_uniform_buffer_bytes = j["max_uniform_buffer_bytes"].get<uint64_t>();
  c.max_workgroup_memory_bytes = j["max_workgroup_memory_bytes"].get<uint64_t>();
  c.preferred_workgroup_size = u32(j["preferred_workgroup_size"]);
  return c;
}

RandomProgramSummary random_programs_from_json(const nlohmann::json& j) {
  RandomProgramSummary s;
  s.generated = u32(j["generated"]);
  s.discarded = u32(j["discarded"]);
  s.programs = u32(j["programs"]);
  for (const nlohmann::json& c : j["coverage"]["categories"]) {
    s.categories.push_back(
        {c["category"].get<std::string>(), u32(c["reached"]), u32(c["universe"])});
  }
  s.not_reached = j["coverage"]["not_reached"].get<std::vector<std::string>>();
  return s;
}

}  // namespace

Result<SealedReport> report_from_json(const nlohmann::json& json) {
  auto digest = verify_report(json);
  if (!digest) return digest.error();
  // verify_report checked every member read here: present, with its type.
  try {
    SealedReport sealed;
    sealed.digest = *digest;
    Report& r = sealed.report;
    r.suite_version = json["suite_version"].get<std::string>();
    r.backend = json["backend"].get<std::string>();
    r.device = device_from_json(json["device"]);
    r.seed = json["seed"].get<uint64_t>();
    r.runs = u32(json["runs"]);
    r.filter = json["filter"].get<std::string>();
    r.requested_level = *level_named(json["requested_level"].get<std::string>());
    r.started_utc = json["started_utc"].get<std::string>();
    r.wall_us = json["timing_us"]["wall"].get<uint64_t>();
    r.phase_us = json["timing_us"]["phases"].get<std::map<std::string, uint64_t>>();
    if (json["timing_us"].contains("dispatch_split")) {
      const nlohmann::json& s = json["timing_us"]["dispatch_split"];
      r.dispatch_split = DispatchSplit{s["device"].get<uint64_t>(), s["host"].get<uint64_t>(),
                                       u32(s["measured_cases"]), u32(s["unmeasured_cases"])};
    }
    for (size_t i = 0; i < json["cases"].size(); ++i) {
      auto c = case_from_json(json["cases"][i], "/cases/" + std::to_string(i));
      if (!c) return c.error();
      r.cases.push_back(std::move(*c));
    }
    if (json.contains("random_programs")) {
      r.random_programs = random_programs_from_json(json["random_programs"]);
    }
    if (json.contains("shard")) {
      const nlohmann::json& s = json["shard"];
      r.shard = ShardInfo{u32(s["index"]), u32(s["count"]), u32(s["selected"]),
                          s["selection_digest"].get<std::string>()};
    }
    if (json.contains("shards")) r.shards = json["shards"].get<std::vector<std::string>>();
    if (json.contains("baseline")) {
      const nlohmann::json& b = json["baseline"];
      r.baseline = BaselineComparison{b["source"].get<std::string>(),
                                      b["new_failures"].get<std::vector<std::string>>(),
                                      b["fixed"].get<std::vector<std::string>>(),
                                      b["still_failing"].get<std::vector<std::string>>(),
                                      {}};
      for (const nlohmann::json& k : b.value("known", nlohmann::json::array())) {
        r.baseline->known.push_back(
            {k["case"].get<std::string>(), k["reason"].get<std::string>(), k.value("link", "")});
      }
    }
    // The levels and verdict verify_report found equal to what judge gives.
    judge(r);
    return sealed;
  } catch (const std::out_of_range& e) {
    return Error{e.what()};
  }
}

Result<SealedReport> read_report_file(const std::string& path, const Ed25519Key* signer) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return Error{path + ": not a readable file (give the path of a report.json)"};
  }
  if (std::filesystem::file_size(path, ec) > kMaxReportBytes || ec) {
    return Error{path + ": larger than 256 MiB, too large for a report"};
  }
  std::ifstream f(path, std::ios::binary);
  std::stringstream text;
  text << f.rdbuf();
  if (!f) return Error{path + ": cannot be read"};
  auto parsed = parse_report_text(text.str());
  if (!parsed) return Error{path + ": " + parsed.error().message};
  if (parsed->repeated_key) {
    return Error{path + ": the key `" + *parsed->repeated_key + "` appears twice in one object"};
  }
  auto sealed = report_from_json(parsed->json);
  if (!sealed) return Error{path + ": not a verified report: " + sealed.error().message};
  if (signer != nullptr) {
    if (auto signature = check_signature(parsed->json, signer); !signature) {
      return Error{path + ": not signed by the given key: " + signature.error().message};
    }
  }
  sealed->path = path;
  return sealed;
}

}  // namespace vyre::certify
