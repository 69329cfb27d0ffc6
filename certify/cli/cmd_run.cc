// `vyre-certify run CASE.vyre [--backend reference] [--schedule S] [--strict-oob]`:
// parses one case file, runs it, prints every output buffer as u32 words,
// the out-of-bounds counts and violations, and compares with the case's
// expectation. Exit codes: 0 ran and matched (or `expect reference`), 1 the
// run failed, was non-conforming or differs from the expectation (with a diff
// of the first differing words), 2 bad usage or an unreadable / unparsable file.
#include <cinttypes>
#include <cstdio>
#include <optional>
#include <string>

#include "certify/cli/command.h"
#include "certify/cli/read_input.h"
#include "reference/host_words.h"
#include "reference/interpreter.h"
#include "spec/text/text_format.h"

namespace vyre::cli {
namespace {

constexpr std::string_view kUsage =
    "vyre-certify run CASE.vyre [--backend reference] "
    "[--schedule canonical|reversed|random:SEED] [--strict-oob]";
/// Words printed per output buffer before the rest is summarised.
constexpr size_t kMaxPrintedWords = 256;
/// Differing words listed per buffer in a failed comparison.
constexpr size_t kMaxListedDifferences = 8;

struct RunFlags {
  std::string file;
  std::string backend = "reference";
  reference::RunOptions options;
};

int usage_error(const std::string& problem) {
  std::fprintf(stderr, "vyre-certify run: %s\nusage: %.*s\n", problem.c_str(),
               static_cast<int>(kUsage.size()), kUsage.data());
  return kExitUsage;
}

std::optional<reference::Schedule> parse_schedule(const std::string& text) {
  using Kind = reference::Schedule::Kind;
  if (text == "canonical") return reference::Schedule{Kind::Canonical, 0};
  if (text == "reversed") return reference::Schedule{Kind::Reversed, 0};
  const std::string prefix = "random:";
  if (!text.starts_with(prefix) || text.size() == prefix.size()) return std::nullopt;
  const std::string seed = text.substr(prefix.size());
  char* end = nullptr;
  const unsigned long long value = std::strtoull(seed.c_str(), &end, 0);
  if (end == nullptr || *end != '\0' || seed.front() == '-') return std::nullopt;
  return reference::Schedule{Kind::Random, value};
}

/// Parses the arguments; an error message on bad usage.
std::optional<std::string> parse_flags(std::span<const std::string> args, RunFlags& flags) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size();
    if (a == "--backend") {
      if (!has_value) return "--backend needs a name";
      flags.backend = args[++i];
    } else if (a == "--schedule") {
      if (!has_value) return "--schedule needs canonical, reversed or random:SEED";
      const std::optional<reference::Schedule> s = parse_schedule(args[++i]);
      if (!s) return "unknown schedule `" + args[i] + "`; use canonical, reversed or random:SEED";
      flags.options.schedule = *s;
    } else if (a == "--strict-oob") {
      flags.options.strict_oob = true;
    } else if (a.starts_with("--")) {
      return "unknown option `" + a + "`";
    } else if (flags.file.empty()) {
      flags.file = a;
    } else {
      return "more than one case file given (`" + flags.file + "` and `" + a + "`)";
    }
  }
  if (flags.file.empty()) return "no case file given";
  if (flags.backend != "reference") {
    return "unknown backend `" + flags.backend + "`; `run` knows: reference";
  }
  return std::nullopt;
}

/// What one execution of a case produced. Other backends plug in here: they
/// fill `outputs` (and leave the reference-only details empty).
struct Execution {
  std::optional<Error> error;
  BufferSet outputs;
  std::optional<reference::OobCounts> oob;
  std::vector<reference::Violation> violations;
  uint64_t lane_ops = 0;
};

Execution execute(const TestCase& test_case, const RunFlags& flags) {
  Execution out;
  Result<reference::RunResult> r =
      reference::run(test_case.program, test_case.inputs, test_case.grid, flags.options);
  if (!r.ok()) {
    out.error = r.error();
    return out;
  }
  out.outputs = std::move(r->outputs);
  out.oob = r->oob;
  out.violations = std::move(r->violations);
  out.lane_ops = r->lane_ops;
  return out;
}

void print_buffer(const std::string& name, const ByteBuffer& bytes) {
  const std::vector<uint32_t> words = reference::to_words(bytes);
  std::printf("output %s: %zu bytes, %zu u32 words\n", name.c_str(), bytes.size(), words.size());
  const size_t shown = std::min(words.size(), kMaxPrintedWords);
  for (size_t i = 0; i < shown; i += 8) {
    std::printf("  [%4zu]", i);
    for (size_t k = i; k < std::min(shown, i + 8); ++k) std::printf(" 0x%08" PRIX32, words[k]);
    std::printf("\n");
  }
  if (shown < words.size()) std::printf("  ... %zu more words not shown\n", words.size() - shown);
  if (bytes.size() % 4 != 0) {
    std::printf("  trailing bytes:");
    for (size_t b = words.size() * 4; b < bytes.size(); ++b) std::printf(" 0x%02X", bytes[b]);
    std::printf("\n");
  }
}

