// What `vyre-certify verify` checks beyond the digest: schema 1 member by
// member, the verdict judged again from the per-case statuses, and the
// backend and device fields against what the cases record. (The signature:
// report_signature.h; completeness against the catalogue:
// run/report_completeness.h.)
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "spec/support/result.h"

namespace vyre::certify {

/// What `vyre-certify verify` checks: the certificate (verify_certificate),
/// every member schema 1 defines present with its type and no other, and the
/// levels, verdict and reason equal to what judge() gives from the per-case
/// statuses, a built-in backend's device API its own and every case's
/// device_fingerprint (when recorded) the report's backend and device. Returns the digest; an Error
/// names the first problem by its JSON pointer ("/levels/3/certified: ...").
Result<std::string> verify_report(const nlohmann::json& report);

}  // namespace vyre::certify
