// Which case verdicts are retried once on a freshly opened backend: only the
// infrastructure's (a lost device, a timeout), never a verdict about the
// bytes. Wrong output and nondeterminism are findings, not flakes.
#pragma once

#include "certify/report/report.h"

namespace vyre::certify {

/// True when a case that ended with `verdict` is run once more on a freshly
/// opened backend (DeviceLost, Timeout, Crashed); false for every other verdict.
bool retried_on_fresh_backend(Verdict verdict);

/// The message of a case's second attempt: says it was retried after
/// `first` (whose message was `first_message`), then the second attempt's own.
std::string retried_message(Verdict first, const std::string& first_message,
                            const std::string& second_message);

}  // namespace vyre::certify
