// run_case against scripted fake backends: each way a backend can answer
// (right bytes, wrong bytes, bytes that change between runs, each non-Ok
// status, short or missing buffers) gets its verdict, and a case that is
// itself wrong is caught before any backend runs it. Every expected byte is
// written by hand: the case adds one to each of four words.
#include "certify/run/case_runner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "certify/run/plus_one_case_for_tests.h"
#include "spec/ir/builder.h"
#include "spec/ir/host_words.h"

namespace vyre::certify {
namespace {

/// The single-dispatch body of `c`.
DispatchCase& dispatch_of(SuiteCase& c) {
  return std::get<DispatchCase>(c.body);
}

/// What a correct backend returns for plus_one_case.
BufferSet right_outputs() {
  return {{"out", to_bytes({2, 3, 4, 0})}};
}

/// A backend that does nothing but answer as its test scripts it, counting
/// the calls it gets.
class ScriptedBackend final : public Backend {
 public:
  /// Status of every compile; Ok hands out a program unless `compile_program` is false.
  Status compile_status = Status::Ok;
  bool compile_program = true;
  /// The answer to dispatch number `n` (from 1).
  std::function<DispatchOutcome(uint32_t n)> answer = [](uint32_t) {
    return DispatchOutcome{Status::Ok, "", right_outputs(), {}};
  };
  uint32_t compiles = 0;
  uint32_t dispatches = 0;
  /// What concurrent_dispatches() answers.
  uint32_t side_by_side = 1;

  std::string name() const override { return "scripted"; }
  uint32_t concurrent_dispatches() const override { return side_by_side; }
  Capabilities probe() override { return {}; }
  CompileOutcome compile(const Program&) override {
    ++compiles;
    if (compile_status != Status::Ok) return {compile_status, "scripted compile failure", nullptr};
    if (!compile_program) return {Status::Ok, "", nullptr};
    return {Status::Ok, "", std::make_shared<const CompiledProgram>()};
  }
  DispatchOutcome dispatch(const CompiledProgram&, const BufferSet&, const Grid&) override {
    return answer(++dispatches);
  }
};

/// A dispatch answer of `status` only.
DispatchOutcome status_only(Status status) {
  return DispatchOutcome{status, "scripted dispatch failure", {}, {}};
}

/// Keeps the repro run_case asks to write and answers with a path made of its name.
struct ReproSink {
  std::optional<TestCase> written;
  ReproWriter callback() {
    return [this](const TestCase& repro) {
      written = repro;
      return "repro/" + repro.name + ".vyre";
    };
  }
};

/// Options with `n` runs of each variant.
CaseRunOptions runs(uint32_t n) {
  CaseRunOptions o;
  o.runs = n;
  return o;
}

TEST(CaseRunner, RightBytesOnEveryRunPass) {
  ScriptedBackend backend;
  ReproSink repros;
  CaseResult r = run_case(backend, plus_one_case(), runs(3), repros.callback());
  EXPECT_EQ(r.verdict, Verdict::Pass) << r.message;
  EXPECT_EQ(r.id, "L1/test/plus_one");
  EXPECT_EQ(r.variants, 1u);
  EXPECT_EQ(r.dispatches, 3u);
  EXPECT_EQ(backend.dispatches, 3u);
  EXPECT_EQ(r.distinct_outputs, 1u);
  EXPECT_FALSE(r.failure);
  EXPECT_FALSE(repros.written);
}

TEST(CaseRunner, WrongBytesFailNamingTheBufferAndWordAndWriteARepro) {
  ScriptedBackend backend;
  backend.answer = [](uint32_t) {
    return DispatchOutcome{Status::Ok, "", {{"out", to_bytes({2, 3, 5, 0})}}, {}};
  };
  ReproSink repros;
  CaseResult r = run_case(backend, plus_one_case(), runs(3), repros.callback());
  EXPECT_EQ(r.verdict, Verdict::Fail);
  ASSERT_TRUE(r.failure);
  ASSERT_TRUE(r.failure->first_difference);
  EXPECT_EQ(r.failure->first_difference->buffer, "out");
  EXPECT_EQ(r.failure->first_difference->word, 2u);
  EXPECT_EQ(r.failure->first_difference->expected, 4u);
  EXPECT_EQ(r.failure->first_difference->observed, 5u);
  EXPECT_NE(r.failure->variant.find("run=1"), std::string::npos) << r.failure->variant;
  EXPECT_EQ(r.failure->expected, right_outputs());
  EXPECT_EQ(r.failure->observed, (BufferSet{{"out", to_bytes({2, 3, 5, 0})}}));
  // The repro carries the case's inputs and expects the right bytes, so it
  // replays on any backend; the report keeps the path the callback gave.
  ASSERT_TRUE(repros.written);
  EXPECT_EQ(repros.written->name, "L1/test/plus_one");
  EXPECT_EQ(repros.written->inputs, std::get<DispatchCase>(plus_one_case().body).test_case.inputs);
  EXPECT_EQ(repros.written->expected, right_outputs());
  EXPECT_EQ(r.failure->repro, "repro/L1/test/plus_one.vyre");
}

TEST(CaseRunner, BytesThatChangeOnOneRunAreNondeterministic) {
  ScriptedBackend backend;
  backend.answer = [](uint32_t n) {
    if (n != 3) return DispatchOutcome{Status::Ok, "", right_outputs(), {}};
    return DispatchOutcome{Status::Ok, "", {{"out", to_bytes({2, 3, 4, 1})}}, {}};
  };
  ReproSink repros;
  CaseResult r = run_case(backend, plus_one_case(), runs(5), repros.callback());
  EXPECT_EQ(r.verdict, Verdict::Fail);
  EXPECT_NE(r.message.find("nondeterministic"), std::string::npos) << r.message;
  EXPECT_GE(r.distinct_outputs, 2u);
  ASSERT_TRUE(r.failure);
  EXPECT_NE(r.failure->variant.find("run=3"), std::string::npos) << r.failure->variant;
  ASSERT_TRUE(r.failure->first_difference);
  EXPECT_EQ(r.failure->first_difference->word, 3u);
}

/// A backend whose batches answer as scripted, counting them.
class BatchingBackend final : public Backend {
 public:
  /// The answer to batch number `n` (from 1) of `runs` runs.
  std::function<BatchOutcome(uint32_t n, uint32_t runs)> answer;
  uint32_t batches = 0;
  std::chrono::milliseconds delay{0};

