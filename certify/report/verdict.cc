#include "certify/report/report.h"

namespace vyre::certify {

std::string_view name_of(Verdict v) {
  switch (v) {
    case Verdict::Pass:
      return "pass";
    case Verdict::Fail:
      return "fail";
    case Verdict::NotSupported:
      return "not supported";
    case Verdict::CompileError:
      return "compile error";
    case Verdict::DeviceLost:
      return "device lost";
    case Verdict::Timeout:
      return "timeout";
    case Verdict::BadOutput:
      return "bad output";
    case Verdict::Error:
      return "error";
    case Verdict::InvalidCase:
      return "invalid case";
  }
  return "?";
}

Verdict verdict_of(Status s) {
  switch (s) {
    case Status::Ok:
      return Verdict::Pass;
    case Status::NotSupported:
      return Verdict::NotSupported;
    case Status::CompileError:
      return Verdict::CompileError;
    case Status::DeviceLost:
      return Verdict::DeviceLost;
    case Status::Timeout:
      return Verdict::Timeout;
    case Status::BadOutput:
      return Verdict::BadOutput;
    case Status::Error:
      return Verdict::Error;
  }
  return Verdict::Error;
}

}  // namespace vyre::certify
