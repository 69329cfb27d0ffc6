// Several lowerings of one program as variants (issue 23, item 6): a case
// that asks for it runs once more in one of the backend's encodings, a
// mismatch there names the encoding, and its repro replays that encoding.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/reference_backend.h"
#include "certify/run/case_runner.h"
#include "certify/run/failure_reduction.h"
#include "certify/run/plus_one_case_for_tests.h"
#include "spec/ir/host_words.h"
#include "spec/text/text_format.h"

namespace vyre::certify {
namespace {

/// A program of the reference backend, marked when compiled in the one
/// encoding this backend gets wrong.
struct Encoded final : CompiledProgram {
  std::shared_ptr<const CompiledProgram> inner;
  bool broken = false;
};

/// The reference backend with two encodings, spirv-opt-O (right) and
/// spirv-opt-Os (its outputs' first byte flipped); it records every encoding
/// it was asked to compile.
class TwoEncodingBackend final : public Backend {
 public:
  std::string name() const override { return "two-encodings"; }
  Capabilities probe() override { return inner_->probe(); }
  CompileOutcome compile(const Program& program) override {
    return compile_encoded(program, Encoding::AsEmitted);
  }
  std::vector<Encoding> encodings() const override {
    return {Encoding::SpirvOptPerformance, Encoding::SpirvOptSize};
  }
  CompileOutcome compile_encoded(const Program& program, Encoding encoding) override {
    asked.push_back(encoding);
    if (encoding == Encoding::ClOptDisable) return Backend::compile_encoded(program, encoding);
    CompileOutcome out = inner_->compile(program);
    auto encoded = std::make_shared<Encoded>();
    encoded->inner = out.program;
    encoded->broken = encoding == Encoding::SpirvOptSize;
    out.program = encoded;
    return out;
  }
  DispatchOutcome dispatch(const CompiledProgram& program, const BufferSet& inputs,
                           const Grid& grid) override {
    const auto& encoded = dynamic_cast<const Encoded&>(program);
    DispatchOutcome out = inner_->dispatch(*encoded.inner, inputs, grid);
    if (encoded.broken && out.status == Status::Ok) out.outputs.at("out").at(0) ^= 1;
    return out;
  }

  std::vector<Encoding> asked;

 private:
  std::unique_ptr<Backend> inner_ = make_reference_backend(BackendOptions{});
};

/// plus_one_case with an encoding variant numbered `rotation`.
SuiteCase encoded_case(uint64_t rotation) {
  SuiteCase c = plus_one_case("L5/test/plus_one");
  std::get<DispatchCase>(c.body).encoding_variant = rotation;
  return c;
}

CaseRunOptions options_for(const Backend& backend) {
  CaseRunOptions o;
  o.runs = 2;
  o.encodings = backend.encodings();
  return o;
}

TEST(EncodingVariant, TheCaseRunsOnceMoreInTheRotatedEncoding) {
  TwoEncodingBackend backend;
  CaseResult r = run_case(backend, encoded_case(2), options_for(backend), {});
  EXPECT_EQ(r.verdict, Verdict::Pass) << r.message;
  EXPECT_EQ(r.variants, 2u);
  // 2 modulo the two encodings: the first, spirv-opt-O.
  EXPECT_EQ(backend.asked,
            (std::vector<Encoding>{Encoding::AsEmitted, Encoding::SpirvOptPerformance}));
}

TEST(EncodingVariant, ACaseAskingForEveryEncodingRunsInEachAndFailsInTheBrokenOne) {
  TwoEncodingBackend backend;
  SuiteCase c = plus_one_case("L5/found/test");
  std::get<DispatchCase>(c.body).every_encoding = true;
  CaseResult r = run_case(backend, c, options_for(backend), {});
  EXPECT_EQ(r.verdict, Verdict::Fail);
  EXPECT_EQ(r.message.rfind("in encoding spirv-opt-Os: ", 0), 0u) << r.message;
  EXPECT_EQ(r.variants, 3u);
  EXPECT_EQ(backend.asked,
            (std::vector<Encoding>{Encoding::AsEmitted, Encoding::SpirvOptPerformance,
                                   Encoding::SpirvOptSize}));
}

TEST(EncodingVariant, ABackendWithoutEncodingsRunsTheCaseAsEmittedOnly) {
  TwoEncodingBackend backend;
  CaseRunOptions o = options_for(backend);
  o.encodings.clear();
  CaseResult r = run_case(backend, encoded_case(1), o, {});
  EXPECT_EQ(r.verdict, Verdict::Pass) << r.message;
  EXPECT_EQ(r.variants, 1u);
  EXPECT_EQ(backend.asked, (std::vector<Encoding>{Encoding::AsEmitted}));
}

TEST(EncodingVariant, AMismatchInOneEncodingNamesItAndItsReproKeepsIt) {
  TwoEncodingBackend backend;
  std::optional<TestCase> repro;
  const ReproWriter write = [&](const TestCase& tc) {
    repro = tc;
    return std::string("repro/x.vyre");
  };
  CaseResult r = run_case(backend, encoded_case(1), options_for(backend), write);
  EXPECT_EQ(r.verdict, Verdict::Fail);
  EXPECT_EQ(r.message.rfind("in encoding spirv-opt-Os: ", 0), 0u) << r.message;
  ASSERT_TRUE(r.failure);
  EXPECT_NE(r.failure->variant.find("encoding=spirv-opt-Os"), std::string::npos)
      << r.failure->variant;
  ASSERT_TRUE(repro);
  EXPECT_EQ(repro->encoding, Encoding::SpirvOptSize);
  EXPECT_NE(print_case(*repro).find("encoding \"spirv-opt-Os\""), std::string::npos);
}

TEST(EncodingVariant, ReplayingAReproCompilesTheEncodingItRecords) {
  TwoEncodingBackend backend;
  std::optional<TestCase> repro;
  const ReproWriter write = [&](const TestCase& tc) {
    repro = tc;
    return std::string("repro/x.vyre");
  };
  run_case(backend, encoded_case(1), options_for(backend), write);
  ASSERT_TRUE(repro);
  // Through the case file, as `vyre-certify run` and the reducer read it.
  Result<TestCase> parsed = parse_case(print_case(*repro));
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  backend.asked.clear();
  EXPECT_EQ(verdict_on_backend(backend, *parsed, 1, uint64_t{1} << 20), Verdict::Fail);
  EXPECT_EQ(backend.asked, (std::vector<Encoding>{Encoding::SpirvOptSize}));
  // The same program as emitted passes: the encoding, not the program, broke.
  parsed->encoding = Encoding::AsEmitted;
  EXPECT_EQ(verdict_on_backend(backend, *parsed, 1, uint64_t{1} << 20), Verdict::Pass);
}

TEST(EncodingVariant, AnEncodingTheBackendLacksIsNotSupportedNeverAnotherLowering) {
  TwoEncodingBackend backend;
  TestCase tc = std::get<DispatchCase>(plus_one_case().body).test_case;
  tc.encoding = Encoding::ClOptDisable;
  EXPECT_EQ(verdict_on_backend(backend, tc, 1, uint64_t{1} << 20), Verdict::NotSupported);
  std::unique_ptr<Backend> reference = make_reference_backend(BackendOptions{});
  CompileOutcome out = reference->compile_encoded(tc.program, Encoding::SpirvOptPerformance);
  EXPECT_EQ(out.status, Status::NotSupported);
  EXPECT_EQ(out.program, nullptr);
  EXPECT_NE(out.message.find("encoding `spirv-opt-O`"), std::string::npos) << out.message;
}

}  // namespace
}  // namespace vyre::certify
