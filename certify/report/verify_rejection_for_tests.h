// The check the report tests make of every forged or broken report: verify
// must refuse it, and say why in words the test names.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "certify/report/report_verify.h"

namespace vyre::certify {

/// Fails unless verify_report rejects `report` with a message containing `needle`.
inline void expect_rejected(const nlohmann::json& report, std::string_view needle) {
  auto result = verify_report(report);
  ASSERT_FALSE(result.ok()) << "accepted: " << report.dump();
  EXPECT_NE(result.error().message.find(needle), std::string::npos) << result.error().message;
}

}  // namespace vyre::certify
