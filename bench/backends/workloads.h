// The programs the backend benchmark runs. To benchmark another program, add
// a row to benchmark_workloads() in workloads.cc: a name, the program, its
// inputs and its grid.
#pragma once

#include <string>
#include <vector>

#include "spec/ir/host_abi.h"
#include "spec/ir/program.h"

namespace vyre::bench {

/// One program with everything a dispatch needs.
struct Workload {
  std::string name;
  Program program;
  BufferSet inputs;
  Grid grid;
};

/// Every workload, in the order they are reported.
std::vector<Workload> benchmark_workloads();

}  // namespace vyre::bench
