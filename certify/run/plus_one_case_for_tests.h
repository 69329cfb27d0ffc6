// Tests only: the smallest single-dispatch suite case, shared by the case
// runner's and the run's tests.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "certify/suite/suite_case.h"
#include "spec/ir/builder.h"
#include "spec/ir/host_words.h"

namespace vyre::certify {

/// `out[i] = in[i] + 1` for four invocations in one workgroup, named `id`;
/// no buffer to poison, so it has one variant and run k is dispatch k.
inline SuiteCase plus_one_case(std::string id = "L1/test/plus_one") {
  using namespace vyre::build;
  Program p{{storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
            {4, 1, 1},
            {store("out", invocation_id(0), add(load("in", invocation_id(0)), u32(1)))}};
  DispatchCase d;
  d.test_case = TestCase{"plus_one",
                         std::move(p),
                         Grid{{1, 1, 1}},
                         {{"in", to_bytes({1, 2, 3, 0xFFFFFFFF})}, {"out", to_bytes({0, 0, 0, 0})}},
                         std::nullopt};
  d.poisonable = std::vector<std::string>{};
  return SuiteCase{std::move(id), Level::L1, "hand-written", {}, std::move(d)};
}

}  // namespace vyre::certify
