// `vyre-certify reduce CASE.vyre --backend NAME [--device D] [--timeout-ms MS]
// [--checks N] [--seconds S] [--runs N] [-o OUT] [--in-process]`: shrinks a
// case that fails on a backend with the reducer certification and fuzz use
// (certify/run/failure_reduction.h), for as long as the user allows: their
// own reductions stop at 400 backend checks and 20 seconds, which a large
// program (or a slow driver) outgrows. Each candidate must stay valid,
// conforming on the reference (no race, divergent barrier or schedule
// dependence) and show the same symptom on the backend (the same verdict
// and differing buffers, or the same stable message: failure_symptom.h);
// the reduced case's expectation is the reference's bytes.
// Exit codes: 0 reduced and written; 1 the case does not fail on the backend
// (nothing to reduce), or the reference rejects it; 2 bad usage, an
// unreadable or unparsable file, an unwritable OUT or no usable backend.
#include <cstdio>
#include <optional>
#include <string>

#include "certify/cli/backend_choice.h"
#include "certify/cli/command.h"
#include "certify/cli/read_input.h"
#include "certify/run/failure_reduction.h"
#include "spec/text/text_format.h"

namespace vyre::cli {
namespace {

const std::string kReduceUsage =
    "vyre-certify reduce CASE.vyre --backend NAME [--device D] [--timeout-ms MS]\n"
    "                    [--checks N] [--seconds S] [--runs N] [-o OUT] [--in-process]\n"
    "                    [--cache-dir DIR|--no-cache]\n"
    "  Shrinks a case that fails on the backend (a repro of a certification or fuzz failure,\n"
    "  or your own) while it stays valid, conforming on the reference and shows the same\n"
    "  symptom (verdict, and the same differing output buffers or the same error), and\n"
    "  writes the reduced case to OUT (default: CASE with .reduced.vyre for .vyre), its\n"
    "  expectation the reference's bytes. NAME is a built-in backend (" +
    built_in_backend_list("reference") +
    ") or a plugin path.\n"
    "  --checks N: most backend checks (default 5000); --seconds S: most seconds (default\n"
    "  600); --runs N: attempts per candidate, for a failure that does not show every time\n"
    "  (default 3).\n"
    "  Exit: 0 reduced and written, 1 the case does not fail on the backend or the reference\n"
    "  rejects it, 2 bad usage, unreadable input or no usable backend.";

struct ReduceFlags {
  std::string file;
  std::string out;
  BackendChoice backend;
  certify::ReductionLimits limits{
      .per_failure = {.max_predicate_calls = 5000, .max_seconds = 600.0}};
};

int reduce_usage_error(const std::string& problem) {
  return cli::usage_error("vyre-certify reduce", problem, kReduceUsage);
}

/// A whole number in [1, max] from `text`; nullopt otherwise.
std::optional<uint64_t> positive(const std::string& text, uint64_t max) {
  if (text.empty() || text.size() > 12 || text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  const uint64_t value = std::stoull(text);
  if (value == 0 || value > max) return std::nullopt;
  return value;
}

std::optional<std::string> parse_flags(std::span<const std::string> args, ReduceFlags& flags) {
  bool checks = false, seconds = false, runs = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size();
    if (std::optional<std::string> error; take_backend_arg(args, i, flags.backend, error)) {
      if (error) return error;
    } else if (a == "--checks" || a == "--seconds" || a == "--runs") {
      if (!has_value) return a + " needs a value";
      bool& given = a == "--checks" ? checks : a == "--seconds" ? seconds : runs;
      if (given) return a + " given twice; give it once";
      given = true;
      const uint64_t max = a == "--checks" ? 1000000 : a == "--seconds" ? 86400 : 100;
      const std::optional<uint64_t> value = positive(args[++i], max);
      if (!value) return a + " needs a whole number from 1 to " + std::to_string(max);
      if (a == "--checks") flags.limits.per_failure.max_predicate_calls = uint32_t(*value);
      if (a == "--seconds") flags.limits.per_failure.max_seconds = double(*value);
      if (a == "--runs") flags.limits.runs = uint32_t(*value);
    } else if (a == "-o") {
      if (!has_value) return "-o needs a file";
      if (!flags.out.empty()) return "-o given twice; give it once";
      flags.out = args[++i];
    } else if (a.starts_with("-")) {
      return "unknown option `" + a + "`";
    } else if (flags.file.empty()) {
      flags.file = a;
    } else {
      return "more than one case file given (`" + flags.file + "` and `" + a + "`)";
    }
  }
  if (flags.file.empty()) return "no case file given";
  if (flags.backend.backend.empty()) return "no --backend given: the backend the case fails on";
  if (flags.backend.backend == "reference") {
    return "the reference is what a reduced case is judged by; name the backend it fails on";
  }
  if (auto problem = check_backend_choice(flags.backend)) return problem;
  if (flags.out.empty()) {
    const std::string& f = flags.file;
    flags.out = (f.ends_with(".vyre") ? f.substr(0, f.size() - 5) : f) + ".reduced.vyre";
  }
  return std::nullopt;
}

}  // namespace

std::string_view reduce_usage() {
  return kReduceUsage;
}

int cmd_reduce(std::span<const std::string> args) {
  ReduceFlags flags;
  if (const std::optional<std::string> problem = parse_flags(args, flags)) {
    return reduce_usage_error(*problem);
  }
  const std::optional<TestCase> parsed = read_case_file(flags.file);
  if (!parsed) return kExitUsage;
  auto opened = open_usable_backend(flags.backend);
  if (!opened) {
    std::fprintf(stderr, "vyre-certify reduce: %s\n", opened.error().message.c_str());
    return kExitUsage;
  }
  const Capabilities& caps = opened->device;
  std::printf("device: %s (driver %s, %s)\n", caps.device_name.c_str(), caps.driver.c_str(),
              caps.api.c_str());
  Backend& backend = *opened->backend;
  const TestCase& start = *parsed;
  const std::optional<certify::FailureSymptom> symptom =
      certify::symptom_on_backend(backend, start, flags.limits.runs, flags.limits.step_budget);
  if (!symptom) {
    std::printf(
        "the reference rejects the case, finds it non-conforming or runs past %llu steps "
        "(`vyre-certify run %s` says which): no reduction can be judged\n",
        static_cast<unsigned long long>(flags.limits.step_budget), flags.file.c_str());
    return kExitFail;
  }
  if (symptom->verdict == certify::Verdict::Pass) {
    std::printf("the case passes on the backend in %u attempt(s): nothing to reduce\n",
                flags.limits.runs);
    return kExitFail;
  }
  std::printf("verdict on the backend: %s\n",
              std::string(certify::name_of(symptom->verdict)).c_str());
  std::printf("symptom: %s\n", certify::describe(*symptom).c_str());
  std::printf("reducing while it shows (at most %u checks, %.0f s)\n",
              flags.limits.per_failure.max_predicate_calls, flags.limits.per_failure.max_seconds);
  std::fflush(stdout);
  const std::optional<certify::ReducedFailure> reduced =
      certify::reduce_failure(backend, start, *symptom, flags.limits);
  if (!reduced) {
    std::printf(
        "the symptom did not show again: the failure is flaky; try --runs with more attempts\n");
    return kExitFail;
  }
  const std::string out_text = print_case(reduced->reduced);
  if (!write_whole_file(flags.out, out_text)) {
    std::fprintf(stderr, "vyre-certify reduce: cannot write %s\n", flags.out.c_str());
    return kExitUsage;
  }
  std::printf("%s", out_text.c_str());
  std::printf("reduced in %u backend checks (%u steps kept)%s, keeping %s; written to %s\n",
              reduced->stats.predicate_calls, reduced->stats.accepted_steps,
              reduced->stats.capped ? ", stopped at its cap" : "",
              certify::describe(reduced->symptom).c_str(), flags.out.c_str());
  std::printf("replay: vyre-certify run %s --backend %s\n", flags.out.c_str(),
              flags.backend.backend.c_str());
  return kExitOk;
}

}  // namespace vyre::cli