/// printf into a std::string.
template <typename... Args>
void append(std::string& out, const char* format, Args... args) {
  char line[512];
  std::snprintf(line, sizeof line, format, args...);
  out += line;
}

/// How `observed` differs from `expected`, one line per difference; empty
/// when they match.
std::string differences(const BufferSet& expected, const BufferSet& observed) {
  std::string out;
  for (const auto& [name, want] : expected) {
    const auto it = observed.find(name);
    if (it == observed.end()) {
      append(out, "  %s: expected an output buffer, but the run produced none of that name\n",
             name.c_str());
      continue;
    }
    const ByteBuffer& got = it->second;
    if (got == want) continue;
    if (got.size() != want.size()) {
      append(out, "  %s: expected %zu bytes, observed %zu bytes\n", name.c_str(), want.size(),
             got.size());
    }
    const std::vector<uint32_t> w = reference::to_words(want);
    const std::vector<uint32_t> g = reference::to_words(got);
    size_t differing = 0;
    for (size_t i = 0; i < std::min(w.size(), g.size()); ++i) {
      if (w[i] == g[i]) continue;
      if (differing++ < kMaxListedDifferences) {
        append(out, "  %s[%zu]: expected 0x%08" PRIX32 ", observed 0x%08" PRIX32 "\n", name.c_str(),
               i, w[i], g[i]);
      }
    }
    if (differing > kMaxListedDifferences) {
      append(out, "  %s: %zu more differing words not listed\n", name.c_str(),
             differing - kMaxListedDifferences);
    }
    if (differing == 0 && got.size() == want.size()) {
      append(out, "  %s: the trailing bytes past the last whole word differ\n", name.c_str());
    }
  }
  for (const auto& [name, bytes] : observed) {
    if (expected.count(name) == 0) {
      append(out, "  %s: the run produced this output but the case expects no such buffer\n",
             name.c_str());
    }
  }
  return out;
}

std::string schedule_text(const reference::Schedule& s) {
  switch (s.kind) {
    case reference::Schedule::Kind::Canonical:
      return "canonical";
    case reference::Schedule::Kind::Reversed:
      return "reversed";
    case reference::Schedule::Kind::Random:
      return "random:" + std::to_string(s.seed);
  }
  return "?";
}

int run_case(std::span<const std::string> args) {
  RunFlags flags;
  if (const std::optional<std::string> problem = parse_flags(args, flags)) {
    return usage_error(*problem);
  }
  const Result<std::string> text = read_text_file(flags.file);
  if (!text) {
    std::fprintf(stderr, "%s: %s\n", flags.file.c_str(), text.error().message.c_str());
    return kExitUsage;
  }
  const Result<TestCase> parsed = parse_case(*text);
  if (!parsed.ok()) {
    std::fprintf(stderr, "%s:%u:%u: %s\n", flags.file.c_str(), parsed.error().loc.line,
                 parsed.error().loc.col, parsed.error().message.c_str());
    return kExitUsage;
  }
  const TestCase& c = *parsed;
  const auto& wg = c.program.workgroup_size;
  const auto& grid = c.grid.workgroups;
  std::printf(
      "case \"%s\": dispatch (%u, %u, %u) of workgroup size (%u, %u, %u), backend %s, "
      "schedule %s%s\n",
      c.name.c_str(), grid[0], grid[1], grid[2], wg[0], wg[1], wg[2], flags.backend.c_str(),
      schedule_text(flags.options.schedule).c_str(),
      flags.options.strict_oob ? ", strict out-of-bounds" : "");

  const Execution e = execute(c, flags);
  if (e.error) {
    std::printf("RUN FAILED: %s\n", e.error->message.c_str());
    return kExitFail;
  }
  for (const auto& [name, bytes] : e.outputs) print_buffer(name, bytes);
  if (e.oob) {
    std::printf("out-of-bounds accesses: %" PRIu64 " loads, %" PRIu64 " stores, %" PRIu64
                " atomics\n",
                e.oob->loads, e.oob->stores, e.oob->atomics);
    std::printf("lane-operations: %" PRIu64 "\n", e.lane_ops);
  }
  int status = kExitOk;
  if (e.violations.empty()) {
    std::printf("violations: none\n");
  } else {
    std::printf("NON-CONFORMING: %zu violation(s)\n", e.violations.size());
    for (const reference::Violation& v : e.violations) {
      std::printf("  %.*s: %s\n", static_cast<int>(reference::name_of(v.kind).size()),
                  reference::name_of(v.kind).data(), v.message.c_str());
    }
    status = kExitFail;
  }
  if (!c.expected) {
    std::printf("expectation: expect reference (outputs printed, nothing to compare)\n");
    return status;
  }
  const std::string diff = differences(*c.expected, e.outputs);
  if (diff.empty()) {
    std::printf("expectation: PASS (every output matches)\n");
    return status;
  }
  std::printf("expectation: FAIL, the outputs differ:\n%s", diff.c_str());
  return kExitFail;
}

const bool registered = register_command(
    {"run", "run one case file on the reference interpreter and check its expectation", kUsage,
     run_case});

}  // namespace
}  // namespace vyre::cli
