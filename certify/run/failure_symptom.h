// The symptom of a failure on a backend: what a reduction of it must keep
// showing, so that the reduced repro shows the bug it was reduced from and
// not another one met on the way (a wrong store in one buffer must not turn
// into a wrong store in another when the first store is deleted). It is the
// verdict plus, where outputs came back, which buffers differ from the
// expectation and how; where a status ended the run, the stable part of its
// message (numbers, addresses and times masked).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "certify/report/report.h"
#include "spec/ir/host_abi.h"

namespace vyre::certify {

/// How one output buffer differs from its expected bytes.
enum class BufferDifference : uint8_t {
  Bytes,       ///< The same length, other bytes.
  Length,      ///< Another length than expected.
  Missing,     ///< Expected but not returned.
  Unexpected,  ///< Returned but not expected.
};

/// What a failure looks like; two failures with equal symptoms are taken
/// for the same bug.
struct FailureSymptom {
  Verdict verdict = Verdict::Pass;
  /// Where outputs came back: each buffer that differs, by name, and how.
  std::map<std::string, BufferDifference> buffers;
  /// Where a status (a refused compile, a failed dispatch) ended the run:
  /// stable_message of its message; empty otherwise.
  std::string message;

  bool operator==(const FailureSymptom&) const = default;
};

/// The symptom of outputs `observed` judged `verdict` against `expected`.
FailureSymptom output_symptom(Verdict verdict, const BufferSet& expected,
                              const BufferSet& observed);

/// The symptom of a run ended by a status with `message`, as `verdict`.
FailureSymptom status_symptom(Verdict verdict, std::string_view message);

/// The part of a backend's message that names its failure rather than one
/// occurrence of it: its first line, each number masked as `#` (hex ones as
/// `0x#`), at most 160 characters.
std::string stable_message(std::string_view message);

/// "fail: buffer `out` differs", "bad output: buffer `out` has another
/// length", "fail: buffers `a`, `b` differ", "compile error: MESSAGE".
std::string describe(const FailureSymptom& s);

}  // namespace vyre::certify
