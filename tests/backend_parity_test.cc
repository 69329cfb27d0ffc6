// Parity with the reference interpreter, for every built-in device backend
// (Vulkan on lavapipe, OpenCL on PoCL in CI): every spec-table and
// execution-model case (reference/spec_tables) runs with its read_write
// outputs zeroed as given and poisoned, and must give exactly the
// interpreter's bytes. The resizable operator tables and one Call case per
// layer-1 primitive run at workgroup sizes 1 and 64; the execution-model cases
// at their own fixed shape. Poisoned runs are counted apart, so losing them fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

#include "backends/reference_backend.h"
#include "backends/registry/registry.h"
#include "reference/interpreter.h"
#include "reference/spec_tables/primitive_call_cases.h"
#include "reference/spec_tables/spec_tables.h"
#include "spec/ir/host_words.h"

namespace vyre {
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

/// How many runs of each variant were compared with the reference.
struct Compared {
  int as_given = 0;
  int poisoned = 0;
  Compared& operator+=(const Compared& o) {
    as_given += o.as_given;
    poisoned += o.poisoned;
    return *this;
  }
};

/// Buffers as hex words, for failure messages.
std::string describe(const BufferSet& buffers) {
  std::string text;
  for (const auto& [name, bytes] : buffers) {
    text += "\n  " + name + ":";
    for (size_t w = 0; w < (bytes.size() + 3) / 4; ++w) {
      char word[16];
      std::snprintf(word, sizeof word, " %08x", word_at(bytes, w));
      text += word;
    }
  }
  return text;
}

/// The backend under test: one per name for the whole test binary (drivers
/// tear themselves down at exit, so it is never destroyed).
Backend& backend_named(const std::string& name) {
  static std::map<std::string, Backend*> made;
  Backend*& b = made[name];
  if (b == nullptr) {
    auto created = make_backend(name, BackendOptions{});
    if (!created) {
      ADD_FAILURE() << created.error().message;
      return *make_reference_backend(BackendOptions{}).release();
    }
    b = created->release();
    const Capabilities caps = b->probe();
    EXPECT_TRUE(caps.unavailable.empty())
        << name << " has no usable device, so it cannot be tested: " << caps.unavailable
        << "\n(CI has lavapipe and PoCL: scripts/install-deps.sh installs both)";
  }
  return *b;
}

/// Runs `c` as given and poisoned on the reference and on `backend`; counts
/// the runs that were compared.
Compared expect_parity(Backend& backend, const TestCase& c) {
  CompileOutcome compiled = backend.compile(c.program);
  EXPECT_EQ(compiled.status, Status::Ok) << c.name << ": " << compiled.message;
  if (compiled.status != Status::Ok) return {};
  std::vector<std::pair<std::string, TestCase>> variants = {{"as given", c}};
  if (std::optional<TestCase> p = poisoned(c)) variants.emplace_back("poisoned", std::move(*p));
  Compared compared;
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
        << where << "\nreference" << describe(expected->outputs) << "\n"
        << backend.name() << describe(run.outputs);
    ++(label == "poisoned" ? compared.poisoned : compared.as_given);
  }
  return compared;
}

/// Runs every case at workgroup sizes 1 and 64 and checks that each run was
/// compared as given and, where `c` has a pure output, poisoned too.
void expect_parity_at_sizes_1_and_64(Backend& backend, const std::vector<TestCase>& cases) {
  ASSERT_FALSE(cases.empty());
  Compared compared;
  int with_pure_output = 0;
  for (const TestCase& c : cases) {
    with_pure_output += poisoned(c) ? 1 : 0;
    for (uint32_t size : {1u, 64u}) compared += expect_parity(backend, resized(c, size));
  }
  EXPECT_EQ(compared.as_given, static_cast<int>(cases.size() * 2));
  EXPECT_EQ(compared.poisoned, with_pure_output * 2);
}

/// Each built-in device backend, by registry name.
class BackendParity : public ::testing::TestWithParam<std::string> {
 protected:
  Backend& backend() { return backend_named(GetParam()); }
};

TEST_P(BackendParity, SpecTableCasesAtWorkgroupSizes1And64) {
  const std::vector<TestCase> cases = reference::spec_table_cases();
  expect_parity_at_sizes_1_and_64(backend(), cases);
  // Most cases write a pure output; losing the poisoned variant would go unseen.
  int with_pure_output = 0;
  for (const TestCase& c : cases) with_pure_output += poisoned(c) ? 1 : 0;
  EXPECT_GE(with_pure_output * 2, static_cast<int>(cases.size()));
}

TEST_P(BackendParity, PrimitiveCallCasesAtWorkgroupSizes1And64) {
  const std::vector<TestCase> cases = reference::primitive_call_cases();
  // spec/ir/op_registry.cc: 18 binary and 7 unary operators, 5 compositions.
  EXPECT_EQ(cases.size(), 30u);
  // Every case writes only its pure output, so every run is also poisoned.
  for (const TestCase& c : cases) EXPECT_TRUE(poisoned(c).has_value()) << c.name;
  expect_parity_at_sizes_1_and_64(backend(), cases);
}

TEST_P(BackendParity, ExecutionModelCases) {
  const std::vector<TestCase> cases = reference::execution_model_cases();
  ASSERT_FALSE(cases.empty());
  Compared compared;
  int with_pure_output = 0;
  for (const TestCase& c : cases) {
    with_pure_output += poisoned(c) ? 1 : 0;
    compared += expect_parity(backend(), c);
  }
  EXPECT_EQ(compared.as_given, static_cast<int>(cases.size()));
  EXPECT_EQ(compared.poisoned, with_pure_output);
  EXPECT_GT(with_pure_output, 0);
}

INSTANTIATE_TEST_SUITE_P(Devices, BackendParity, ::testing::Values("vulkan", "opencl"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace vyre
