// The order a certification's lanes take its cases in (run_order.h): the
// found driver bugs first, the rest in catalogue order, and the report in
// catalogue order whatever the run's. Expected orders are hand-written.
#include "certify/run/run_order.h"

#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "certify/run/certification_run.h"
#include "certify/run/plus_one_case_for_tests.h"
#include "spec/ir/host_words.h"

namespace vyre::certify {
namespace {

TEST(RunOrder, FoundDriverBugsComeFirstAndEachGroupKeepsCatalogueOrder) {
  std::vector<SuiteCase> cases;
  for (const char* id : {"L1/a", "L5/random/000001", "L5/found/rec-b", "L2/c", "L5/found/rec-a/x",
                         "L5/found/rec-a", "L5/foundling"}) {
    cases.push_back(plus_one_case(id));
  }
  std::vector<const SuiteCase*> chosen;
  for (const SuiteCase& c : cases) chosen.push_back(&c);
  EXPECT_EQ(run_order(chosen), (std::vector<size_t>{2, 4, 5, 0, 1, 3, 6}));
  EXPECT_EQ(run_order({}), std::vector<size_t>{});
}

/// One lane adding one to each word, recording the first input word of
/// each dispatch in the order they came.
class RecordingBackend final : public Backend {
 public:
  std::string name() const override { return "recording"; }
  Capabilities probe() override { return {}; }
  CompileOutcome compile(const Program&) override {
    return {Status::Ok, "", std::make_shared<const CompiledProgram>()};
  }
  DispatchOutcome dispatch(const CompiledProgram&, const BufferSet& inputs, const Grid&) override {
    std::vector<uint32_t> words = to_words(inputs.at("in"));
    {
      std::lock_guard lock(mutex_);
      first_words.push_back(words.at(0));
    }
    for (uint32_t& w : words) w += 1;
    return {Status::Ok, "", {{"out", to_bytes(words)}}, {}};
  }
  std::mutex mutex_;
  std::vector<uint32_t> first_words;
};

TEST(RunOrder, TheReportListsTheCasesInCatalogueOrderWhateverTheRunOrder) {
  std::vector<SuiteCase> cases;
  const std::vector<std::string> ids = {"L1/test/first", "L1/test/second", "L5/found/record"};
  for (size_t i = 0; i < ids.size(); ++i) {
    cases.push_back(plus_one_case(ids[i]));
    std::get<DispatchCase>(cases.back().body).test_case.inputs["in"] =
        to_bytes({static_cast<uint32_t>(100 + i), 2, 3, 4});
  }
  std::vector<const SuiteCase*> chosen;
  for (const SuiteCase& c : cases) chosen.push_back(&c);
  CertifyOptions options;
  options.level = Level::L1;
  options.runs = 1;
  options.progress = false;
  options.out_dir = testing::TempDir() + "run_order_test";
  RecordingBackend backend;
  const Report report = run_certification(backend, {}, chosen, options);
  EXPECT_EQ(backend.first_words, (std::vector<uint32_t>{102, 100, 101}));
  ASSERT_EQ(report.cases.size(), 3u);
  for (size_t i = 0; i < ids.size(); ++i) {
    EXPECT_EQ(report.cases[i].id, ids[i]);
    EXPECT_EQ(report.cases[i].verdict, Verdict::Pass) << report.cases[i].message;
  }
}

}  // namespace
}  // namespace vyre::certify
