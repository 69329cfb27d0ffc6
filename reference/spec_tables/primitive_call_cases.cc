#include "reference/spec_tables/primitive_call_cases.h"

#include <array>

#include "reference/spec_tables/case_builder.h"
#include "spec/ir/op_registry.h"

namespace vyre::reference {
namespace {

using namespace build;

// The arithmetic input archetypes of pinned spec section 8: identity pair,
// overflow pair, powers of two +-1, shift amounts, bit patterns, zero divisor.
constexpr std::array<uint32_t, 20> kArchetypeValues = {
    0u,          1u,          2u,          31u,         32u,         33u,         0xFFFFu,
    0x10000u,    0x10001u,    0x7FFFFFFFu, 0x80000000u, 0x80000001u, 0xFFFFFFFEu, 0xFFFFFFFFu,
    0x55555555u, 0xAAAAAAAAu, 0xF0F0F0F0u, 0xDEADBEEFu, 0xCAFEBABEu, 0x00000007u};

// Triples use a smaller subset so a 3-ary op stays at a few hundred rows.
constexpr std::array<uint32_t, 8> kTripleValues = {
    0u, 1u, 33u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, 0xDEADBEEFu, 5u};

/// Operand columns: every archetype combination for the op's arity.
std::array<std::vector<uint32_t>, 3> operand_columns(uint32_t arity) {
  std::array<std::vector<uint32_t>, 3> cols;
  if (arity == 1) {
    for (uint32_t a : kArchetypeValues) cols[0].push_back(a);
  } else if (arity == 2) {
    for (uint32_t a : kArchetypeValues) {
      for (uint32_t b : kArchetypeValues) {
        cols[0].push_back(a);
        cols[1].push_back(b);
      }
    }
  } else {
    for (uint32_t a : kTripleValues) {
      for (uint32_t b : kTripleValues) {
        for (uint32_t c : kTripleValues) {
          cols[0].push_back(a);
          cols[1].push_back(b);
          cols[2].push_back(c);
        }
      }
    }
  }
  return cols;
}

TestCase primitive_call_case(const OpSpec& op) {
  static constexpr std::array<const char*, 3> kInputs = {"a", "b", "c"};
  auto cols = operand_columns(op.arity);
  const auto rows = static_cast<uint32_t>(cols[0].size());
  TestCase tc;
  tc.name = op.id;
  std::vector<ExprPtr> args;
  for (uint32_t i = 0; i < op.arity; ++i) {
    tc.program.buffers.push_back(storage(kInputs[i], i, BufferAccess::ReadOnly));
    tc.inputs[kInputs[i]] = to_bytes(cols[i]);
    args.push_back(load(kInputs[i], var("i")));
  }
  tc.program.buffers.push_back(storage("out", 3, BufferAccess::ReadWrite));
  tc.inputs["out"] = zero_words(rows);
  tc.program.workgroup_size = {spec_tables::kTableWorkgroupSize, 1, 1};
  tc.program.entry = {
      let("i", invocation_id(0)),
      if_(lt(var("i"), buflen("out")), {store("out", var("i"), call(op.id, args))}),
  };
  tc.grid = spec_tables::grid_for(rows);
  return tc;
}

}  // namespace

std::vector<TestCase> primitive_call_cases() {
  std::vector<TestCase> out;
  for (const OpSpec& op : OpRegistry::standard().ops()) {
    if (op.inlinable) out.push_back(primitive_call_case(op));
  }
  return out;
}

}  // namespace vyre::reference
