#include "backends/fault_injection/fault_plan.h"

#include <array>
#include <charconv>

namespace vyre {
namespace {

constexpr std::array<std::pair<FaultKind, std::string_view>, 6> kKinds = {{
    {FaultKind::DeviceLost, "device-lost"},
    {FaultKind::Hang, "hang"},
    {FaultKind::WrongBytes, "wrong-bytes"},
    {FaultKind::TruncatedReadback, "truncate"},
    {FaultKind::AllocationFailure, "alloc-fail"},
    {FaultKind::Crash, "crash"},
}};

constexpr std::string_view kGrammar =
    "items are KIND@N (once, at dispatch call N), KIND@N+ (from call N on), KIND%P (about one "
    "call in P, drawn from the seed) or seed=S, separated by commas; KIND is device-lost, hang, "
    "wrong-bytes, truncate, alloc-fail or crash";

std::optional<FaultKind> kind_named(std::string_view name) {
  for (const auto& [kind, text] : kKinds) {
    if (text == name) return kind;
  }
  return std::nullopt;
}

template <typename T>
std::optional<T> number(std::string_view text) {
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

Result<FaultItem> parse_item(std::string_view item) {
  const auto bad = [&](const std::string& why) {
    return Error{"--inject-faults: `" + std::string(item) + "`: " + why + "; " +
                 std::string(kGrammar)};
  };
  const size_t mark = item.find_first_of("@%");
  if (mark == std::string_view::npos) return bad("no `@N` or `%P` says when it fires");
  FaultItem out;
  const auto kind = kind_named(item.substr(0, mark));
  if (!kind) return bad("unknown fault kind `" + std::string(item.substr(0, mark)) + "`");
  out.kind = *kind;
  std::string_view when = item.substr(mark + 1);
  if (item[mark] == '%') {
    const auto one_in = number<uint32_t>(when);
    if (!one_in || *one_in == 0) return bad("P in KIND%P must be a positive number");
    out.one_in = *one_in;
    return out;
  }
  if (when.ends_with('+')) {
    out.persistent = true;
    when.remove_suffix(1);
  }
  const auto at = number<uint64_t>(when);
  if (!at || *at == 0) return bad("N in KIND@N must be a call number from 1");
  out.at = *at;
  return out;
}

}  // namespace

std::string_view name_of(FaultKind kind) {
  for (const auto& [k, text] : kKinds) {
    if (k == kind) return text;
  }
  return "?";
}

bool FaultPlan::crashes() const {
  for (const FaultItem& item : items) {
    if (item.kind == FaultKind::Crash) return true;
  }
  return false;
}

Result<FaultPlan> parse_fault_plan(std::string_view spec) {
  FaultPlan plan;
  plan.spec = std::string(spec);
  bool seeded = false;
  size_t start = 0;
  while (start <= spec.size()) {
    const size_t comma = std::min(spec.find(',', start), spec.size());
    const std::string_view item = spec.substr(start, comma - start);
    start = comma + 1;
    if (item.empty()) {
      return Error{"--inject-faults: an empty item in `" + std::string(spec) + "`; " +
                   std::string(kGrammar)};
    }
    if (item.starts_with("seed=")) {
      const auto seed = number<uint64_t>(item.substr(5));
      if (!seed) return Error{"--inject-faults: `" + std::string(item) + "`: S must be a number"};
      if (seeded) return Error{"--inject-faults: the seed is given twice; give it once"};
      seeded = true;
      plan.seed = *seed;
      continue;
    }
    auto parsed = parse_item(item);
    if (!parsed) return parsed.error();
    plan.items.push_back(*parsed);
  }
  if (plan.items.empty()) {
    return Error{"--inject-faults: `" + std::string(spec) + "` names no fault; " +
                 std::string(kGrammar)};
  }
  return plan;
}

uint64_t fault_draw(uint64_t seed, uint64_t call, uint64_t salt) {
  // splitmix64 over the three: every (seed, call, salt) its own draw.
  uint64_t z = seed ^ (call * 0x9E3779B97F4A7C15ull) ^ (salt * 0xD1B54A32D192ED03ull);
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::optional<FaultKind> fault_at(const FaultPlan& plan, uint64_t call) {
  for (size_t i = 0; i < plan.items.size(); ++i) {
    const FaultItem& item = plan.items[i];
    const bool fires = item.one_in != 0 ? fault_draw(plan.seed, call, i) % item.one_in == 0
                                        : call == item.at || (item.persistent && call > item.at);
    if (fires) return item.kind;
  }
  return std::nullopt;
}

}  // namespace vyre
