// The preparation pool prepares past its lookahead while the prepared cases
// hold little memory, and counts what they hold.
#include "certify/run/preparation_pool.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <vector>

#include "certify/run/plus_one_case_for_tests.h"

namespace vyre::certify {
namespace {

TEST(PreparationPool, HeldBytesCountTheVariantsInputsAndExpectations) {
  const CaseExpectations e = compute_expectations(plus_one_case(), CaseRunOptions{});
  ASSERT_EQ(e.variants.size(), 1u);
  // The variant's inputs `in` and `out` (16 bytes each), the expectation's
  // copy of them, and its expected `out` (16 bytes).
  EXPECT_EQ(held_bytes(e), 16u + 16u + 16u + 16u + 16u);
}

TEST(PreparationPool, SmallCasesArePreparedPastTheLookahead) {
  std::vector<SuiteCase> cases;
  for (int i = 0; i < 40; ++i)
    cases.push_back(plus_one_case("L1/test/plus_one_" + std::to_string(i)));
  std::vector<const SuiteCase*> chosen;
  for (const SuiteCase& c : cases) chosen.push_back(&c);
  const CaseRunOptions options;
  PreparationPool pool(chosen, options, nullptr, kFarLookaheadThreads, /*lookahead=*/1);
  // Nothing is taken, so only the far lookahead lets case 30 be prepared.
  std::future<CaseExpectations> far = std::async(std::launch::async, [&] { return pool.take(30); });
  // Generous: a deadlock, not a slow machine, is what this waits out.
  if (far.wait_for(std::chrono::seconds(120)) != std::future_status::ready) {
    ADD_FAILURE() << "case 30 was not prepared while cases 0-29 were untaken";
    for (size_t i = 0; i < 30; ++i) pool.take(i);  // Lets the waiting take() finish.
  }
  EXPECT_EQ(far.get().variants.size(), 1u);
}

}  // namespace
}  // namespace vyre::certify
