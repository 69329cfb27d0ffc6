// What `vyre-certify verify` checks beyond the digest: schema 1 member by
// member, and the verdict judged again from the per-case statuses.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "spec/support/result.h"

namespace vyre::certify {

/// What `vyre-certify verify` checks: the certificate (verify_certificate),
/// every member schema 1 defines present with its type and no other, and the
/// levels, verdict and reason equal to what judge() gives from the per-case
/// statuses. Returns the digest; an Error names the first problem by its JSON
/// pointer ("/levels/3/certified: ...").
Result<std::string> verify_report(const nlohmann::json& report);

}  // namespace vyre::certify
