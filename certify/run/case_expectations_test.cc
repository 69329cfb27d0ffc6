// A case's variants are computed one after another, or side by side once one
// took long (case_expectations.cc, variant_expectations); either way the
// expectations come back in variant order and stop at the first invalid one.
#include "certify/run/case_expectations.h"

#include <gtest/gtest.h>

#include "spec/ir/builder.h"
#include "spec/ir/host_words.h"

namespace vyre::certify {
namespace {

constexpr uint32_t kInvocations = 64;

/// A resizable case that runs a lane-local loop of `iterations` (a multiple
/// of 4: the xor of 0..iterations-1 is then 0), then stores its local id; it
/// expects the bytes of workgroups of one invocation (all zeros), so its
/// variants are: size 1 as given (valid), size 1 poisoned
/// (valid: the expectation is the reference's), size 64 as given (invalid:
/// local ids 0-63), where the list stops.
SuiteCase local_id_case(uint32_t iterations) {
  using namespace vyre::build;
  Program p{
      {storage("out", 0, BufferAccess::ReadWrite), storage("busy", 1, BufferAccess::ReadWrite)},
      {1, 1, 1},
      {let("acc", u32(0)),
       loop("i", u32(0), u32(iterations), {assign("acc", bit_xor(var("acc"), var("i")))}),
       store("busy", invocation_id(0), var("acc")), store("out", invocation_id(0), local_id(0))}};
  const std::vector<uint32_t> zeros(kInvocations, 0);
  DispatchCase d;
  d.test_case = TestCase{"local_id",
                         std::move(p),
                         Grid{{kInvocations, 1, 1}},
                         {{"out", to_bytes(zeros)}, {"busy", to_bytes(zeros)}},
                         BufferSet{{"out", to_bytes(zeros)}, {"busy", to_bytes(zeros)}}};
  d.resizable = true;
  d.poisonable = std::vector<std::string>{"out"};
  return SuiteCase{"L1/test/local_id", Level::L1, "hand-written", {}, std::move(d)};
}

/// Label and validity of each variant's expectation.
std::vector<std::pair<std::string, bool>> outline(const CaseExpectations& e) {
  std::vector<std::pair<std::string, bool>> out;
  for (const VariantExpectation& v : e.variants) {
    out.emplace_back(v.variant.label, v.invalid.has_value());
  }
  return out;
}

TEST(CaseExpectations, VariantsComeInOrderAndStopAtTheFirstInvalidOne) {
  const std::vector<std::pair<std::string, bool>> expected = {
      {"workgroup_size=1x1x1 grid=64x1x1 outputs=as-given", false},
      {"workgroup_size=1x1x1 grid=64x1x1 outputs=poisoned", false},
      {"workgroup_size=64x1x1 grid=1x1x1 outputs=as-given", true}};
  // A few iterations: one variant after another.
  EXPECT_EQ(outline(compute_expectations(local_id_case(4), CaseRunOptions{})), expected);
  // Millions of lane steps a variant, past the side-by-side threshold on any
  // machine, and threads allowed: the rest side by side, and the same list.
  CaseRunOptions side_by_side;
  side_by_side.reference_threads = 4;
  const CaseExpectations slow = compute_expectations(local_id_case(2'000'000), side_by_side);
  EXPECT_EQ(outline(slow), expected);
  ASSERT_EQ(slow.variants.size(), 3u);
  EXPECT_NE(slow.variants[2].invalid->message.find("disagrees with the case's expectation"),
            std::string::npos)
      << slow.variants[2].invalid->message;
}

}  // namespace
}  // namespace vyre::certify
