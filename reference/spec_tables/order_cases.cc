// Evaluation order where every operand has a side effect (pinned spec
// section 4, SEMANTICS S4): Select evaluates its condition, then its true arm,
// then its false arm; Loop evaluates `from`, then `to`. Each operand is an
// atomic add on one counter, so any other order hands back other old values.
#include "reference/spec_tables/case_builder.h"
#include "reference/spec_tables/table_parts.h"

namespace vyre::reference {
namespace {

using namespace vyre::build;
using spec_tables::make_case;

/// `counter += amount`, giving the old value.
ExprPtr bump(uint32_t amount) {
  return atomic(AtomicOp::Add, "c", u32(0), u32(amount));
}

TestCase select_condition_then_true_then_false() {
  Program p{{storage("c", 0, BufferAccess::ReadWrite), storage("out", 1, BufferAccess::ReadWrite)},
            {1, 1, 1},
            {store("out", u32(0), select(bump(1), bump(10), bump(100)))}};
  // cond = 0 (false), then the true arm sees 1, then the false arm sees 11,
  // which is picked. Condition last would pick the true arm's 0; arms
  // reversed, the false arm's 1.
  return make_case("exec/select_condition_then_arms", std::move(p), Grid{},
                   {{"c", zero_words(1)}, {"out", zero_words(1)}},
                   {{"c", to_bytes({111})}, {"out", to_bytes({11})}});
}

TestCase loop_from_then_to() {
  Program p{{storage("c", 0, BufferAccess::ReadWrite), storage("out", 1, BufferAccess::ReadWrite)},
            {1, 1, 1},
            {let("k", u32(0)), loop("i", bump(1), bump(3), {assign("k", add(var("k"), u32(1)))}),
             store("out", u32(0), var("k"))}};
  // from = 0, then to = 1: one iteration. `to` first would give to = 0 and
  // from = 3: none.
  return make_case("exec/loop_from_then_to", std::move(p), Grid{},
                   {{"c", zero_words(1)}, {"out", zero_words(1)}},
                   {{"c", to_bytes({4})}, {"out", to_bytes({1})}});
}

}  // namespace

std::vector<TestCase> order_cases() {
  return {select_condition_then_true_then_false(), loop_from_then_to()};
}

}  // namespace vyre::reference
