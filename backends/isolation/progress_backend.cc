#include "backends/isolation/progress_backend.h"

#include "backends/level_loop.h"

namespace vyre::isolation {

CompileOutcome ProgressBackend::compile(const Program& program) {
  begin();
  return inner_.compile(program);
}

CompileOutcome ProgressBackend::compile_encoded(const Program& program, Encoding encoding) {
  begin();
  return inner_.compile_encoded(program, encoding);
}

DispatchOutcome ProgressBackend::dispatch(const CompiledProgram& program, const BufferSet& inputs,
                                          const Grid& grid) {
  begin();
  return inner_.dispatch(program, inputs, grid);
}

BatchOutcome ProgressBackend::dispatch_runs(const CompiledProgram& program, const BufferSet& inputs,
                                            const Grid& grid, const BatchOptions& options) {
  begin();
  return inner_.dispatch_runs(program, inputs, grid, options);
}

LevelLoopOutcome ProgressBackend::dispatch_levels(const CompiledProgram& program,
                                                  const BufferSet& state, const Grid& grid,
                                                  const LevelLoop& loop) {
  begin();
  LevelLoop watched = loop;
  watched.on_submission = [this, &loop] {
    begin();
    if (loop.on_submission) loop.on_submission();
  };
  return inner_.dispatch_levels(program, state, grid, watched);
}

void ProgressBackend::prepare(const CompiledProgram& program) {
  begin();
  inner_.prepare(program);
}

}  // namespace vyre::isolation