  std::string name() const override { return "batching"; }
  Capabilities probe() override { return {}; }
  CompileOutcome compile(const Program&) override {
    return {Status::Ok, "", std::make_shared<const CompiledProgram>()};
  }
  DispatchOutcome dispatch(const CompiledProgram&, const BufferSet&, const Grid&) override {
    ADD_FAILURE() << "the runner dispatched one run instead of a batch";
    return {Status::Error, "unexpected", {}, {}};
  }
  BatchOutcome dispatch_runs(const CompiledProgram&, const BufferSet&, const Grid&,
                             const BatchOptions& options) override {
    std::this_thread::sleep_for(delay);
    BatchOutcome out = answer(++batches, options.runs);
    out.dispatches = options.runs;
    return out;
  }
};

TEST(CaseRunner, ARunListedAsDifferingInABatchFailsAsNondeterministic) {
  BatchingBackend backend;
  backend.answer = [](uint32_t, uint32_t) {
    BatchOutcome out;
    out.status = Status::Ok;
    out.first_outputs = right_outputs();
    out.differing = {{7, {{"out", to_bytes({2, 3, 4, 9})}}}};
    out.differing_runs = 1;
    return out;
  };
  ReproSink repros;
  CaseResult r = run_case(backend, plus_one_case(), runs(10), repros.callback());
  EXPECT_EQ(backend.batches, 1u);
  EXPECT_EQ(r.verdict, Verdict::Fail);
  EXPECT_NE(r.message.find("nondeterministic"), std::string::npos) << r.message;
  ASSERT_TRUE(r.failure);
  EXPECT_NE(r.failure->variant.find("run=8"), std::string::npos) << r.failure->variant;
}

TEST(CaseRunner, AFailedRunInABatchGetsItsStatusAndRunNumber) {
  BatchingBackend backend;
  backend.answer = [](uint32_t, uint32_t) {
    BatchOutcome out;
    out.status = Status::DeviceLost;
    out.message = "scripted";
    out.failed_run = 4;
    return out;
  };
  CaseResult r = run_case(backend, plus_one_case(), runs(10), nullptr);
  EXPECT_EQ(r.verdict, Verdict::DeviceLost);
  ASSERT_TRUE(r.failure);
  EXPECT_NE(r.failure->variant.find("run=5"), std::string::npos) << r.failure->variant;
}

TEST(CaseRunner, ACaseSlowerThanItsBudgetTimesOut) {
  BatchingBackend backend;
  backend.delay = std::chrono::milliseconds(30);
  backend.answer = [](uint32_t, uint32_t) {
    BatchOutcome out;
    out.status = Status::Ok;
    out.first_outputs = right_outputs();
    return out;
  };
  // Graph-style batches are small; a byte case takes all runs at once, so
  // the budget is checked between variants' batches: two variants here.
  SuiteCase c = plus_one_case();
  dispatch_of(c).poisonable.reset();
  dispatch_of(c).test_case.inputs["out"] = to_bytes({0, 0, 0, 0});
  CaseRunOptions o = runs(3);
  o.case_budget = std::chrono::milliseconds(10);
  CaseResult r = run_case(backend, c, o, nullptr);
  EXPECT_EQ(r.verdict, Verdict::Timeout) << r.message;
  EXPECT_NE(r.message.find("budget"), std::string::npos) << r.message;
}

TEST(CaseRunner, NotSupportedAtCompileIsNotSupportedAndNeverDispatched) {
  ScriptedBackend backend;
  backend.compile_status = Status::NotSupported;
  ReproSink repros;
  CaseResult r = run_case(backend, plus_one_case(), runs(3), repros.callback());
  EXPECT_EQ(r.verdict, Verdict::NotSupported);
  EXPECT_NE(r.message.find("scripted compile failure"), std::string::npos) << r.message;
  EXPECT_EQ(backend.dispatches, 0u);
}

TEST(CaseRunner, CompileErrorAtCompileIsACompileError) {
  ScriptedBackend backend;
  backend.compile_status = Status::CompileError;
  ReproSink repros;
  CaseResult r = run_case(backend, plus_one_case(), runs(3), repros.callback());
  EXPECT_EQ(r.verdict, Verdict::CompileError);
  EXPECT_EQ(backend.dispatches, 0u);
}

TEST(CaseRunner, CompileOkWithoutAProgramIsBadOutput) {
  ScriptedBackend backend;
  backend.compile_program = false;
  ReproSink repros;
  CaseResult r = run_case(backend, plus_one_case(), runs(3), repros.callback());
  EXPECT_EQ(r.verdict, Verdict::BadOutput);
  EXPECT_EQ(backend.dispatches, 0u);
}

TEST(CaseRunner, EachFailedDispatchStatusGetsItsVerdict) {
  const std::pair<Status, Verdict> kStatuses[] = {
      {Status::Timeout, Verdict::Timeout},           {Status::DeviceLost, Verdict::DeviceLost},
      {Status::BadOutput, Verdict::BadOutput},       {Status::Error, Verdict::Error},
      {Status::NotSupported, Verdict::NotSupported}, {Status::Crashed, Verdict::Crashed},
  };
  for (auto [status, verdict] : kStatuses) {
    ScriptedBackend backend;
    backend.answer = [status = status](uint32_t) { return status_only(status); };
    ReproSink repros;
    CaseResult r = run_case(backend, plus_one_case(), runs(3), repros.callback());
    EXPECT_EQ(r.verdict, verdict) << name_of(status);
    EXPECT_NE(r.message.find("scripted dispatch failure"), std::string::npos) << r.message;
    ASSERT_TRUE(r.failure) << name_of(status);
    EXPECT_TRUE(r.failure->observed.empty()) << name_of(status);
    // Nothing was compared, so no word is named as the first difference.
    EXPECT_FALSE(r.failure->first_difference) << name_of(status);
    EXPECT_TRUE(r.failure->detail.empty()) << r.failure->detail;
  }
}

TEST(CaseRunner, FailureOnALaterRunIsCaught) {
  ScriptedBackend backend;
  backend.answer = [](uint32_t n) {
    return n == 2 ? status_only(Status::Timeout)
                  : DispatchOutcome{Status::Ok, "", right_outputs(), {}};
  };
  ReproSink repros;
  CaseResult r = run_case(backend, plus_one_case(), runs(3), repros.callback());
  EXPECT_EQ(r.verdict, Verdict::Timeout);
  ASSERT_TRUE(r.failure);
  EXPECT_NE(r.failure->variant.find("run=2"), std::string::npos) << r.failure->variant;
}

// A backend that says Ok but returns a short or missing buffer has returned
// malformed output (Status::BadOutput's meaning), as the plugin host reports
// for a plugin: a truncated read-back is not a wrong answer about the program.
TEST(CaseRunner, ShortBufferWithOkIsBadOutputAtItsLastWord) {
  ScriptedBackend backend;
  backend.answer = [](uint32_t) {
    ByteBuffer short_out = to_bytes({2, 3, 4, 0});
    short_out.pop_back();
    return DispatchOutcome{Status::Ok, "", {{"out", short_out}}, {}};
  };
  ReproSink repros;
  CaseResult r = run_case(backend, plus_one_case(), runs(1), repros.callback());
  EXPECT_EQ(r.verdict, Verdict::BadOutput);
  EXPECT_NE(r.message.find("buffer 'out' came back with 15 bytes; the dispatch gave it 16"),
            std::string::npos)
      << r.message;
  ASSERT_TRUE(r.failure);
  ASSERT_TRUE(r.failure->first_difference);
  EXPECT_EQ(r.failure->first_difference->buffer, "out");
  EXPECT_EQ(r.failure->first_difference->word, 3u);
}

TEST(CaseRunner, MissingBufferWithOkIsBadOutputNamingIt) {
  ScriptedBackend backend;
  backend.answer = [](uint32_t) { return DispatchOutcome{Status::Ok, "", {}, {}}; };
  ReproSink repros;
  CaseResult r = run_case(backend, plus_one_case(), runs(1), repros.callback());
  EXPECT_EQ(r.verdict, Verdict::BadOutput);
  EXPECT_NE(r.message.find("the read_write buffer 'out' did not come back"), std::string::npos)
      << r.message;
}

TEST(CaseRunner, ZeroRunsIsAnErrorAndTouchesNoBackend) {
  ScriptedBackend backend;
  ReproSink repros;
  CaseResult r = run_case(backend, plus_one_case(), runs(0), repros.callback());
  EXPECT_EQ(r.verdict, Verdict::Error);
  EXPECT_EQ(backend.compiles, 0u);
  EXPECT_EQ(backend.dispatches, 0u);
}

TEST(CaseRunner, ExpectationThatDisagreesWithTheReferenceIsAnInvalidCase) {
  SuiteCase c = plus_one_case();
  // Saturating, where u32 addition wraps (0xFFFFFFFF + 1 is 0).
  dispatch_of(c).test_case.expected = BufferSet{{"out", to_bytes({2, 3, 4, 0xFFFFFFFF})}};
  ScriptedBackend backend;
  ReproSink repros;
  CaseResult r = run_case(backend, c, runs(3), repros.callback());
  EXPECT_EQ(r.verdict, Verdict::InvalidCase);
  EXPECT_EQ(backend.compiles, 0u);
  EXPECT_EQ(backend.dispatches, 0u);
  EXPECT_FALSE(repros.written);
}

TEST(CaseRunner, ExpectationThatAgreesWithTheReferenceIsRun) {
  SuiteCase c = plus_one_case();
  dispatch_of(c).test_case.expected = right_outputs();
  ScriptedBackend backend;
  ReproSink repros;
  CaseResult r = run_case(backend, c, runs(2), repros.callback());
  EXPECT_EQ(r.verdict, Verdict::Pass) << r.message;
  EXPECT_EQ(backend.dispatches, 2u);
}

TEST(CaseRunner, ProgramTheReferenceRejectsIsAnInvalidCase) {
  SuiteCase c = plus_one_case();
  dispatch_of(c).test_case.inputs.erase("in");
  ScriptedBackend backend;
  ReproSink repros;
  CaseResult r = run_case(backend, c, runs(3), repros.callback());
  EXPECT_EQ(r.verdict, Verdict::InvalidCase);
  EXPECT_EQ(backend.dispatches, 0u);
}

/// A host-driven case whose one run answers `on_reference` on the backend
/// `reference` and `on_backend` on any other, counting the runs of each; its
/// expectation is right_outputs().
struct ScriptedHostCase {
  Backend* reference = nullptr;
  BufferSet on_reference = right_outputs();
  BufferSet on_backend = right_outputs();
  Status reference_status = Status::Ok;
  uint32_t reference_runs = 0;
  uint32_t backend_runs = 0;

