// lower_program with a wall-clock budget, so that compile() honours
// --timeout-ms even for a program glslang would take minutes over.
#pragma once

#include <chrono>
#include <memory>
#include <optional>

#include "backends/vulkan/lowering.h"

namespace vyre::vulkan {

/// lower_program(program, loop_iteration_budget, cache) on a worker thread;
/// nullopt when it has not finished within `limit`. The worker is then
/// abandoned, not stopped: it runs to its end on its own copy of the program
/// (and its share of `cache`), and its result is dropped (see
/// bounded_lowering.cc for why a thread and what that costs).
std::optional<Result<LoweredProgram>> lower_within(const Program& program,
                                                   uint32_t loop_iteration_budget,
                                                   std::chrono::milliseconds limit,
                                                   std::shared_ptr<SpirvCache> cache = nullptr);

/// Workers abandoned by lower_within that are still running.
uint32_t abandoned_lowerings_running();

}  // namespace vyre::vulkan
