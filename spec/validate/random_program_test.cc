// Random, mostly invalid programs (unknown names, planned types, null
// operands, bad axes, odd calls): the validator always answers, answers the
// same twice, and every message is a complete seed-form sentence.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <random>

#include "spec/validate/test_support.h"

namespace vyre::testing {
namespace {

using namespace vyre::build;

/// Builds a random program from one seed; sizes stay small so that each
/// program validates in microseconds.
class RandomProgram {
 public:
  explicit RandomProgram(uint32_t seed) : rng_(seed) {}

  Program program() {
    Program p;
    const int buffers = pick(0, 4);
    for (int i = 0; i < buffers; ++i) {
      p.buffers.push_back(BufferDecl{name(kBuffers),
                                     static_cast<uint32_t>(pick(0, 3)),
                                     all_accesses()[pick(0, 3)],
                                     all_data_types()[pick(0, all_data_types().size() - 1)],
                                     static_cast<uint32_t>(pick(0, 3) * 8000),
                                     {}});
    }
    for (uint32_t& axis : p.workgroup_size) axis = static_cast<uint32_t>(pick(0, 2));
    p.entry = body(3);
    return p;
  }

 private:
  static constexpr std::array<std::string_view, 4> kBuffers = {"a", "b", "c", "nope"};
  static constexpr std::array<std::string_view, 3> kVars = {"x", "y", "i"};
  static constexpr std::array<std::string_view, 5> kOps = {"primitive.add", "primitive.popcount",
                                                           "primitive.clamp", "graph.bfs", "nope"};

  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  template <size_t N>
  std::string name(const std::array<std::string_view, N>& names) {
    return std::string(names[pick(0, N - 1)]);
  }

  ExprPtr expression(int depth) {
    if (pick(0, 20) == 0) return nullptr;
    const int kind = depth == 0 ? pick(0, 8) : pick(0, 14);
    switch (kind) {
      case 0:
        return u32(static_cast<uint32_t>(pick(0, 3)));
      case 1:
        return i32(pick(-2, 2));
      case 2:
        return boolean(pick(0, 1) == 1);
      case 3:
        return var(name(kVars));
      case 4:
        return buflen(name(kBuffers));
      case 5:
        return invocation_id(static_cast<uint32_t>(pick(0, 4)));
      case 6:
        return workgroup_id(static_cast<uint32_t>(pick(0, 4)));
      case 7:
        return local_id(static_cast<uint32_t>(pick(0, 4)));
      case 8:
        return u32(1);
      case 9:
        return load(name(kBuffers), expression(depth - 1));
      case 10:
        return binary(all_bin_ops()[pick(0, 17)], expression(depth - 1), expression(depth - 1));
      case 11:
        return unary(all_un_ops()[pick(0, 6)], expression(depth - 1));
      case 12: {
        std::vector<ExprPtr> args(pick(0, 3));
        for (ExprPtr& a : args) a = expression(depth - 1);
        return call(name(kOps), std::move(args));
      }
      case 13:
        return select(expression(depth - 1), expression(depth - 1), expression(depth - 1));
      default: {
        if (pick(0, 1) == 0) return cast(all_data_types()[pick(0, 11)], expression(depth - 1));
        const AtomicOp op = all_atomic_ops()[pick(0, 7)];
        return make(expr::Atomic{op, name(kBuffers), expression(depth - 1),
                                 pick(0, 1) == 1 ? expression(depth - 1) : nullptr,
                                 expression(depth - 1)});
      }
    }
  }

  Body body(int depth) {
    Body out(pick(0, 4));
    for (Node& n : out) n = statement(depth);
    return out;
  }

  Node statement(int depth) {
    const int kind = depth == 0 ? pick(0, 4) : pick(0, 7);
    switch (kind) {
      case 0:
        return let(name(kVars), expression(3));
      case 1:
        return assign(name(kVars), expression(3));
      case 2:
        return store(name(kBuffers), expression(2), expression(3));
      case 3:
        return barrier();
      case 4:
        return ret();
      case 5:
        return if_(expression(2), body(depth - 1), body(depth - 1));
      case 6:
        return loop(name(kVars), expression(1), expression(1), body(depth - 1));
      default:
        return block(body(depth - 1));
    }
  }

  std::mt19937 rng_;
};

RC_GTEST_PROP(RandomPrograms, ValidationAlwaysAnswersTheSameInSeedForm, ()) {
  const Program p = RandomProgram(*rc::gen::arbitrary<uint32_t>()).program();
  const std::vector<Diagnostic> first = validate(p);
  const std::vector<Diagnostic> second = validate(p);
  RC_ASSERT(first.size() == second.size());
  for (size_t i = 0; i < first.size(); ++i) {
    RC_ASSERT(first[i].rule == second[i].rule);
    RC_ASSERT(first[i].message == second[i].message);
    const std::string& m = first[i].message;
    RC_ASSERT(m.starts_with("vyre IR validation: "));
    RC_ASSERT(m.find(". Fix: ") != std::string::npos);
    RC_ASSERT(m.ends_with("."));
    // Every `<key>` of the template was filled in.
    RC_ASSERT(m.find('<') == std::string::npos);
  }
}

}  // namespace
}  // namespace vyre::testing
