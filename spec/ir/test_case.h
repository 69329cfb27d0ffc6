// A test case: a program, the grid it runs on, its inputs, and what to expect.
// The unit that case files, corpora, repros and the certification run share.
#pragma once

#include <optional>
#include <string>

#include "spec/ir/host_abi.h"
#include "spec/ir/program.h"

namespace vyre {

/// One runnable case.
struct TestCase {
  std::string name;
  Program program;
  Grid grid;
  /// Every non-workgroup buffer's initial bytes.
  BufferSet inputs;
  /// Expected ReadWrite buffers; nullopt means "the reference interpreter's output".
  std::optional<BufferSet> expected;
};

}  // namespace vyre