  SuiteCase suite_case() {
    HostCase host;
    host.expected = right_outputs();
    host.work = host_work("L3/test/host", [this](Backend& b) {
      const bool on_ref = &b == reference;
      return HostPrepared{
          Status::Ok, "", [this, on_ref]() {
            if (on_ref) {
              ++reference_runs;
              return HostObservation{reference_status, "scripted reference", on_reference};
            }
            ++backend_runs;
            return HostObservation{Status::Ok, "", on_backend};
          }};
    });
    return SuiteCase{
        "L3/test/host", Level::L3, "hand-written", {"test generator(size 4)", 9}, std::move(host)};
  }
};

/// `n` runs with `reference` as the reference backend.
CaseRunOptions runs_against(uint32_t n, Backend& reference) {
  CaseRunOptions o = runs(n);
  o.reference = &reference;
  return o;
}

TEST(CaseRunner, HostDrivenCaseRunsOnceOnTheReferenceThenOnTheBackend) {
  ScriptedBackend backend, reference;
  ScriptedHostCase host{&reference};
  CaseResult r = run_case(backend, host.suite_case(), runs_against(4, reference), nullptr);
  EXPECT_EQ(r.verdict, Verdict::Pass) << r.message;
  EXPECT_EQ(host.reference_runs, 1u);
  EXPECT_EQ(host.backend_runs, 4u);
  EXPECT_EQ(r.dispatches, 4u);
  EXPECT_EQ(r.distinct_outputs, 1u);
}

TEST(CaseRunner, HostDrivenReferenceThatDisagreesWithTheExpectationIsAnInvalidCase) {
  ScriptedBackend backend, reference;
  ScriptedHostCase host{&reference};
  host.on_reference = {{"out", to_bytes({2, 3, 4, 1})}};
  CaseResult r = run_case(backend, host.suite_case(), runs_against(3, reference), nullptr);
  EXPECT_EQ(r.verdict, Verdict::InvalidCase) << r.message;
  EXPECT_EQ(host.backend_runs, 0u);
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->expected, right_outputs());
  ASSERT_TRUE(r.failure->first_difference);
  EXPECT_EQ(r.failure->first_difference->word, 3u);
}

TEST(CaseRunner, HostDrivenReferenceThatFailsIsAnInvalidCase) {
  ScriptedBackend backend, reference;
  ScriptedHostCase host{&reference};
  host.reference_status = Status::Error;
  CaseResult r = run_case(backend, host.suite_case(), runs_against(3, reference), nullptr);
  EXPECT_EQ(r.verdict, Verdict::InvalidCase) << r.message;
  EXPECT_NE(r.message.find("scripted reference"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("rerun: vyre-certify --backend scripted --level L3 --seed 9"),
            std::string::npos)
      << r.message;
  EXPECT_EQ(host.backend_runs, 0u);
}

TEST(CaseRunner, HostDrivenBackendThatDiffersFromTheReferenceFailsWithARerunCommand) {
  ScriptedBackend backend, reference;
  ScriptedHostCase host{&reference};
  host.on_backend = {{"out", to_bytes({2, 7, 4, 0})}};
  CaseResult r = run_case(backend, host.suite_case(), runs_against(3, reference), nullptr);
  EXPECT_EQ(r.verdict, Verdict::Fail);
  ASSERT_TRUE(r.failure);
  ASSERT_TRUE(r.failure->first_difference);
  EXPECT_EQ(r.failure->first_difference->word, 1u);
  EXPECT_EQ(r.failure->repro, "");
  // No case file can hold an engine run: the message says how the inputs
  // are made and which command rebuilds and reruns exactly this case.
  EXPECT_NE(r.message.find("no repro file; inputs: test generator(size 4); rerun: vyre-certify "
                           "--backend scripted --level L3 --seed 9 --filter L3/test/host"),
            std::string::npos)
      << r.message;
}

/// A host-driven case on a backend that takes 4 dispatches at once; each run
/// takes `run_ms`, answers `status` and counts the runs in flight. On
/// `wait_for_overlap`, a run also waits (30 s at most) until two runs have
/// been in flight at once, so that runs taken side by side show it however
/// busy the machine is.
struct SideBySideHostCase {
  Status status = Status::Ok;
  std::chrono::milliseconds run_ms{2};
  const Backend* wait_for_overlap = nullptr;
  std::atomic<uint32_t> started{0};
  std::atomic<uint32_t> in_flight{0};
  std::atomic<uint32_t> most_in_flight{0};

  SuiteCase suite_case() {
    HostCase host;
    host.expected = right_outputs();
    host.work = host_work("L3/test/side_by_side", [this](Backend& b) {
      const bool wait = &b == wait_for_overlap;
      return HostPrepared{Status::Ok, "", [this, wait]() {
                            ++started;
                            const uint32_t now = ++in_flight;
                            uint32_t most = most_in_flight.load();
                            while (now > most && !most_in_flight.compare_exchange_weak(most, now)) {
                            }
                            const auto deadline =
                                std::chrono::steady_clock::now() + std::chrono::seconds(30);
                            while (wait && most_in_flight.load() < 2 &&
                                   std::chrono::steady_clock::now() < deadline) {
                              std::this_thread::sleep_for(std::chrono::milliseconds(1));
                            }
                            std::this_thread::sleep_for(run_ms);
                            --in_flight;
                            return HostObservation{status, "scripted run", right_outputs()};
                          }};
    });
    return SuiteCase{"L3/test/side_by_side", Level::L3, "hand-written", {}, std::move(host)};
  }
};

TEST(CaseRunner, HostDrivenRunsGoSideBySideWhereTheBackendTakesConcurrentDispatches) {
  ScriptedBackend backend, reference;
  backend.side_by_side = 4;
  SideBySideHostCase host;
  host.wait_for_overlap = &backend;
  CaseResult r = run_case(backend, host.suite_case(), runs_against(40, reference), nullptr);
  EXPECT_EQ(r.verdict, Verdict::Pass) << r.message;
  EXPECT_EQ(r.dispatches, 40u);
  EXPECT_EQ(host.started, 41u);  // The reference's run, then the backend's 40.
  EXPECT_GE(host.most_in_flight, 2u);
  EXPECT_LE(host.most_in_flight, 4u);
}

TEST(CaseRunner, HostDrivenRunsSideBySideReportTheFirstFailingRunAndStopTakingRuns) {
  ScriptedBackend backend;
  backend.side_by_side = 4;
  SideBySideHostCase host;
  SuiteCase c = host.suite_case();
  // The reference answers right; every run on the backend fails.
  HostCase& h = std::get<HostCase>(c.body);
  const std::shared_ptr<const HostedWork> on_backend = h.work;
  ScriptedBackend reference;
  h.work = host_work(c.id, [&](Backend& b) {
    if (&b == &reference) {
      return HostPrepared{Status::Ok, "", [] {
                            return HostObservation{Status::Ok, "", right_outputs()};
                          }};
    }
    return on_backend->prepare(b);
  });
  host.status = Status::DeviceLost;
  CaseResult r = run_case(backend, c, runs_against(40, reference), nullptr);
  EXPECT_EQ(r.verdict, Verdict::DeviceLost) << r.message;
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->variant, "run=1");
  EXPECT_EQ(r.dispatches, 1u);
  EXPECT_LE(host.started, 4u);  // No run is taken after the first failed.
}

TEST(CaseRunner, HostDrivenRunsSideBySideStopAtTheCaseBudget) {
  ScriptedBackend backend, reference;
  backend.side_by_side = 4;
  SideBySideHostCase host;
  host.run_ms = std::chrono::milliseconds(20);
  CaseRunOptions o = runs_against(1000, reference);
  o.case_budget = std::chrono::milliseconds(100);
  CaseResult r = run_case(backend, host.suite_case(), o, nullptr);
  EXPECT_EQ(r.verdict, Verdict::Timeout) << r.message;
  EXPECT_NE(r.message.find("ran past its budget"), std::string::npos) << r.message;
  EXPECT_LT(host.started, 1000u);
}

TEST(CaseRunner, HostDrivenCaseWithoutAGivenReferenceRunsOnTheReferenceInterpreter) {
  ScriptedBackend backend;
  std::vector<std::string> prepared_on;
  HostCase host;
  host.expected = right_outputs();
  host.work = host_work("L3/test/names", [&prepared_on](Backend& b) {
    prepared_on.push_back(b.name());
    return HostPrepared{Status::Ok, "", [] {
                          return HostObservation{Status::Ok, "", right_outputs()};
                        }};
  });
  SuiteCase c{"L3/test/names", Level::L3, "hand-written", {}, std::move(host)};
  CaseResult r = run_case(backend, c, runs(2), nullptr);
  EXPECT_EQ(r.verdict, Verdict::Pass) << r.message;
  EXPECT_EQ(prepared_on, (std::vector<std::string>{"reference", "scripted"}));
}

TEST(CaseRunner, FailureWithoutAReproFileNamesItsInputRecipe) {
  ScriptedBackend backend;
  backend.answer = [](uint32_t) {
    return DispatchOutcome{Status::Ok, "", {{"out", to_bytes({2, 3, 5, 0})}}, {}};
  };
  SuiteCase c = plus_one_case();
  c.input_recipe = {"in = {1, 2, 3, 0xFFFFFFFF}", std::nullopt};
  // A writer that writes nothing, as for data past the case format's limit.
  CaseResult r = run_case(backend, c, runs(1), [](const TestCase&) { return std::string(); });
  EXPECT_EQ(r.verdict, Verdict::Fail);
  EXPECT_NE(r.message.find("no repro file; inputs: in = {1, 2, 3, 0xFFFFFFFF}; rerun: "
                           "vyre-certify --backend scripted --level L1 --filter L1/test/plus_one"),
            std::string::npos)
      << r.message;
  EXPECT_EQ(r.message.find("--seed"), std::string::npos) << r.message;
}

TEST(CaseRunner, FailureWithAReproFileNeedsNoRerunNote) {
  ScriptedBackend backend;
  backend.answer = [](uint32_t) {
    return DispatchOutcome{Status::Ok, "", {{"out", to_bytes({2, 3, 5, 0})}}, {}};
  };
  ReproSink repros;
  CaseResult r = run_case(backend, plus_one_case(), runs(1), repros.callback());
  EXPECT_EQ(r.verdict, Verdict::Fail);
  EXPECT_EQ(r.message.find("no repro file"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace vyre::certify
