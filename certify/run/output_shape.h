// Whether a backend's outputs have the shape a dispatch gives them: exactly
// the program's read_write buffers, each as long as the bytes it started
// from. A short read-back or a missing buffer is malformed output
// (Verdict::BadOutput), not a wrong answer.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "spec/ir/host_abi.h"
#include "spec/ir/program.h"

namespace vyre::certify {

/// Why `outputs` are not the shape `program`'s dispatch on `inputs` gives
/// them (naming the buffer and both sizes); nullopt when they are. The
/// buffers in `may_be_absent` (a differing run's BatchOptions::scratch)
/// may be left out; when present they are checked like the rest.
std::optional<std::string> output_shape_problem(const Program& program, const BufferSet& inputs,
                                                const BufferSet& outputs,
                                                const std::vector<std::string>& may_be_absent = {});

}  // namespace vyre::certify
