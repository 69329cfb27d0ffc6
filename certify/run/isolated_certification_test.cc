// A built-in backend runs isolated (backends/isolation/isolate.h) so that a
// driver that crashes or never finishes fails one case and the run goes on:
// here a backend wrapping the reference segfaults on one case's program and
// hangs on another's, inside its child process. The run finishes; those two
// cases are `crashed` and `timeout` with repros; the others pass. A fuzz hunt
// on a backend that crashes on some random programs finishes with them as
// findings.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <functional>
#include <memory>

#include "backends/backend_options.h"
#include "backends/hosted_work.h"
#include "backends/isolation/isolate.h"
#include "backends/reference_backend.h"
#include "certify/run/certification_run.h"
#include "certify/run/fuzz_hunt.h"
#include "certify/run/plus_one_case_for_tests.h"
#include "certify/suite/graph_suite_cases.h"
#include "spec/ir/host_words.h"
#include "spec/text/text_format.h"

namespace vyre::certify {
namespace {

/// What the driver does with a program.
enum class Fault { None, Segfault, Hang };

constexpr uint32_t kCrashMarker = 0xDEAD;
constexpr uint32_t kHangMarker = 0xBEEF;

/// The reference backend, whose "driver" faults on the programs `fault`
/// picks, and on inputs whose buffer "in" starts with a marker word.
class FaultyDriver final : public Backend {
 public:
  explicit FaultyDriver(std::function<Fault(const Program&)> fault, uint32_t processes = 1)
      : inner_(make_reference_backend(BackendOptions{})),
        fault_(std::move(fault)),
        processes_(processes) {}
  std::string name() const override { return "faulty"; }
  uint32_t useful_processes() const override { return processes_; }
  Capabilities probe() override { return inner_->probe(); }
  CompileOutcome compile(const Program& program) override {
    CompileOutcome out = inner_->compile(program);
    if (out.program) out.program = std::make_shared<Compiled>(out.program, fault_(program));
    return out;
  }
  DispatchOutcome dispatch(const CompiledProgram& program, const BufferSet& inputs,
                           const Grid& grid) override {
    const auto& compiled = static_cast<const Compiled&>(program);
    Fault fault = compiled.fault;
    if (auto in = inputs.find("in"); in != inputs.end() && in->second.size() >= 4) {
      const uint32_t first = word_at(in->second, 0);
      if (first == kCrashMarker) fault = Fault::Segfault;
      if (first == kHangMarker) fault = Fault::Hang;
    }
    // SIGSEGV by the default action: a null store would meet UBSan or ASan
    // first in the sanitized build, which end the child by exit 1 or abort.
    if (fault == Fault::Segfault) {
      std::signal(SIGSEGV, SIG_DFL);
      std::raise(SIGSEGV);
    }
    if (fault == Fault::Hang) {
      for (;;) ::pause();
    }
    return inner_->dispatch(*compiled.inner, inputs, grid);
  }

