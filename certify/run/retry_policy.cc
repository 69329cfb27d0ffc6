#include "certify/run/retry_policy.h"

#include <array>

namespace vyre::certify {
namespace {

// The infrastructure's verdicts, a crash of the backend's process included:
// the crash may have been another call's in flight at the same time, so the
// case runs again on a fresh process before it counts. Everything else is the backend's answer
// about the program (Fail, BadOutput, CompileError, NotSupported, Error) or
// the suite's (InvalidCase), which a second try must not launder.
constexpr std::array<Verdict, 3> kInfrastructureVerdicts = {Verdict::DeviceLost, Verdict::Timeout,
                                                            Verdict::Crashed};

}  // namespace

bool retried_on_fresh_backend(Verdict verdict) {
  for (Verdict v : kInfrastructureVerdicts) {
    if (v == verdict) return true;
  }
  return false;
}

std::string retried_message(Verdict first, const std::string& first_message,
                            const std::string& second_message) {
  return "retried once on a freshly opened backend after `" + std::string(name_of(first)) + "` (" +
         first_message + "); second attempt: " + second_message;
}

}  // namespace vyre::certify
