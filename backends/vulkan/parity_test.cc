// Parity with the reference interpreter: every spec-table and execution-model
// case (reference/spec_tables) runs on the Vulkan backend, with its
// read_write outputs zeroed as given and poisoned, and must give exactly the
// interpreter's bytes. The resizable operator tables also run at workgroup
// sizes 1 and 64; the execution-model cases at their own fixed shape.
#include <gtest/gtest.h>

#include <algorithm>

#include "backends/vulkan/vulkan_test_support.h"
#include "reference/interpreter.h"
#include "reference/spec_tables/spec_tables.h"

namespace vyre::vulkan {
namespace {

/// Byte the poisoned variants fill pure outputs with.
constexpr uint8_t kPoison = 0xAB;

/// `c` reshaped to 1-D workgroups of `size`, covering the same invocations.
TestCase resized(const TestCase& c, uint32_t size) {
  TestCase out = c;
  const uint64_t invocations = uint64_t{c.grid.workgroups[0]} * c.program.workgroup_size[0];
  out.program.workgroup_size = {size, 1, 1};
  out.grid.workgroups[0] = static_cast<uint32_t>((invocations + size - 1) / size);
  return out;
}

/// `c` with every read_write buffer given as all zeros (a pure output) filled
/// with kPoison; nullopt when it has none.
std::optional<TestCase> poisoned(const TestCase& c) {
  TestCase out = c;
  bool any = false;
  for (const BufferDecl& b : c.program.buffers) {
    if (b.access != BufferAccess::ReadWrite) continue;
    ByteBuffer& bytes = out.inputs[b.name];
    if (bytes.empty() ||
        std::any_of(bytes.begin(), bytes.end(), [](uint8_t v) { return v != 0; })) {
      continue;
    }
    std::fill(bytes.begin(), bytes.end(), kPoison);
    any = true;
  }
  if (!any) return std::nullopt;
  return out;
}

/// Runs `c` as given and poisoned on the reference and on Vulkan; returns
/// how many runs were compared.
int expect_parity(const TestCase& c) {
  VulkanBackend& backend = testing::shared_backend();
  CompileOutcome compiled = backend.compile(c.program);
  EXPECT_EQ(compiled.status, Status::Ok) << c.name << ": " << compiled.message;
  if (compiled.status != Status::Ok) return 0;
  std::vector<std::pair<std::string, TestCase>> variants = {{"as given", c}};
  if (std::optional<TestCase> p = poisoned(c)) variants.emplace_back("poisoned", std::move(*p));
  int compared = 0;
  for (const auto& [label, variant] : variants) {
    const std::string where = c.name + " (workgroup size " +
                              std::to_string(c.program.workgroup_size[0]) + ", outputs " + label +
                              ")";
    Result<reference::RunResult> expected =
        reference::run(variant.program, variant.inputs, variant.grid);
    if (!expected.ok() || !expected->conforming()) {
      ADD_FAILURE() << where << ": the reference interpreter does not run it cleanly"
                    << (expected.ok() ? "" : ": " + expected.error().message);
      continue;
    }
    DispatchOutcome run = backend.dispatch(*compiled.program, variant.inputs, variant.grid);
    EXPECT_EQ(run.status, Status::Ok)
        << where << ": " << name_of(run.status) << ": " << run.message;
    EXPECT_TRUE(run.outputs == expected->outputs)
        << where << "\nreference" << testing::describe(expected->outputs) << "\nvulkan"
        << testing::describe(run.outputs);
    ++compared;
  }
  return compared;
}

TEST(VulkanParity, SpecTableCasesAtWorkgroupSizes1And64) {
  const std::vector<TestCase> cases = reference::spec_table_cases();
  ASSERT_FALSE(cases.empty());
  int compared = 0;
  for (const TestCase& c : cases) {
    for (uint32_t size : {1u, 64u}) compared += expect_parity(resized(c, size));
  }
  // Both workgroup sizes and both output fills of every case.
  EXPECT_GE(compared, static_cast<int>(cases.size() * 2));
}

TEST(VulkanParity, ExecutionModelCases) {
  const std::vector<TestCase> cases = reference::execution_model_cases();
  ASSERT_FALSE(cases.empty());
  int compared = 0;
  for (const TestCase& c : cases) compared += expect_parity(c);
  EXPECT_GE(compared, static_cast<int>(cases.size()));
}

}  // namespace
}  // namespace vyre::vulkan
