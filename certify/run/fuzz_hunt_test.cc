// A fuzz hunt that compiles each batch's programs ahead, together, finds
// what a hunt compiling a few cases ahead finds: the same programs, cases,
// failures and distinct reduced findings for a seed; and it does compile the
// whole batch before the batch's first dispatch, once.
#include "certify/run/fuzz_hunt.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>
#include <filesystem>
#include <set>
#include <tuple>

#include "backends/reference_backend.h"

namespace vyre::certify {
namespace {

namespace fs = std::filesystem;

/// A compiled program of MarkingBackend: the reference's, and whether its
/// outputs are to be damaged.
struct MarkedProgram final : CompiledProgram {
  MarkedProgram(std::shared_ptr<const CompiledProgram> p, bool d)
      : inner(std::move(p)), damaged(d) {}
  std::shared_ptr<const CompiledProgram> inner;
  bool damaged;
};

/// The reference interpreter, compiling concurrently, whose outputs are one
/// byte off for programs with a body of 3 mod 4 top-level statements (a bug
/// that depends on the program alone, so every hunt meets it alike); it
/// counts the compiles made before its first dispatch.
class MarkingBackend final : public Backend {
 public:
  std::string name() const override { return "marking"; }
  Capabilities probe() override { return reference_->probe(); }
  CompileOutcome compile(const Program& program) override {
    ++compiles_;
    if (dispatches_ == 0) ++compiles_before_dispatch_;
    CompileOutcome out = reference_->compile(program);
    if (out.program) {
      out.program = std::make_shared<MarkedProgram>(out.program, program.entry.size() % 4 == 3);
    }
    return out;
  }
  DispatchOutcome dispatch(const CompiledProgram& program, const BufferSet& inputs,
                           const Grid& grid) override {
    ++dispatches_;
    const auto& marked = dynamic_cast<const MarkedProgram&>(program);
    DispatchOutcome out = reference_->dispatch(*marked.inner, inputs, grid);
    if (marked.damaged) {
      for (auto& [name, bytes] : out.outputs) {
        if (!bytes.empty()) bytes[0] ^= 1;
      }
    }
    return out;
  }
  bool compiles_concurrently() const override { return true; }

  uint64_t compiles() const { return compiles_; }
  uint64_t compiles_before_dispatch() const { return compiles_before_dispatch_; }

 private:
  std::unique_ptr<Backend> reference_ = make_reference_backend(BackendOptions{});
  std::atomic<uint64_t> compiles_{0};
  std::atomic<uint64_t> compiles_before_dispatch_{0};
  std::atomic<uint64_t> dispatches_{0};
};

/// What a hunt found, comparable between hunts.
using Found = std::set<std::tuple<std::string, std::string, Verdict>>;

class FuzzHuntTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string dir = (fs::temp_directory_path() / "vyre-hunt-XXXXXX").string();
    ASSERT_NE(::mkdtemp(dir.data()), nullptr);
    dir_ = dir;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  HuntResult hunt_with(MarkingBackend& backend, bool ahead, const std::string& out) {
    HuntOptions o;
    o.seed = 20261127;
    o.seconds = 600;  // Bounded by max_programs, not by time.
    o.max_programs = 12;
    o.runs = 1;
    o.out_dir = (dir_ / out).string();
    o.progress = false;
    o.backend_name = "marking";
    o.compile_batches_ahead = ahead;
    return hunt(backend, o);
  }

  static Found found(const HuntResult& r) {
    Found out;
    for (const HuntFinding& f : r.findings) out.emplace(f.hash, f.case_id, f.verdict);
    return out;
  }

  fs::path dir_;
};

TEST_F(FuzzHuntTest, CompilingBatchesAheadFindsWhatCompilingCasesAheadFinds) {
  MarkingBackend ahead_backend;
  const HuntResult ahead = hunt_with(ahead_backend, true, "ahead");
  MarkingBackend plain_backend;
  const HuntResult plain = hunt_with(plain_backend, false, "plain");
  EXPECT_EQ(ahead.programs, 12u);
  EXPECT_EQ(ahead.programs, plain.programs);
  EXPECT_EQ(ahead.discarded, plain.discarded);
  EXPECT_EQ(ahead.cases, plain.cases);
  EXPECT_EQ(ahead.failures, plain.failures);
  EXPECT_GT(ahead.failures, 0u) << "no program of the seed met the damage: the test tests nothing";
  EXPECT_EQ(found(ahead), found(plain));
  for (const HuntFinding& f : ahead.findings) {
    EXPECT_TRUE(fs::exists(fs::path(f.dir) / "original.vyre")) << f.dir;
  }
  // Ahead, the first batch (8 programs, every case and variant) is compiled
  // before anything runs, and the run takes those programs rather than
  // compiling them again (only a variant the reference finds invalid, which
  // the run would not compile, may add a compile).
  EXPECT_GE(ahead_backend.compiles_before_dispatch(), 8u);
  EXPECT_GE(ahead_backend.compiles(), plain_backend.compiles());
  EXPECT_LE(ahead_backend.compiles(), plain_backend.compiles() + plain_backend.compiles() / 10);
}

}  // namespace
}  // namespace vyre::certify
