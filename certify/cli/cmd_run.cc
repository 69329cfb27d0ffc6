// `vyre-certify run CASE.vyre... [--backend NAME] [--device D] [--timeout-ms MS]
// [--schedule S] [--strict-oob]`: parses each case file, runs it on a backend
// (opened as the certification run opens it: built-in names, plugin paths in
// a child process), prints every output buffer as u32 words, on the reference
// also the out-of-bounds counts and violations, and compares with the case's
// expectation with the suite's one output judge (under the case's `compare`
// clause; bytes by default; `expect reference` on another backend compares
// with the reference's bytes).
// Exit codes: 0 ran and matched (or `expect reference` on the reference), 1
// the run failed, was non-conforming or differs from the expectation (with a
// diff), 2 bad usage, an unreadable / unparsable file or no usable backend;
// with several files, the worst of theirs (the backend is opened once).
// With --rules, the dataflow form runs instead (run_dataflow.cc).
#include <cctype>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "certify/cli/backend_choice.h"
#include "certify/cli/command.h"
#include "certify/cli/read_input.h"
#include "certify/cli/run_dataflow.h"
#include "certify/run/output_judge.h"
#include "certify/run/replay_dispatch.h"
#include "reference/interpreter.h"
#include "spec/ir/host_words.h"

namespace vyre::cli {
namespace {

/// The backend `run` uses when none is named; the only one with schedules
/// and out-of-bounds checks.
constexpr std::string_view kReference = "reference";
/// The usage text; the other built-in backends come from the registry.
const std::string kRunUsage =
    "vyre-certify run CASE.vyre... [--backend NAME] [--device D] [--timeout-ms MS]\n"
    "                    [--schedule canonical|reversed|random:SEED] [--strict-oob] "
    "[--in-process]\n"
    "                    [--cache-dir DIR|--no-cache]\n"
    "  NAME is reference (the default), another built-in backend (" +
    built_in_backend_list(kReference) +
    ") or a plugin path. vulkan and opencl run in a child process (a driver crash is\n"
    "  reported as `crashed`) unless --in-process. Several files run one after another\n"
    "  on one backend; the exit status is the worst of theirs.\n"
    "  --schedule and --strict-oob apply to the reference only.\n"
    "vyre-certify run --rules RULES.toml --graph GRAPH.toml [--backend NAME] [--device D]\n"
    "                    [--timeout-ms MS]\n"
    "  runs the dataflow engine on a TOML graph (archetypes/dataflow/RULES_TOML.md).";
/// Words printed per output buffer before the rest is summarised.
constexpr size_t kMaxPrintedWords = 256;
/// Differing words listed per buffer in a failed comparison.
constexpr size_t kMaxListedDifferences = 8;

struct RunFlags {
  std::vector<std::string> files;
  BackendChoice backend;
  reference::RunOptions options;
  /// --schedule or --strict-oob given: options only the reference honours.
  bool reference_options = false;
};

int run_usage_error(const std::string& problem) {
  return cli::usage_error("vyre-certify run", problem, kRunUsage);
}

std::optional<reference::Schedule> parse_schedule(const std::string& text) {
  using Kind = reference::Schedule::Kind;
  if (text == "canonical") return reference::Schedule{Kind::Canonical, 0};
  if (text == "reversed") return reference::Schedule{Kind::Reversed, 0};
  const std::string prefix = "random:";
  if (!text.starts_with(prefix) || text.size() == prefix.size()) return std::nullopt;
  const std::string seed = text.substr(prefix.size());
  char* end = nullptr;
  // strtoull clamps a number past 2^64-1 to that value: its ERANGE must
  // refuse the seed, not run another schedule than the one asked for.
  errno = 0;
  const unsigned long long value = std::strtoull(seed.c_str(), &end, 0);
  if (end == nullptr || *end != '\0' || errno == ERANGE ||
      !std::isdigit(static_cast<unsigned char>(seed.front()))) {
    return std::nullopt;
  }
  return reference::Schedule{Kind::Random, value};
}

/// Parses the arguments; an error message on bad usage.
std::optional<std::string> parse_flags(std::span<const std::string> args, RunFlags& flags) {
  bool schedule_given = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size();
    if (std::optional<std::string> error; take_backend_arg(args, i, flags.backend, error)) {
      if (error) return error;
    } else if (a == "--schedule") {
      if (!has_value) return "--schedule needs canonical, reversed or random:SEED";
      if (schedule_given) return "--schedule given twice; give it once";
      schedule_given = true;
      const std::optional<reference::Schedule> s = parse_schedule(args[++i]);
      if (!s) {
        return "unknown schedule `" + args[i] +
               "`; use canonical, reversed or random:SEED, SEED a number from 0 to 2^64-1";
      }
      flags.options.schedule = *s;
      flags.reference_options = true;
    } else if (a == "--strict-oob") {
      flags.options.strict_oob = true;
      flags.reference_options = true;
    } else if (a.starts_with("--")) {
      return "unknown option `" + a + "`";
    } else {
      flags.files.push_back(a);
    }
  }
  if (flags.files.empty()) return "no case file given";
  if (flags.backend.backend.empty()) flags.backend.backend = kReference;
  if (auto problem = check_backend_choice(flags.backend)) return problem;
  if (flags.reference_options && flags.backend.backend != kReference) {
    return "--schedule and --strict-oob apply to the reference only, not to `" +
           flags.backend.backend + "`";
  }
  return std::nullopt;
}

/// What one execution of a case produced; the reference-only details
/// (out-of-bounds counts, violations) stay empty on other backends.
struct Execution {
  std::optional<Error> error;
  /// The certification's verdict of `error` (a compile or dispatch status).
  certify::Verdict error_verdict = certify::Verdict::Error;
  /// Run 1's outputs.
  BufferSet outputs;
  /// Every run that came back, as the repro's `batch` clause dispatched them
  /// (one dispatch without it).
  certify::ReplayOutcome replay;
  std::optional<reference::OobCounts> oob;
  std::vector<reference::Violation> violations;
  uint64_t lane_ops = 0;
};

Execution execute_on_reference(const TestCase& test_case, const reference::RunOptions& options) {
  Execution out;
  Result<reference::RunResult> r =
      reference::run(test_case.program, test_case.inputs, test_case.grid, options);
  if (!r.ok()) {
    out.error = r.error();
    return out;
  }
  out.outputs = r->outputs;
  out.replay.runs = 1;
  out.replay.outputs.emplace_back(1, std::move(r->outputs));
  out.oob = r->oob;
  out.violations = std::move(r->violations);
  out.lane_ops = r->lane_ops;
  return out;
}

Execution execute_on(Backend& backend, const TestCase& test_case) {
  Execution out;
  // The lowering the case names (a repro of a failure in one encoding
  // replays that encoding, or is not supported where the backend lacks it).
  CompileOutcome compiled = backend.compile_encoded(test_case.program, test_case.encoding);
  if (compiled.status != Status::Ok || !compiled.program) {
    out.error_verdict = compiled.status == Status::Ok ? certify::Verdict::BadOutput
                                                      : certify::verdict_of(compiled.status);
    out.error = Error{"compile: " + std::string(name_of(compiled.status)) + ": " +
                      (compiled.program || compiled.status != Status::Ok
                           ? compiled.message
                           : std::string("ok without a program"))};
    return out;
  }
  // Dispatched the way the failure was: the repro's batch, or one dispatch.
  out.replay = certify::replay_dispatch(backend, *compiled.program, test_case);
  if (const auto& b = test_case.batch) {
    std::printf("batch: %u runs in %u submissions, as recorded (run %u failed there)\n", b->runs,
                b->submissions, b->failed_run);
  }
  if (out.replay.status != Status::Ok) {
    out.error_verdict = certify::verdict_of(out.replay.status);
    out.error =
        Error{"dispatch: " + std::string(name_of(out.replay.status)) + ": " + out.replay.message +
              (test_case.batch ? " (run " + std::to_string(out.replay.failed_run) + " of " +
                                     std::to_string(test_case.batch->runs) + ")"
                               : std::string())};
    return out;
  }
  out.outputs = out.replay.outputs.front().second;
  return out;
}

void print_buffer(const std::string& name, const ByteBuffer& bytes) {
  const std::vector<uint32_t> words = to_words(bytes);
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

/// Runs the case in `file` on `backend` (the reference when null) and
/// prints what it gave: kExitOk, kExitFail or kExitUsage (unreadable file).
int run_file(const std::string& file, const RunFlags& flags, UsableBackend* backend) {
  const std::optional<TestCase> parsed = read_case_file(file);
  if (!parsed) return kExitUsage;
  const TestCase& c = *parsed;
  const auto& wg = c.program.workgroup_size;
  const auto& grid = c.grid.workgroups;
  std::printf(
      "case \"%s\": dispatch (%u, %u, %u) of workgroup size (%u, %u, %u), backend %s, "
      "schedule %s%s\n",
      c.name.c_str(), grid[0], grid[1], grid[2], wg[0], wg[1], wg[2], flags.backend.backend.c_str(),
      reference::describe(flags.options.schedule).c_str(),
      flags.options.strict_oob ? ", strict out-of-bounds" : "");

  const bool on_reference = flags.backend.backend == kReference;
  // The reference judges the case itself on every backend: a race, a
  // divergent barrier or outputs that depend on the schedule make it a case
  // no backend can be judged by. Its probes compare under the case's own
  // comparison (graph.bfs findings canonically).
  reference::RunOptions reference_options = flags.options;
  reference_options.same_result = [&c](const BufferSet& a, const BufferSet& b) {
    return certify::same_result(c, a, b);
  };
  const Execution ref = execute_on_reference(c, reference_options);
  Execution e;
  if (on_reference) {
    e = ref;
  } else {
    const Capabilities& caps = backend->device;
    std::printf("device: %s (driver %s, %s)\n", caps.device_name.c_str(), caps.driver.c_str(),
                caps.api.c_str());
    if (c.encoding != Encoding::AsEmitted) {
      std::printf("encoding: %s\n", std::string(name_of(c.encoding)).c_str());
    }
    e = execute_on(*backend->backend, c);
  }
  if (e.error) {
    std::printf("RUN FAILED: %s\n", e.error->message.c_str());
    std::printf("verdict: %s\n", std::string(certify::name_of(e.error_verdict)).c_str());
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
  if (ref.error && !on_reference) {
    std::printf("the reference rejects the case: %s\n", ref.error->message.c_str());
  } else if (ref.violations.empty()) {
    std::printf("violations: none\n");
  } else {
    std::printf("NON-CONFORMING%s: %zu violation(s)\n",
                on_reference ? "" : " (on the reference interpreter)", ref.violations.size());
    for (const reference::Violation& v : ref.violations) {
      std::printf("  %.*s: %s\n", static_cast<int>(reference::name_of(v.kind).size()),
                  reference::name_of(v.kind).data(), v.message.c_str());
    }
    status = kExitFail;
  }
  std::optional<BufferSet> expected = c.expected;
  if (!expected && !on_reference) {
    // `expect reference` elsewhere than on the reference: its bytes are the expectation.
    if (ref.error) {
      std::printf("RUN FAILED: the reference rejects the case: %s\n", ref.error->message.c_str());
      return kExitFail;
    }
    expected = ref.outputs;
  }
  if (!expected) {
    std::printf("expectation: expect reference (outputs printed, nothing to compare)\n");
    return status;
  }
  if (!ref.violations.empty()) {
    std::printf(
        "expectation: not judged: no backend's bytes can be judged against a non-conforming "
        "case\n");
    return kExitFail;
  }
  TestCase judged = c;
  judged.expected = std::move(expected);
  // Every run that came back is judged (run 1, and each run whose bytes
  // differ from it), as the certification run judges a batch.
  const std::optional<certify::RunFailure> failure = certify::first_failing_run(judged, e.replay);
  const char* how = c.comparison == Comparison::GraphBfs ? " as graph.bfs canonical findings" : "";
  const std::string runs =
      e.replay.runs > 1 ? " in all " + std::to_string(e.replay.runs) + " runs" : std::string();
  if (!failure) {
    std::printf("expectation: PASS (every output matches%s%s)\n", how, runs.c_str());
    std::printf("verdict: pass\n");
    return status;
  }
  std::string diff =
      failure->verdict == certify::Verdict::Fail && c.comparison == Comparison::Bytes
          ? certify::listed_differences(*judged.expected, failure->outputs, kMaxListedDifferences)
          : "  " + failure->why + "\n";
  const std::string which = e.replay.runs > 1 ? " in run " + std::to_string(failure->run) + " of " +
                                                    std::to_string(e.replay.runs)
                                              : std::string();
  std::printf("expectation: FAIL%s%s, the outputs differ:\n%s", how, which.c_str(), diff.c_str());
  std::printf("verdict: %s\n", std::string(certify::name_of(failure->verdict)).c_str());
  return kExitFail;
}

}  // namespace

std::string_view run_usage() {
  return kRunUsage;
}

int cmd_run(std::span<const std::string> args) {
  for (const std::string& a : args) {
    if (a == "--rules") return run_dataflow(args);
  }
  RunFlags flags;
  if (const std::optional<std::string> problem = parse_flags(args, flags)) {
    return run_usage_error(*problem);
  }
  // Opened once for every file (a Vulkan or OpenCL device takes a while).
  std::optional<UsableBackend> opened;
  if (flags.backend.backend != kReference) {
    auto result = open_usable_backend(flags.backend);
    if (!result) {
      std::fprintf(stderr, "vyre-certify run: %s\n", result.error().message.c_str());
      return kExitUsage;
    }
    opened.emplace(std::move(*result));
  }
  // The worst outcome: an unreadable file (2) over a failed run (1).
  int exit_code = kExitOk;
  for (size_t i = 0; i < flags.files.size(); ++i) {
    if (i > 0) std::printf("\n");
    const int one = run_file(flags.files[i], flags, opened ? &*opened : nullptr);
    if (one == kExitUsage || (one == kExitFail && exit_code == kExitOk)) exit_code = one;
  }
  return exit_code;
}

}  // namespace vyre::cli
