#include "certify/report/timing_checks.h"

#include <algorithm>
#include <string>
#include <vector>

#include "certify/report/report.h"

namespace vyre::certify {
namespace {

/// One slowest-list entry as the run writes it for `c` (report_json.cc).
nlohmann::json slowest_entry(const nlohmann::json& c) {
  const nlohmann::json& t = c["timing_us"];
  nlohmann::json entry = {{"id", c["id"]}, {"backend", t["backend"]}};
  if (t.contains("device")) {
    entry["device"] = t["device"];
    entry["host"] = t["backend"].get<uint64_t>() - t["device"].get<uint64_t>();
  }
  return entry;
}

Result<Ok> check_cases(const nlohmann::json& cases, uint64_t& measured) {
  for (size_t i = 0; i < cases.size(); ++i) {
    const nlohmann::json& t = cases[i]["timing_us"];
    if (!t.contains("device")) continue;
    ++measured;
    if (t["device"].get<uint64_t>() > t["backend"].get<uint64_t>()) {
      return Error{"/cases/" + std::to_string(i) + "/timing_us/device: " + t["device"].dump() +
                   " us is more than the case's backend time, " + t["backend"].dump() +
                   " us, that it is a part of"};
    }
  }
  return Ok{};
}

Result<Ok> check_split(const nlohmann::json& timing, uint64_t cases, uint64_t measured) {
  const nlohmann::json& split = timing["dispatch_split"];
  const nlohmann::json& phases = timing["phases"];
  const uint64_t dispatch = phases.contains("dispatch") ? phases["dispatch"].get<uint64_t>() : 0;
  const uint64_t device = split["device"].get<uint64_t>();
  const uint64_t host = split["host"].get<uint64_t>();
  if (device > dispatch || host != dispatch - device) {
    return Error{"/timing_us/dispatch_split: device " + std::to_string(device) + " us and host " +
                 std::to_string(host) + " us do not add up to the dispatch phase's " +
                 std::to_string(dispatch) + " us"};
  }
  const uint64_t said = split["measured_cases"].get<uint64_t>();
  if (said != measured || split["unmeasured_cases"].get<uint64_t>() != cases - measured) {
    return Error{"/timing_us/dispatch_split/measured_cases: the split says " +
                 std::to_string(said) + " measured and " + split["unmeasured_cases"].dump() +
                 " unmeasured, but " + std::to_string(measured) + " of the " +
                 std::to_string(cases) + " cases have a device time"};
  }
  return Ok{};
}

Result<Ok> check_slowest(const nlohmann::json& slowest, const nlohmann::json& cases) {
  std::vector<size_t> order(cases.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  // As slowest_cases orders them: most backend time first, ties in case order.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return cases[a]["timing_us"]["backend"].get<uint64_t>() >
           cases[b]["timing_us"]["backend"].get<uint64_t>();
  });
  order.resize(std::min(order.size(), kSlowestCasesListed));
  if (slowest.size() != order.size()) {
    return Error{"/timing_us/slowest: " + std::to_string(slowest.size()) + " entries, but the " +
                 std::to_string(cases.size()) + " cases give " + std::to_string(order.size())};
  }
  for (size_t i = 0; i < order.size(); ++i) {
    const nlohmann::json expected = slowest_entry(cases[order[i]]);
    if (slowest[i] != expected) {
      return Error{"/timing_us/slowest/" + std::to_string(i) + ": " + slowest[i].dump() +
                   ", but the cases' own timing gives " + expected.dump()};
    }
  }
  return Ok{};
}

}  // namespace

Result<Ok> check_timing(const nlohmann::json& body) {
  const nlohmann::json& cases = body["cases"];
  const nlohmann::json& timing = body["timing_us"];
  uint64_t measured = 0;
  if (auto checked = check_cases(cases, measured); !checked) return checked;
  const bool has_split = timing.contains("dispatch_split");
  if (has_split != timing.contains("slowest")) {
    return Error{"/timing_us: dispatch_split and slowest come together, or neither does"};
  }
  if (!has_split) {
    if (measured != 0) {
      return Error{"/timing_us/dispatch_split: missing, but " + std::to_string(measured) +
                   " cases have a device time"};
    }
    return Ok{};
  }
  if (auto split = check_split(timing, cases.size(), measured); !split) return split;
  return check_slowest(timing["slowest"], cases);
}

}  // namespace vyre::certify
