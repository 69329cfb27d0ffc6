// The schedule probes of a long run run side by side (schedule_probe.h,
// kSideBySideProbeSteps) and must give the verdict probes run one by one
// give: the first schedule, in probe order, whose outputs differ; none for a
// program whose atomics only count.
#include <gtest/gtest.h>

#include "reference/exec/schedule_probe.h"
#include "reference/interpreter.h"
#include "spec/ir/builder.h"
#include "spec/ir/host_words.h"

namespace vyre::reference {
namespace {

using namespace vyre::build;

constexpr uint32_t kLanes = 64;
/// Probes side by side, whatever the host's cores.
constexpr unsigned kProbeThreads = 4;
/// Enough iterations of the busy loop for a run past kSideBySideProbeSteps.
constexpr uint32_t kIterations = 120'000;

/// A lane-local busy loop, then `tail`; one workgroup of kLanes.
Program long_run(std::vector<Node> tail) {
  std::vector<Node> body = {
      let("acc", u32(0)),
      loop("i", u32(0), u32(kIterations), {assign("acc", bit_xor(var("acc"), var("i")))}),
      store("busy", local_id(0), var("acc"))};
  for (Node& n : tail) body.push_back(std::move(n));
  return Program{
      {storage("c", 0, BufferAccess::ReadWrite), storage("out", 1, BufferAccess::ReadWrite),
       storage("busy", 2, BufferAccess::ReadWrite)},
      {kLanes, 1, 1},
      std::move(body)};
}

RunOptions side_by_side() {
  RunOptions options;
  options.probe_threads = kProbeThreads;
  return options;
}

BufferSet inputs() {
  return {{"c", to_bytes({0})},
          {"out", to_bytes(std::vector<uint32_t>(kLanes, 0))},
          {"busy", to_bytes(std::vector<uint32_t>(kLanes, 0))}};
}

TEST(LongRunProbes, AKeptAtomicResultIsFlaggedByTheFirstProbeThatDiffers) {
  // out[lid] = the ticket each lane drew. The probe list starts with the
  // canonical order with workgroups together (one workgroup: the same
  // tickets), then the reversed order (every ticket differs).
  const Program p = long_run(
      {let("t", atomic(AtomicOp::Add, "c", u32(0), u32(1))), store("out", local_id(0), var("t"))});
  const Result<RunResult> r = run(p, inputs(), Grid{}, side_by_side());
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_GE(r->steps, kSideBySideProbeSteps)
      << "the run is too short to test the side-by-side path";
  ASSERT_EQ(r->violations.size(), 1u);
  const Violation& v = r->violations.front();
  EXPECT_EQ(v.kind, Violation::Kind::ScheduleDependence);
  EXPECT_NE(v.message.find("differ between the canonical and the reversed schedule (out[0] "
                           "0x00000000 vs 0x0000003f"),
            std::string::npos)
      << v.message;
}

TEST(LongRunProbes, AtomicsThatOnlyCountAreNotFlagged) {
  const Program p = long_run({let("t", atomic(AtomicOp::Add, "c", u32(0), u32(1)))});
  const Result<RunResult> r = run(p, inputs(), Grid{}, side_by_side());
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_GE(r->steps, kSideBySideProbeSteps)
      << "the run is too short to test the side-by-side path";
  EXPECT_TRUE(r->violations.empty()) << r->violations.front().message;
  EXPECT_EQ(to_words(r->outputs.at("c")), std::vector<uint32_t>{kLanes});
}

}  // namespace
}  // namespace vyre::reference
