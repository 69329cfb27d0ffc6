// The retry decision table, written out by hand for every verdict: only the
// infrastructure's statuses get a second attempt.
#include "certify/run/retry_policy.h"

#include <gtest/gtest.h>

namespace vyre::certify {
namespace {

TEST(RetryPolicy, OnlyInfrastructureStatusesAreRetried) {
  const std::pair<Verdict, bool> table[] = {
      {Verdict::Pass, false},         {Verdict::Fail, false},      {Verdict::NotSupported, false},
      {Verdict::CompileError, false}, {Verdict::DeviceLost, true}, {Verdict::Timeout, true},
      {Verdict::BadOutput, false},    {Verdict::Error, false},     {Verdict::InvalidCase, false},
      {Verdict::Crashed, true},
  };
  for (const auto& [verdict, retried] : table) {
    EXPECT_EQ(retried_on_fresh_backend(verdict), retried) << name_of(verdict);
  }
}

TEST(RetryPolicy, TheMessageSaysItWasRetried) {
  const std::string m = retried_message(Verdict::DeviceLost, "VK_ERROR_DEVICE_LOST", "passed");
  EXPECT_NE(m.find("retried once on a freshly opened backend"), std::string::npos) << m;
  EXPECT_NE(m.find(std::string(name_of(Verdict::DeviceLost))), std::string::npos) << m;
  EXPECT_NE(m.find("VK_ERROR_DEVICE_LOST"), std::string::npos) << m;
  EXPECT_NE(m.find("passed"), std::string::npos) << m;
}

}  // namespace
}  // namespace vyre::certify
