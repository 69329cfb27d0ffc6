// Reduction of L5 failures: a scripted backend that flips a bit of its first
// output whenever the program multiplies fails L5, and the failure is
// reported with a reduced repro of a few lines that still fails on it and
// passes on the reference.
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
  EXPECT_FALSE(reduce_failure(*reference, tc, Verdict::Fail, {}).has_value());
}

}  // namespace
}  // namespace vyre::certify
