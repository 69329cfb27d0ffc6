// A fuzz hunt of several workers, each on a backend of its own: under a
// program limit it runs the programs one worker runs and finds the same
// distinct reduced forms, each written once; a worker whose backend cannot be
// opened, is unusable or is on another device fails the hunt before any
// program runs, naming the worker.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "certify/run/fuzz_hunt.h"
#include "certify/run/marking_backend_for_tests.h"
#include "certify/run/scratch_dir_test_base.h"

namespace vyre::certify {
namespace {

namespace fs = std::filesystem;

/// A backend that only answers its probe: a worker that opens it must fail
/// the hunt before anything is compiled on it.
class ProbeOnlyBackend final : public Backend {
 public:
  explicit ProbeOnlyBackend(Capabilities device) : device_(std::move(device)) {}
  std::string name() const override { return "probe-only"; }
  Capabilities probe() override { return device_; }
  CompileOutcome compile(const Program&) override {
    ADD_FAILURE() << "a program was compiled on a worker that should have failed the hunt";
    return {};
  }
  DispatchOutcome dispatch(const CompiledProgram&, const BufferSet&, const Grid&) override {
    ADD_FAILURE() << "a program ran on a worker that should have failed the hunt";
    return {};
  }

 private:
  Capabilities device_;
};

class FuzzHuntWorkersTest : public ScratchDirTest {
 protected:
  HuntOptions options(const std::string& out, unsigned jobs) const {
    HuntOptions o = marking_hunt_options((dir_ / out).string(), 16);
    o.jobs = jobs;
    return o;
  }

  /// The folders a hunt wrote in `out`, its scratch folders left out.
  std::set<std::string> finding_folders(const std::string& out) const {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_ / out)) {
      const std::string name = entry.path().filename().string();
      if (!name.starts_with(".")) names.insert(name);
    }
    return names;
  }

  static std::set<std::string> hashes(const HuntResult& r) {
    std::set<std::string> out;
    for (const HuntFinding& f : r.findings) out.insert(f.hash);
    return out;
  }
};

TEST_F(FuzzHuntWorkersTest, TwoWorkersRunTheProgramsOfOneAndFindTheSameForms) {
  ProgramLog one_log;
  MarkingBackend one_backend(&one_log);
  Result<HuntResult> one = hunt(one_backend, options("one", 1));
  ASSERT_TRUE(one.ok()) << one.error().message;

  // Each worker's first dispatch waits for the other's, so both take
  // programs whatever the scheduling: the first batch of each is 8 programs.
  ProgramLog two_log;
  FirstDispatchMeeting meeting(2);
  MarkingBackend first(&two_log, &meeting);
  std::vector<MarkingBackend*> opened;
  HuntOptions o = options("two", 2);
  o.open_backend = [&]() -> Result<std::unique_ptr<Backend>> {
    auto made = std::make_unique<MarkingBackend>(&two_log, &meeting);
    opened.push_back(made.get());
    return std::unique_ptr<Backend>(std::move(made));
  };
  Result<HuntResult> two = hunt(first, o);
  ASSERT_TRUE(two.ok()) << two.error().message;
  EXPECT_TRUE(meeting.all_arrived()) << "one worker never dispatched";
  // One backend opened for the second worker; a retry would open more, and
  // the reference never needs one.
  ASSERT_EQ(opened.size(), 1u);

  EXPECT_EQ(one->programs, 16u);
  EXPECT_EQ(two->programs, one->programs);
  EXPECT_EQ(two->discarded, one->discarded);
  EXPECT_EQ(two->cases, one->cases);
  EXPECT_EQ(two->failures, one->failures);
  EXPECT_GT(one->failures, 0u) << "no program of the seed met the damage: the test tests nothing";
  // The same programs (and variants, and reduction candidates) compiled.
  EXPECT_EQ(two_log.programs(), one_log.programs());
  EXPECT_EQ(hashes(*two), hashes(*one));
  // One folder per distinct form, and nothing else left behind.
  EXPECT_EQ(two->findings.size(), hashes(*two).size());
  EXPECT_EQ(finding_folders("two"), hashes(*two));
  EXPECT_EQ(finding_folders("one"), hashes(*one));
  for (const HuntFinding& f : two->findings) {
    EXPECT_TRUE(fs::exists(fs::path(f.dir) / "original.vyre")) << f.dir;
    EXPECT_TRUE(fs::exists(fs::path(f.dir) / "README.txt")) << f.dir;
  }
}

TEST_F(FuzzHuntWorkersTest, AWorkerWhoseBackendCannotBeOpenedFailsTheHunt) {
  MarkingBackend first;
  HuntOptions o = options("unopened", 3);
  int calls = 0;
  o.open_backend = [&]() -> Result<std::unique_ptr<Backend>> {
    if (++calls == 2) return Error{"no device for you"};
    return std::unique_ptr<Backend>(std::make_unique<MarkingBackend>());
  };
  Result<HuntResult> r = hunt(first, o);
  ASSERT_FALSE(r.ok()) << "the hunt went on with fewer workers";
  EXPECT_NE(r.error().message.find("worker 3 of 3"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("cannot open backend `marking`: no device for you"),
            std::string::npos)
      << r.error().message;
  EXPECT_EQ(first.compiles(), 0u) << "programs ran before every worker was open";
  EXPECT_FALSE(fs::exists(dir_ / "unopened") && !finding_folders("unopened").empty());
}

TEST_F(FuzzHuntWorkersTest, AWorkerWhoseBackendIsNotUsableFailsTheHunt) {
  MarkingBackend first;
  HuntOptions o = options("unusable", 2);
  o.open_backend = []() -> Result<std::unique_ptr<Backend>> {
    Capabilities none;
    none.unavailable = "the device fell off the bus";
    return std::unique_ptr<Backend>(std::make_unique<ProbeOnlyBackend>(none));
  };
  Result<HuntResult> r = hunt(first, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("worker 2 of 2"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("not usable: the device fell off the bus"), std::string::npos)
      << r.error().message;
  EXPECT_EQ(first.compiles(), 0u);
}

TEST_F(FuzzHuntWorkersTest, AWorkerOnAnotherDeviceFailsTheHunt) {
  MarkingBackend first;
  HuntOptions o = options("elsewhere", 2);
  o.open_backend = [&]() -> Result<std::unique_ptr<Backend>> {
    Capabilities other = first.probe();
    other.device_name = "another card";
    return std::unique_ptr<Backend>(std::make_unique<ProbeOnlyBackend>(other));
  };
  Result<HuntResult> r = hunt(first, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("worker 2 of 2"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("another card"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("same device"), std::string::npos) << r.error().message;
  EXPECT_EQ(first.compiles(), 0u);
}

TEST_F(FuzzHuntWorkersTest, WorkersWithoutAWayToOpenTheirBackendsAreAnError) {
  MarkingBackend first;
  Result<HuntResult> none = hunt(first, options("none", 0));
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("at least one worker"), std::string::npos)
      << none.error().message;
  Result<HuntResult> unopenable = hunt(first, options("unopenable", 2));
  ASSERT_FALSE(unopenable.ok());
  EXPECT_NE(unopenable.error().message.find("2 workers needs a way to open"), std::string::npos)
      << unopenable.error().message;
  EXPECT_EQ(first.compiles(), 0u);
}

}  // namespace
}  // namespace vyre::certify
