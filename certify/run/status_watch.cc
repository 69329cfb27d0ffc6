#include "certify/run/status_watch.h"

namespace vyre::certify {

CompileOutcome StatusWatch::compile(const Program& program) {
  CompileOutcome out = inner_.compile(program);
  note(out.status, "compile: " + out.message);
  return out;
}

DispatchOutcome StatusWatch::dispatch(const CompiledProgram& program, const BufferSet& inputs,
                                      const Grid& grid) {
  DispatchOutcome out = inner_.dispatch(program, inputs, grid);
  note(out.status, "dispatch: " + out.message);
  return out;
}

void StatusWatch::note(Status status, const std::string& message) {
  if (status != Status::Ok && !first_failure_) first_failure_ = BackendFailure{status, message};
}

}  // namespace vyre::certify