 private:
  struct Compiled final : CompiledProgram {
    Compiled(std::shared_ptr<const CompiledProgram> i, Fault f) : inner(std::move(i)), fault(f) {}
    std::shared_ptr<const CompiledProgram> inner;
    Fault fault;
  };
  std::unique_ptr<Backend> inner_;
  std::function<Fault(const Program&)> fault_;
  uint32_t processes_;
};

/// `out[i] = in[i] + 1` with `first` as its first input word.
SuiteCase marked_case(const std::string& id, uint32_t first) {
  SuiteCase c = plus_one_case(id);
  std::get<DispatchCase>(c.body).test_case.inputs["in"] = to_bytes({first, 2, 3, 4});
  return c;
}

/// The faulty driver in a child process, as open_backend runs vulkan and
/// opencl; in `processes` children spread (start_isolated_spread) when more
/// than one, as a certification runs NVIDIA's OpenCL.
std::unique_ptr<Backend> isolated_driver(std::function<Fault(const Program&)> fault,
                                         std::chrono::milliseconds timeout,
                                         uint32_t processes = 1) {
  IsolationOptions options;
  options.call_timeout = timeout;
  options.shutdown_grace = std::chrono::milliseconds(500);
  auto factory = [fault, processes] {
    return Result<std::unique_ptr<Backend>>(std::make_unique<FaultyDriver>(fault, processes));
  };
  if (processes == 1) return isolate(factory, options);
  auto spread = start_isolated_spread(factory, options, processes);
  EXPECT_TRUE(spread.ok()) << spread.error().message;
  return spread.ok() ? std::move(spread).value() : nullptr;
}

Fault never(const Program&) {
  return Fault::None;
}

// Generous: a child's start and the reference's compile must fit under load.
constexpr std::chrono::milliseconds kTimeout{4000};

/// A certification of `cases` at `runs` runs on the fake driver in a child,
/// each retry on a fresh one (counted in `reopened`).
struct IsolatedRun {
  Report report;
  int reopened = 0;
  std::string out_dir;
};
IsolatedRun run_isolated(const std::vector<SuiteCase>& cases, uint32_t runs,
                         const std::string& out_name, uint32_t processes = 1) {
  std::vector<const SuiteCase*> chosen;
  for (const SuiteCase& c : cases) chosen.push_back(&c);
  CertifyOptions options;
  options.level = Level::L1;
  options.runs = runs;
  options.progress = false;
  options.out_dir = testing::TempDir() + out_name;
  std::filesystem::remove_all(options.out_dir);
  IsolatedRun run;
  run.out_dir = options.out_dir;
  options.reopen_backend = [&run, processes]() -> Result<std::unique_ptr<Backend>> {
    ++run.reopened;
    return isolated_driver(never, kTimeout, processes);
  };
  std::unique_ptr<Backend> backend = isolated_driver(never, kTimeout, processes);
  if (backend == nullptr) {
    ADD_FAILURE() << "the faulty driver did not start";
    return run;
  }
  run.report = run_certification(*backend, backend->probe(), chosen, options);
  return run;
}

/// Checks the fresh backends a run opened against its retries
/// (certify/run/run_backends.h): one per retry after a device loss or hang,
/// and one more after each such retry that failed again, for the cases after
/// it; one for all crashed cases' retries, and one more after each of those
/// that failed again, if another crash retry followed it.
void expect_reopens_fit_the_retries(const Report& report, int reopened) {
  long others = 0, crashes = 0, crashes_failed_again = 0;
  for (const CaseResult& c : report.cases) {
    if (!c.retried) continue;
    const bool failed_again = c.verdict != Verdict::Pass;
    if (*c.retried == "crashed") {
      ++crashes;
      crashes_failed_again += failed_again;
    } else {
      others += 1 + failed_again;
    }
  }
  const long least = others + (crashes > 0);
  EXPECT_GE(reopened, least);
  EXPECT_LE(reopened, least + crashes_failed_again);
}

TEST(IsolatedCertification, ACrashAndAHangFailOneCaseEachAndTheRunFinishes) {
  const IsolatedRun run =
      run_isolated({marked_case("L1/test/before", 1), marked_case("L1/test/crash", kCrashMarker),
                    marked_case("L1/test/between", 5), marked_case("L1/test/hang", kHangMarker),
                    marked_case("L1/test/after", 7)},
                   1, "isolated_certification_test");
  const Report& report = run.report;
  const int reopened = run.reopened;

  ASSERT_EQ(report.cases.size(), 5u);
  for (size_t i : {0, 2, 4}) {
    EXPECT_EQ(report.cases[i].verdict, Verdict::Pass)
        << report.cases[i].id << ": " << report.cases[i].message;
  }
  const CaseResult& crash = report.cases[1];
  EXPECT_EQ(crash.verdict, Verdict::Crashed) << crash.message;
  EXPECT_EQ(crash.retried, "crashed");
  EXPECT_NE(crash.message.find("backend process crashed (signal 11: SIGSEGV)"), std::string::npos)
      << crash.message;
  const CaseResult& hang = report.cases[3];
  EXPECT_EQ(hang.verdict, Verdict::Timeout) << hang.message;
  EXPECT_EQ(hang.retried, "timeout");
  // One submission (runs = 1): a batch waits the timeout per submission plus one.
  EXPECT_NE(hang.message.find("did not answer within 8000 ms during 1 run of program"),
            std::string::npos)
      << hang.message;
  for (const CaseResult* failed : {&crash, &hang}) {
    ASSERT_TRUE(failed->failure) << failed->id;
    ASSERT_FALSE(failed->failure->repro.empty()) << failed->id;
    EXPECT_TRUE(std::filesystem::exists(run.out_dir + "/" + failed->failure->repro))
        << failed->failure->repro;
  }
  // Under heavy load (the sanitized suite) a passing case whose call
  // outlasted kTimeout once is retried too, and counted.
  expect_reopens_fit_the_retries(report, reopened);
  ASSERT_EQ(report.levels.size(), 1u);
  EXPECT_EQ(report.levels[0].failed, 2u);
  EXPECT_FALSE(report.certified);
}

TEST(IsolatedCertification, InTwoBackendProcessesACrashAndAHangFailOneCaseEach) {
  const IsolatedRun run =
      run_isolated({marked_case("L1/test/first", 1), marked_case("L1/test/second", 2),
                    marked_case("L1/test/crash", kCrashMarker), marked_case("L1/test/third", 3),
                    marked_case("L1/test/hang", kHangMarker), marked_case("L1/test/fourth", 4),
                    marked_case("L1/test/fifth", 5)},
                   1, "isolated_certification_spread_test", 2);
  const Report& report = run.report;
  ASSERT_EQ(report.cases.size(), 7u);
  for (size_t i : {0, 1, 3, 5, 6}) {
    EXPECT_EQ(report.cases[i].verdict, Verdict::Pass)
        << report.cases[i].id << ": " << report.cases[i].message;
  }
  // Each was retried alone on a fresh backend. Its first attempt may have
  // ended as the other's bystander (both on one child, which the crash or
  // the hang's kill took down), so only the retry's verdict is fixed.
  EXPECT_EQ(report.cases[2].verdict, Verdict::Crashed) << report.cases[2].message;
  EXPECT_TRUE(report.cases[2].retried.has_value());
  EXPECT_EQ(report.cases[4].verdict, Verdict::Timeout) << report.cases[4].message;
  EXPECT_TRUE(report.cases[4].retried.has_value());
  ASSERT_EQ(report.levels.size(), 1u);
  EXPECT_EQ(report.levels[0].failed, 2u);
  EXPECT_FALSE(report.certified);
}

/// A host-driven case whose every run dispatches plus_one twice on its
/// input, `first` its first word: a driver that faults on it does so in the
/// middle of the work.
SuiteCase marked_host_case(const std::string& id, uint32_t first) {
  const TestCase plus_one = std::get<DispatchCase>(plus_one_case().body).test_case;
  HostCase host;
  host.work = host_work(id, [plus_one, first](Backend& backend) -> HostPrepared {
    CompileOutcome compiled = backend.compile(plus_one.program);
    if (compiled.status != Status::Ok) return {compiled.status, compiled.message, {}};
    return {Status::Ok, "", [&backend, plus_one, first, program = compiled.program] {
              BufferSet inputs = plus_one.inputs;
              inputs["in"] = to_bytes({first, 2, 3, 4});
              DispatchOutcome once = backend.dispatch(*program, inputs, plus_one.grid);
              if (once.status != Status::Ok) return HostObservation{once.status, once.message, {}};
              inputs["in"] = once.outputs.at("out");
              DispatchOutcome twice = backend.dispatch(*program, inputs, plus_one.grid);
              return HostObservation{twice.status, twice.message, std::move(twice.outputs)};
            }};
  });
  host.expected = {{"out", to_bytes({first + 2, 4, 5, 6})}};
  host.inputs = {{"in", to_bytes({first, 2, 3, 4})}};
  return SuiteCase{id, Level::L1, "hand-computed", {}, std::move(host)};
}

TEST(IsolatedCertification, ACrashInsideAHostDrivenCaseFailsThatCaseOnly) {
  // The crash comes on the case's second dispatch (its input then starts
  // with the marker), after one dispatch of the same run went well.
  const IsolatedRun run = run_isolated(
      {marked_host_case("L1/host/before", 1), marked_host_case("L1/host/crash", kCrashMarker - 1),
       marked_case("L1/test/between", 5), marked_host_case("L1/host/after", 7)},
      3, "isolated_host_certification_test");
  const Report& report = run.report;
  const int reopened = run.reopened;

  ASSERT_EQ(report.cases.size(), 4u);
  for (size_t i : {0, 2, 3}) {
    EXPECT_EQ(report.cases[i].verdict, Verdict::Pass)
        << report.cases[i].id << ": " << report.cases[i].message;
  }
  const CaseResult& crash = report.cases[1];
  EXPECT_EQ(crash.verdict, Verdict::Crashed) << crash.message;
  EXPECT_EQ(crash.retried, "crashed");
  EXPECT_NE(crash.message.find("backend process crashed (signal 11: SIGSEGV) during the "
                               "host-driven runs of `L1/host/crash`"),
            std::string::npos)
      << crash.message;
  // One backend for the crash's retries; the lanes' backend starts a fresh
  // child by itself.
  expect_reopens_fit_the_retries(report, reopened);
}

/// The L3 dataflow archetypes, built here (after any child was forked).
std::vector<SuiteCase> dataflow_archetypes() {
  std::vector<SuiteCase> out;
  for (SuiteCase& c : graph_archetype_cases()) {
    if (std::holds_alternative<HostCase>(c.body)) out.push_back(std::move(c));
  }
  return out;
}

TEST(IsolatedCertification, HostDrivenCasesGiveInAChildExactlyWhatTheyGiveInProcess) {
  std::unique_ptr<Backend> isolated = isolated_driver(never, kTimeout);
  ASSERT_TRUE(isolated->probe().unavailable.empty());
  const std::vector<SuiteCase> cases = dataflow_archetypes();
  ASSERT_GE(cases.size(), 3u);
  std::unique_ptr<Backend> in_process = std::make_unique<FaultyDriver>(never);
  for (const SuiteCase& c : cases) {
    const HostedWork& work = *std::get<HostCase>(c.body).work;
    const HostedRunsOptions options{.runs = 3, .threads = 2};
    const HostedRunsOutcome there = isolated->run_hosted(work, options);
    const HostedRunsOutcome here = work.run_here(*in_process, options);
    ASSERT_EQ(there.status, Status::Ok) << c.id << ": " << there.message;
    ASSERT_EQ(there.prepare_status, here.prepare_status) << c.id << ": " << there.prepare_message;
    EXPECT_EQ(there.prepare_message, here.prepare_message) << c.id;
    ASSERT_EQ(there.runs.size(), here.runs.size()) << c.id;
    for (size_t run = 0; run < here.runs.size(); ++run) {
      ASSERT_EQ(there.runs[run].has_value(), here.runs[run].has_value()) << c.id << " run " << run;
      if (!here.runs[run]) continue;
      EXPECT_EQ(there.runs[run]->status, here.runs[run]->status) << c.id << " run " << run;
      EXPECT_EQ(there.runs[run]->message, here.runs[run]->message) << c.id << " run " << run;
      EXPECT_EQ(there.runs[run]->outputs, here.runs[run]->outputs) << c.id << " run " << run;
    }
  }
}

TEST(IsolatedCertification, AFuzzHuntSurvivesADriverThatCrashesOnSomePrograms) {
  // About one program in three crashes the driver, by its text.
  const auto crash_some = [](const Program& program) {
    return std::hash<std::string>{}(print_program(program)) % 3 == 0 ? Fault::Segfault
                                                                     : Fault::None;
  };
  // No program hangs here, so a long limit costs nothing; the hunt compiles a
  // batch ahead on every core, and on a loaded CI machine one compile has
  // taken longer than kTimeout and turned a crash test into a hang verdict.
  std::unique_ptr<Backend> backend = isolated_driver(crash_some, std::chrono::seconds(60));
  HuntOptions options;
  options.seconds = 4;
  // A few programs are enough for a crash (one in three crashes, each with
  // its variants); each crash is then reduced, which under the sanitizers
  // cost minutes when the hunt ran all it could in 4 s.
  options.max_programs = 8;
  // Reducing a crash restarts the child at every candidate: a few seconds
  // show that reduction ends and the hunt goes on, as its 300 s would.
  options.reduction_seconds = 3;
  options.runs = 1;
  options.progress = false;
  options.out_dir = testing::TempDir() + "isolated_fuzz_test";
  std::filesystem::remove_all(options.out_dir);
  const Result<HuntResult> hunted = hunt(*backend, options);
  ASSERT_TRUE(hunted.ok()) << hunted.error().message;
  const HuntResult& result = *hunted;
  ASSERT_FALSE(result.findings.empty()) << result.cases << " cases, none crashed";
  EXPECT_GT(result.cases, result.failures);  // The hunt went on past the crashes.
  for (const HuntFinding& finding : result.findings) {
    EXPECT_EQ(finding.verdict, Verdict::Crashed) << finding.message;
    EXPECT_TRUE(std::filesystem::exists(finding.dir + "/original.vyre")) << finding.dir;
  }
}

}  // namespace
}  // namespace vyre::certify
