// The dataflow engine (seed 000): level-synchronous multi-source BFS run
// through the Backend interface. Programs are compiled once per engine; a run
// dispatches the seed program, then the level program once per level until
// no node was added (the `changed` flag stays 0) or max_depth is reached.
// Every input check runs before the first dispatch.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "archetypes/dataflow/dataflow_input.h"
#include "archetypes/dataflow/transfer_function.h"
#include "backends/backend.h"
#include "backends/level_loop.h"
#include "reference/graph/finding.h"
#include "spec/support/result.h"

namespace vyre::dataflow {

/// What a run found.
struct DataflowResult {
  /// (source, sink, depth, source_idx) rows in canonical order; the taint
  /// contract's (source, sink, depth) are the first three words.
  std::vector<graph::Finding> findings;
  /// Level dispatches made (the seed dispatch not counted).
  uint32_t levels = 0;
};

/// Why the engine could not run: the backend's own Status where the backend
/// answered (compile or dispatch status; BadOutput for malformed outputs),
/// NotSupported for an input past the backend's probed limits, Error for an
/// input the engine rejects.
struct EngineError {
  Status status = Status::Error;
  std::string message;
};

/// A value of the engine, or why it could not be had.
template <typename T>
using EngineResult = Result<T, EngineError>;

/// An engine bound to one backend and one transfer function.
class DataflowEngine {
 public:
  /// Compiles the seed and level programs on `backend`, which must outlive
  /// the engine. Errors: the backend rejects a program (e.g. a transfer
  /// function whose IR does not validate).
  static EngineResult<DataflowEngine> create(Backend& backend, TransferFunction transfer);

  /// Checks the input (validate_input) and every buffer and grid against the
  /// backend's probed limits (a limit of 0 means "not reported"), dispatching
  /// nothing.
  EngineResult<Ok> check(const DataflowInput& input) const;

  /// Runs the engine. Errors: check() failures, a dispatch status other than
  /// Ok, malformed outputs from the backend.
  EngineResult<DataflowResult> run(const DataflowInput& input) const;

  /// The transfer function in use.
  const TransferFunction& transfer() const { return transfer_; }

 private:
  DataflowEngine() = default;

  /// Checks the workgroup size, grid and invocation count of every dispatch a
  /// run of `input` makes against the probed limits.
  EngineResult<Ok> check_dispatches(const DataflowInput& input) const;

  Backend* backend_ = nullptr;
  Capabilities limits_;
  TransferFunction transfer_;
  std::array<uint32_t, 3> seed_workgroup_ = {0, 0, 0};
  std::array<uint32_t, 3> level_workgroup_ = {0, 0, 0};
  std::shared_ptr<const CompiledProgram> seed_;
  std::shared_ptr<const CompiledProgram> level_;
};

/// The level loop (backends/level_loop.h) a run of at most `levels` levels
/// hands the backend: the level program's buffers, its `changed` word and
/// its level word.
LevelLoop engine_level_loop(uint32_t levels);

}  // namespace vyre::dataflow
