// Reduction of L5 failures: a scripted backend that flips a bit of its first
// output whenever the program multiplies fails L5, and the failure is
// reported with a reduced repro of a few lines that still fails on it and
// passes on the reference. And a reduction keeps the failure's symptom: a
// backend whose wrong store in one buffer turns into a wrong store in
// another once the first store is deleted is reduced to the first bug, and
// a compiler rejecting an op, with a message that changes as the program
// shrinks, is reduced to a program that still has that op.
#include "certify/run/failure_reduction.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "backends/reference_backend.h"
#include "certify/run/certification_run.h"
#include "certify/suite/random_program_cases.h"
#include "generators/program_edit.h"
#include "spec/ir/builder.h"
#include "spec/ir/host_words.h"
#include "spec/text/text_format.h"

namespace vyre::certify {
namespace {

bool multiplies(const Program& p) {
  for (const edit::ExprSite& site : edit::expression_sites(p.entry)) {
    const auto* b = site.expr->as<expr::Binary>();
    if (b != nullptr && b->op == BinOp::Mul) return true;
  }
  return false;
}

/// The reference, except that a program with a Mul gets bit 0 of its first
/// non-empty output flipped: a bug of one op.
class MulFlipBackend : public Backend {
 public:
  std::string name() const override { return "mul-flip"; }
  Capabilities probe() override { return inner_->probe(); }
  CompileOutcome compile(const Program& program) override {
    CompileOutcome out = inner_->compile(program);
    if (out.program) out.program = std::make_shared<Compiled>(out.program, multiplies(program));
    return out;
  }
  DispatchOutcome dispatch(const CompiledProgram& program, const BufferSet& inputs,
                           const Grid& grid) override {
    const auto& c = static_cast<const Compiled&>(program);
    DispatchOutcome out = inner_->dispatch(*c.inner, inputs, grid);
    if (!c.flip) return out;
    for (auto& [name, bytes] : out.outputs) {
      if (bytes.empty()) continue;
      bytes[0] ^= 1;
      break;
    }
    return out;
  }

