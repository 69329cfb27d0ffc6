// The dataflow form of `vyre-certify run` (--rules with --graph), kept apart
// from the CASE.vyre form in cmd_run.cc.
#pragma once

#include <span>
#include <string>

namespace vyre::cli {

/// `vyre-certify run --rules RULES.toml --graph GRAPH.toml [backend options]`;
/// returns the exit code (0 match, 1 differ or run failed, 2 bad usage/input).
int run_dataflow(std::span<const std::string> args);

}  // namespace vyre::cli
