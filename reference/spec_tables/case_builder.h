// Helpers the spec-table sources share to build cases compactly: word lists
// to host bytes, and the guarded 1-D program shape of the operator tables.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/ir/builder.h"
#include "spec/ir/host_words.h"
#include "spec/ir/test_case.h"

namespace vyre::reference::spec_tables {

/// Workgroup size of the resizable operator-table programs.
inline constexpr uint32_t kTableWorkgroupSize = 64;

/// A 1-D grid covering `n` invocations in workgroups of kTableWorkgroupSize.
inline Grid grid_for(uint32_t n) {
  return Grid{{(n + kTableWorkgroupSize - 1) / kTableWorkgroupSize, 1, 1}};
}

/// `if invocation_id(0) < buflen(guard) { body }`: the resizable guard.
inline Node guarded(const std::string& guard, Body body) {
  using namespace vyre::build;
  return if_(lt(invocation_id(0), buflen(guard)), std::move(body));
}

/// A case with hand-written expected outputs.
inline TestCase make_case(std::string name, Program program, Grid grid, BufferSet inputs,
                          BufferSet expected) {
  return TestCase{std::move(name), std::move(program), grid, std::move(inputs),
                  std::move(expected)};
}

}  // namespace vyre::reference::spec_tables
