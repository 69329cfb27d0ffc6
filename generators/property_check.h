// Runs a RapidCheck property inside a GoogleTest with a floor on the number of
// successful runs, so a property meant to cover thousands of inputs does so
// whatever RC_PARAMS says (RC_PARAMS can still raise it, or fix the seed).
// Under the sanitizers the floor is an eighth (spec/support/sanitized_share.h).
#pragma once

#include <gtest/gtest.h>

#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <algorithm>
#include <sstream>

#include "spec/support/sanitized_share.h"

namespace vyre {

/// Checks `property` with at least `min_successes` passing runs (an eighth of
/// them in the sanitized build); fails the
/// current test with RapidCheck's counterexample report otherwise.
template <typename Property>
void check_property(int min_successes, Property&& property) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess = std::max(params.maxSuccess, sanitized_share(min_successes));
  const auto result = rc::detail::checkTestable(std::forward<Property>(property), metadata, params);
  if (!result.template is<rc::detail::SuccessResult>()) {
    std::ostringstream report;
    rc::detail::printResultMessage(result, report);
    ADD_FAILURE() << report.str();
  }
}

}  // namespace vyre