 private:
  struct Compiled : CompiledProgram {
    Compiled(std::shared_ptr<const CompiledProgram> p, bool f) : inner(std::move(p)), flip(f) {}
    std::shared_ptr<const CompiledProgram> inner;
    bool flip;
  };
  std::unique_ptr<Backend> inner_ = make_reference_backend({});
};

size_t lines(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(FailureReduction, AFlippedBitOfOneOpFailsL5WithAReducedRepro) {
  RandomProgramTally tally;
  const auto cases = random_program_cases(1, 40, tally);
  // Originals that multiply, a few of them: enough to see failures.
  std::vector<const SuiteCase*> chosen;
  for (const SuiteCase& c : cases) {
    if (original_of(c) == nullptr && multiplies(dispatch_of(c)->test_case.program) &&
        chosen.size() < 3) {
      chosen.push_back(&c);
    }
  }
  ASSERT_FALSE(chosen.empty());
  const std::string out = ::testing::TempDir() + "/l5_reduction";
  std::filesystem::remove_all(out);
  CertifyOptions options;
  options.level = Level::L5;
  options.runs = 2;
  options.out_dir = out;
  options.progress = false;
  MulFlipBackend backend;
  const Report report = run_certification(backend, backend.probe(), chosen, options, tally);
  EXPECT_FALSE(report.certified);
  ASSERT_TRUE(report.random_programs.has_value());
  int reduced = 0;
  for (const CaseResult& r : report.cases) {
    ASSERT_EQ(r.verdict, Verdict::Fail) << r.id << ": " << r.message;
    ASSERT_TRUE(r.failure.has_value());
    ASSERT_FALSE(r.failure->repro.empty());
    ASSERT_FALSE(r.failure->reduced_repro.empty()) << r.message;
    std::ifstream f(out + "/" + r.failure->reduced_repro);
    std::stringstream text;
    text << f.rdbuf();
    auto parsed = parse_case(text.str());
    ASSERT_TRUE(parsed.ok()) << parsed.error().message << "\n" << text.str();
    const std::string body = print_program(parsed->program);
    EXPECT_LE(lines(body), 12u) << body;
    EXPECT_TRUE(multiplies(parsed->program));
    // Replayed: still a failure on the buggy backend, a pass on the reference.
    EXPECT_EQ(verdict_on_backend(backend, *parsed, 1, uint64_t{1} << 22), Verdict::Fail);
    auto reference = make_reference_backend({});
    EXPECT_EQ(verdict_on_backend(*reference, *parsed, 1, uint64_t{1} << 22), Verdict::Pass);
    ++reduced;
  }
  EXPECT_GT(reduced, 0);
}

TEST(FailureReduction, AFailureThatDoesNotRepeatIsNotReduced) {
  auto reference = make_reference_backend({});
  RandomProgramTally tally;
  const auto cases = random_program_cases(1, 1, tally);
  ASSERT_FALSE(cases.empty());
  TestCase tc = dispatch_of(cases.front())->test_case;
  const FailureSymptom failed_somewhere{Verdict::Fail, {}, ""};
  EXPECT_FALSE(reduce_failure(*reference, tc, failed_somewhere, {}).has_value());
}

bool stores_to(const Program& p, const std::string& buffer) {
  for (size_t i = 0; i < edit::statement_count(p.entry); ++i) {
    const auto* store = edit::statement_at(p.entry, i).as<node::Store>();
    if (store != nullptr && store->buffer == buffer) return true;
  }
  return false;
}

/// The reference, with two bugs: a program that stores to `hit` gets bit 0
/// of `hit` flipped; any other program gets bit 0 of `other` flipped. A
/// reduction that only keeps "fails" deletes the store to `hit` and ends in
/// the second bug.
class TwoBugBackend : public Backend {
 public:
  std::string name() const override { return "two-bugs"; }
  Capabilities probe() override { return inner_->probe(); }
  CompileOutcome compile(const Program& program) override {
    CompileOutcome out = inner_->compile(program);
    if (out.program) {
      out.program = std::make_shared<Compiled>(out.program, stores_to(program, "hit"));
    }
    return out;
  }
  DispatchOutcome dispatch(const CompiledProgram& program, const BufferSet& inputs,
                           const Grid& grid) override {
    const auto& c = static_cast<const Compiled&>(program);
    DispatchOutcome out = inner_->dispatch(*c.inner, inputs, grid);
    const auto damaged = out.outputs.find(c.stores_hit ? "hit" : "other");
    if (damaged != out.outputs.end() && !damaged->second.empty()) damaged->second[0] ^= 1;
    return out;
  }

 private:
  struct Compiled : CompiledProgram {
    Compiled(std::shared_ptr<const CompiledProgram> p, bool s)
        : inner(std::move(p)), stores_hit(s) {}
    std::shared_ptr<const CompiledProgram> inner;
    bool stores_hit;
  };
  std::unique_ptr<Backend> inner_ = make_reference_backend({});
};

/// Four invocations storing to `hit` and `other`, with statements around
/// them for the reduction to delete.
TestCase two_buffer_case() {
  using namespace build;
  const ExprPtr gid = invocation_id(0);
  Program p{{storage("in", 0, BufferAccess::ReadOnly), storage("hit", 1, BufferAccess::ReadWrite),
             storage("other", 2, BufferAccess::ReadWrite)},
            {4, 1, 1},
            {let("x", load("in", gid)), let("y", mul(var("x"), u32(3))),
             store("hit", gid, add(var("x"), u32(1))), let("z", bit_xor(var("y"), u32(7))),
             store("other", gid, add(var("z"), var("x"))),
             if_(lt(var("x"), u32(3)), {assign("y", add(var("y"), u32(2)))})}};
  const ByteBuffer zeros = to_bytes({0, 0, 0, 0});
  return TestCase{"two_buffers",
                  std::move(p),
                  Grid{{1, 1, 1}},
                  {{"in", to_bytes({1, 2, 3, 4})}, {"hit", zeros}, {"other", zeros}},
                  std::nullopt};
}

constexpr uint64_t kSteps = uint64_t{1} << 22;

TEST(FailureReduction, AReductionKeepsTheBufferTheFailureIsIn) {
  TwoBugBackend backend;
  const TestCase failing = two_buffer_case();
  const FailureSymptom in_hit{Verdict::Fail, {{"hit", BufferDifference::Bytes}}, ""};
  const FailureSymptom in_other{Verdict::Fail, {{"other", BufferDifference::Bytes}}, ""};
  ASSERT_EQ(symptom_on_backend(backend, failing, 1, kSteps), in_hit);

  // What the verdict alone would keep: the store to `hit` goes, and the
  // reduced case shows the other bug.
  const TestCase drifted = reduce(failing, [&](const TestCase& c) {
    return verdict_on_backend(backend, c, 1, kSteps) == Verdict::Fail;
  });
  EXPECT_FALSE(stores_to(drifted.program, "hit")) << print_case(drifted);
  EXPECT_EQ(symptom_on_backend(backend, drifted, 1, kSteps), in_other);

  ReductionLimits limits;
  limits.runs = 1;
  const std::optional<ReducedFailure> reduced = reduce_failure(backend, failing, in_hit, limits);
  ASSERT_TRUE(reduced.has_value());
  EXPECT_EQ(reduced->symptom, in_hit);
  EXPECT_TRUE(stores_to(reduced->reduced.program, "hit")) << print_case(reduced->reduced);
  EXPECT_FALSE(stores_to(reduced->reduced.program, "other")) << print_case(reduced->reduced);
  EXPECT_EQ(symptom_on_backend(backend, reduced->reduced, 1, kSteps), in_hit);
  auto reference = make_reference_backend({});
  EXPECT_EQ(verdict_on_backend(*reference, reduced->reduced, 1, kSteps), Verdict::Pass);
}

/// A driver whose compiler has two bugs: it rejects a program that
/// multiplies, naming the op and the number of statements (which changes as
/// the program shrinks), and every other program with another message.
class TwoCompileBugsBackend : public Backend {
 public:
  std::string name() const override { return "two-compile-bugs"; }
  Capabilities probe() override { return inner_->probe(); }
  CompileOutcome compile(const Program& program) override {
    if (multiplies(program)) {
      return {Status::CompileError,
              "the driver rejected op mul (statement " +
                  std::to_string(edit::statement_count(program.entry)) + ")\nfull log follows",
              nullptr};
    }
    return {Status::CompileError, "the driver ran out of registers", nullptr};
  }
  /// Never reached: nothing compiles.
  DispatchOutcome dispatch(const CompiledProgram&, const BufferSet&, const Grid&) override {
    DispatchOutcome out;
    out.status = Status::Error;
    out.message = "nothing compiled";
    return out;
  }

 private:
  std::unique_ptr<Backend> inner_ = make_reference_backend({});
};

TEST(FailureReduction, AReductionOfACompileErrorKeepsItsMessage) {
  TwoCompileBugsBackend backend;
  const TestCase failing = two_buffer_case();
  const FailureSymptom rejected_mul{
      Verdict::CompileError, {}, "the driver rejected op mul (statement #)"};
  ASSERT_EQ(symptom_on_backend(backend, failing, 1, kSteps), rejected_mul);

  // What the verdict alone would keep: the multiplication goes, and the
  // reduced case shows the other bug.
  const TestCase drifted = reduce(failing, [&](const TestCase& c) {
    return verdict_on_backend(backend, c, 1, kSteps) == Verdict::CompileError;
  });
  EXPECT_FALSE(multiplies(drifted.program)) << print_case(drifted);

  ReductionLimits limits;
  limits.runs = 1;
  const std::optional<ReducedFailure> reduced =
      reduce_failure(backend, failing, rejected_mul, limits);
  ASSERT_TRUE(reduced.has_value());
  EXPECT_TRUE(multiplies(reduced->reduced.program)) << print_case(reduced->reduced);
  // The statement count in the message is masked, so statements do go.
  EXPECT_LT(edit::statement_count(reduced->reduced.program.entry),
            edit::statement_count(failing.program.entry))
      << print_case(reduced->reduced);
  EXPECT_EQ(symptom_on_backend(backend, reduced->reduced, 1, kSteps), rejected_mul);
  EXPECT_EQ(describe(reduced->symptom), "compile error: the driver rejected op mul (statement #)");
}

TEST(FailureReduction, AReportedFailureSaysWhichSymptomItsReductionKept) {
  TwoBugBackend backend;
  DispatchCase d;
  d.test_case = two_buffer_case();
  const SuiteCase c{"L5/test/two_buffers", Level::L5, "hand-written", {}, std::move(d)};
  CaseResult r;
  r.verdict = Verdict::Fail;
  r.message = "outputs differ from the expected bytes";
  r.failure = Failure{};
  ReductionLimits limits;
  limits.runs = 1;
  std::vector<TestCase> written;
  reduce_reported_failure(
      backend, c, dispatch_of(c)->test_case, limits,
      [&](const TestCase& repro) {
        written.push_back(repro);
        return std::string("repro/reduced.vyre");
      },
      r);
  ASSERT_EQ(written.size(), 1u) << r.message;
  EXPECT_TRUE(stores_to(written[0].program, "hit"));
  EXPECT_EQ(r.failure->reduced_repro, "repro/reduced.vyre");
  EXPECT_EQ(r.failure->reduced_symptom, "fail: buffer `hit` differs");
  EXPECT_NE(r.message.find(", keeping fail: buffer `hit` differs]"), std::string::npos)
      << r.message;
}

}  // namespace
}  // namespace vyre::certify
