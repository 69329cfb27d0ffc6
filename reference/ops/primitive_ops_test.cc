// Layer-1 primitives: the CPU reference table covers the registry, agrees with
// the independent implementation, agrees with the interpreter running each
// op's IR composition (Expr::Call inlining), and satisfies every Law the
// registry declares.
//
// Laws are checked exhaustively on u8 inputs (all 16,777,216 triples for
// associativity, all 65,536 pairs for the others, which use at most two
// arguments) and on 1,000,000 seeded u32 witnesses each.
#include "reference/ops/primitive_ops.h"

#include <gtest/gtest.h>

#include "reference/interpreter.h"
#include "reference/ops/independent_ops.h"
#include "reference/ops/witnesses.h"
#include "spec/ir/builder.h"
#include "spec/ir/host_words.h"
#include "spec/ir/op_registry.h"

namespace vyre::reference {
namespace {

constexpr int kLawWitnesses = 1'000'000;

std::vector<const OpSpec*> primitives() {
  std::vector<const OpSpec*> out;
  for (const OpSpec& op : OpRegistry::standard().ops()) {
    if (op.inlinable) out.push_back(&op);
  }
  return out;
}

TEST(PrimitiveOps, EveryInlinableOpHasACpuReferenceAndViceVersa) {
  for (const OpSpec* op : primitives()) {
    const PrimitiveRef* ref = find_primitive_ref(op->id);
    ASSERT_NE(ref, nullptr) << op->id;
    EXPECT_EQ(ref->arity, op->arity) << op->id;
  }
  for (const PrimitiveRef& ref : primitive_refs()) {
    const OpSpec* op = OpRegistry::standard().find(ref.id);
    ASSERT_NE(op, nullptr) << ref.id;
    EXPECT_TRUE(op->inlinable) << ref.id;
  }
  EXPECT_EQ(primitive_refs().size(), primitives().size());
}

/// Argument triples: every u8 pair (c cycling), every edge pair, seeded ones.
std::vector<std::array<uint32_t, 3>> argument_triples() {
  std::vector<std::array<uint32_t, 3>> out;
  for (uint32_t a = 0; a < 256; ++a) {
    for (uint32_t b = 0; b < 256; ++b) out.push_back({a, b, (a * 7 + b) & 0xFF});
  }
  for (uint32_t a : kEdgeValues) {
    for (uint32_t b : kEdgeValues) {
      for (uint32_t c : {0u, 0x80000000u, 0xFFFFFFFFu}) out.push_back({a, b, c});
    }
  }
  WitnessStream w(0x9121);
  for (int i = 0; i < 20'000; ++i) out.push_back({w.next(), w.next(), w.next()});
  return out;
}

TEST(PrimitiveOps, CpuReferenceMatchesTheIndependentImplementation) {
  const auto triples = argument_triples();
  for (const PrimitiveRef& ref : primitive_refs()) {
    int failures = 0;
    for (const auto& [a, b, c] : triples) {
      const std::optional<uint32_t> expected = independent::primitive(ref.id, a, b, c);
      ASSERT_TRUE(expected.has_value()) << ref.id;
      if (ref.fn(a, b, c) != *expected && ++failures <= 3) {
        ADD_FAILURE() << ref.id << "(" << a << ", " << b << ", " << c << ") = " << ref.fn(a, b, c)
                      << ", independent: " << *expected;
      }
    }
  }
}

TEST(PrimitiveOps, InterpreterRunningTheCompositionMatchesTheCpuReference) {
  using namespace vyre::build;
  const auto triples = argument_triples();
  std::vector<uint32_t> args;
  for (const auto& t : triples) args.insert(args.end(), t.begin(), t.end());
  const uint32_t n = static_cast<uint32_t>(triples.size());
  for (const PrimitiveRef& ref : primitive_refs()) {
    std::vector<ExprPtr> call_args;
    for (uint32_t k = 0; k < ref.arity; ++k) {
      call_args.push_back(load("args", add(mul(invocation_id(0), u32(3)), u32(k))));
    }
    const Program p{
        {storage("args", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
        {64, 1, 1},
        {if_(lt(invocation_id(0), buflen("out")),
             {store("out", invocation_id(0), call(std::string(ref.id), call_args))})}};
    RunOptions options;
    options.checks = false;
    const Result<RunResult> r =
        run(p, {{"args", to_bytes(args)}, {"out", ByteBuffer(size_t{n} * 4, 0)}},
            Grid{{(n + 63) / 64, 1, 1}}, options);
    ASSERT_TRUE(r.ok()) << ref.id << ": " << r.error().message;
    const std::vector<uint32_t> out = to_words(r->outputs.at("out"));
    int failures = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const auto& [a, b, c] = triples[i];
      if (out[i] != ref.fn(a, b, c) && ++failures <= 3) {
        ADD_FAILURE() << ref.id << "(" << a << ", " << b << ", " << c << "): interpreter " << out[i]
                      << ", CPU reference " << ref.fn(a, b, c);
      }
    }
  }
}

/// Checks one law of `ref`; returns a description of the first counterexample.
std::optional<std::string> law_counterexample(const PrimitiveRef& ref, const Law& law, uint32_t a,
                                              uint32_t b, uint32_t c) {
  const auto f = [&](uint32_t x, uint32_t y) { return ref.fn(x, y, 0); };
  const auto at = [&](uint32_t x) { return std::to_string(x); };
  const uint32_t k = law.constant;
  switch (law.kind) {
    case Law::Kind::Commutative:
      if (f(a, b) != f(b, a)) return "a=" + at(a) + " b=" + at(b);
      return std::nullopt;
    case Law::Kind::Associative:
      if (f(f(a, b), c) != f(a, f(b, c))) return "a=" + at(a) + " b=" + at(b) + " c=" + at(c);
      return std::nullopt;
    case Law::Kind::Identity:
      if (f(a, k) != a || f(k, a) != a) return "a=" + at(a);
      return std::nullopt;
    case Law::Kind::RightIdentity:
      if (f(a, k) != a) return "a=" + at(a);
      return std::nullopt;
    case Law::Kind::Absorbing:
      if (f(a, k) != k || f(k, a) != k) return "a=" + at(a);
      return std::nullopt;
    case Law::Kind::Idempotent:
      if (f(a, a) != a) return "a=" + at(a);
      return std::nullopt;
    case Law::Kind::SelfInverse:
      if (f(a, a) != k) return "a=" + at(a);
      return std::nullopt;
    case Law::Kind::Involution:
      if (ref.fn(ref.fn(a, 0, 0), 0, 0) != a) return "a=" + at(a);
      return std::nullopt;
  }
  return "unknown law";
}

TEST(PrimitiveOps, EveryDeclaredLawHoldsOnU8InputsAndSeededWitnesses) {
  size_t laws_checked = 0;
  for (const OpSpec* op : primitives()) {
    const PrimitiveRef* ref = find_primitive_ref(op->id);
    ASSERT_NE(ref, nullptr);
    for (const Law& law : op->laws) {
      ++laws_checked;
      std::optional<std::string> bad;
      if (law.kind == Law::Kind::Associative) {
        for (uint32_t a = 0; a < 256 && !bad; ++a) {
          for (uint32_t b = 0; b < 256 && !bad; ++b) {
            for (uint32_t c = 0; c < 256 && !bad; ++c) bad = law_counterexample(*ref, law, a, b, c);
          }
        }
      } else {
        for (uint32_t a = 0; a < 256 && !bad; ++a) {
          for (uint32_t b = 0; b < 256 && !bad; ++b) bad = law_counterexample(*ref, law, a, b, 0);
        }
      }
      WitnessStream w(0x1A55 + laws_checked);
      for (int i = 0; i < kLawWitnesses && !bad; ++i) {
        bad = law_counterexample(*ref, law, w.next(), w.next(), w.next());
      }
      EXPECT_FALSE(bad.has_value()) << op->id << " is not " << name_of(law.kind) << " (constant "
                                    << law.constant << "): " << bad.value_or("");
    }
  }
  EXPECT_GT(laws_checked, 40u);
}

}  // namespace
}  // namespace vyre::reference
