// Internal to the coverage record (coverage.cc): the whole-program entries
// of the universe (size classes, feature pairs, communication, path and
// optimiser-rule shapes) and the walk that finds them. Not a public header.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "spec/ir/program.h"

namespace vyre::coverage_detail {

/// The whole-program entries of the universe, each recorded with type U32.
std::vector<std::string> program_shape_universe();

/// Calls `hit` with each whole-program entry `program` reaches (all but the
/// grid's invocation class, which the program alone does not know).
void record_program_shapes(const Program& program, const std::function<void(std::string)>& hit);

/// The universe entry of a grid of `invocations`.
std::string invocation_class(uint64_t invocations);

}  // namespace vyre::coverage_detail
