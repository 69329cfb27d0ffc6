// Atomics and the schedule (SEMANTICS S6): programs whose bytes depend on the
// order in which their atomics take effect, which the reference must flag as
// schedule-dependent, and programs whose atomics race on purpose yet give one
// result under every order, which it must not flag. Expected bytes are worked
// out by hand from the order-free reading in each comment.
#include "reference/spec_tables/case_builder.h"
#include "reference/spec_tables/table_parts.h"

namespace vyre::reference {
namespace {

using namespace vyre::build;
using spec_tables::make_case;

/// Buffers `c` (the contended counter) and `out`, both read-write.
Program counter_and_out(std::array<uint32_t, 3> wg, Body body) {
  return Program{
      {storage("c", 0, BufferAccess::ReadWrite), storage("out", 1, BufferAccess::ReadWrite)},
      wg,
      std::move(body)};
}

NonconformingCase dependent(std::string name, Program p, Grid grid, uint32_t out_words,
                            std::string reason) {
  return NonconformingCase{TestCase{"schedule/" + std::move(name),
                                    std::move(p),
                                    grid,
                                    {{"c", zero_words(1)}, {"out", zero_words(out_words)}},
                                    {}},
                           Nonconformance::ScheduleDependence, std::move(reason)};
}

}  // namespace

std::vector<NonconformingCase> schedule_dependent_cases() {
  std::vector<NonconformingCase> out;
  out.push_back(dependent(
      "kept_atomic_result",
      counter_and_out({2, 1, 1},
                      {store("out", local_id(0), atomic(AtomicOp::Add, "c", u32(0), u32(1)))}),
      Grid{}, 2, "each invocation keeps the counter's old value: who goes first gets 0"));
  out.push_back(dependent(
      "kept_result_across_workgroups",
      counter_and_out({1, 1, 1},
                      {store("out", workgroup_id(0), atomic(AtomicOp::Add, "c", u32(0), u32(1)))}),
      Grid{{3, 1, 1}}, 3, "workgroups run in no set order, so neither do their atomics"));
  out.push_back(dependent(
      "exchange_final_value",
      counter_and_out({4, 1, 1}, {let("old", atomic(AtomicOp::Exchange, "c", u32(0),
                                                    add(local_id(0), u32(1))))}),
      Grid{}, 1, "the counter ends holding the last exchanger's value, results discarded"));
  out.push_back(dependent(
      "compare_exchange_winner",
      counter_and_out(
          {4, 1, 1}, {let("old", compare_exchange("c", u32(0), u32(0), add(local_id(0), u32(1))))}),
      Grid{}, 1, "the first compare-exchange wins and its value stays"));
  out.push_back(dependent(
      "winner_writes_its_id",
      counter_and_out({4, 1, 1}, {if_(eq(atomic(AtomicOp::Add, "c", u32(0), u32(1)), u32(0)),
                                      {store("out", u32(0), local_id(0))})}),
      Grid{}, 1, "the invocation that wins the atomic stores its own id"));
  out.push_back(dependent(
      "atomic_result_as_address",
      counter_and_out({4, 1, 1},
                      {store("out", atomic(AtomicOp::Add, "c", u32(0), u32(1)), local_id(0))}),
      Grid{}, 4, "slots are handed out in atomic order: a permutation of the ids"));
  // Found by `vyre-certify fuzz` on an NVIDIA H200, where workgroups run at
  // once: a compare-exchange that is not retried loses an update when two
  // workgroups read the counter before either writes. The barrier used to
  // hide it: the reference ran a barrier's workgroups one after another.
  Body lost_update = {
      let("seen", atomic(AtomicOp::Or, "c", u32(0), u32(0))),
      let("won", compare_exchange("c", u32(0), var("seen"), add(var("seen"), u32(1))))};
  Body lost_update_then_barrier = lost_update;
  lost_update_then_barrier.push_back(barrier());
  out.push_back(dependent("lost_update_across_workgroups_with_barrier",
                          counter_and_out({1, 1, 1}, std::move(lost_update_then_barrier)),
                          Grid{{2, 1, 1}}, 1,
                          "two workgroups read 0, one compare-exchange fails: the counter ends 1 "
                          "or 2"));
  // The shape a later fuzz reduction drifted into (reports/driver-bugs/
  // UNTRIAGED.md): the same lost update between two invocations of one
  // workgroup, which lockstep probes never separate.
  out.push_back(dependent("lost_update_within_a_workgroup", counter_and_out({2, 1, 1}, lost_update),
                          Grid{}, 1,
                          "two invocations of one workgroup: in lockstep both read 0 and the "
                          "counter ends 1; one after the other it ends 2"));
  out.push_back(dependent("lost_update_across_workgroups",
                          counter_and_out({1, 1, 1}, std::move(lost_update)), Grid{{2, 1, 1}}, 1,
                          "in lockstep both read 0 and the counter ends 1; one workgroup after "
                          "the other it ends 2"));
  return out;
}

std::vector<TestCase> schedule_independent_cases() {
  std::vector<TestCase> out;
  // Four adds, then a barrier: every invocation reads the final 4.
  out.push_back(make_case(
      "exec/atomic_total_read_after_barrier",
      counter_and_out({4, 1, 1}, {let("old", atomic(AtomicOp::Add, "c", u32(0), u32(1))), barrier(),
                                  store("out", local_id(0), load("c", u32(0)))}),
      Grid{}, {{"c", zero_words(1)}, {"out", zero_words(4)}},
      {{"c", to_bytes({4})}, {"out", to_bytes({4, 4, 4, 4})}}));
  // One invocation wins (old value 0) and writes a constant: who won does not
  // show in the bytes.
  out.push_back(make_case(
      "exec/atomic_section_independent_of_winner",
      counter_and_out({4, 1, 1}, {if_(eq(atomic(AtomicOp::Add, "c", u32(0), u32(1)), u32(0)),
                                      {store("out", u32(0), u32(42))})}),
      Grid{{2, 1, 1}}, {{"c", zero_words(1)}, {"out", zero_words(1)}},
      {{"c", to_bytes({8})}, {"out", to_bytes({42})}}));
  // Max of every invocation id + 1 over two workgroups of 4: 8, in any order.
  out.push_back(
      make_case("exec/atomic_max_result_discarded",
                counter_and_out({4, 1, 1}, {let("old", atomic(AtomicOp::Max, "c", u32(0),
                                                              add(invocation_id(0), u32(1))))}),
                Grid{{2, 1, 1}}, {{"c", zero_words(1)}, {"out", zero_words(1)}},
                {{"c", to_bytes({8})}, {"out", to_bytes({0})}}));
  // A compare-exchange retried until it wins: an invocation fails only when
  // another's succeeds, so four tries each suffice for four invocations, and
  // the counter ends 4 in any order (two workgroups of two).
  out.push_back(make_case(
      "exec/atomic_compare_exchange_retried_until_it_wins",
      counter_and_out(
          {2, 1, 1},
          {let("done", u32(0)),
           loop("try", u32(0), u32(4),
                {if_(eq(var("done"), u32(0)),
                     {let("seen", atomic(AtomicOp::Or, "c", u32(0), u32(0))),
                      if_(eq(compare_exchange("c", u32(0), var("seen"), add(var("seen"), u32(1))),
                             var("seen")),
                          {assign("done", u32(1))})})})}),
      Grid{{2, 1, 1}}, {{"c", zero_words(1)}, {"out", zero_words(1)}},
      {{"c", to_bytes({4})}, {"out", to_bytes({0})}}));
  // Each invocation ORs its local id into the counter by compare-exchange,
  // three tries each: a try fails only when another invocation added a bit,
  // which happens at most twice, so the counter ends 0|1|2 = 3 and every
  // invocation reads 3 after the barrier (the shape of a fuzz program that
  // an NVIDIA H200 got wrong; reports/driver-bugs).
  out.push_back(make_case(
      "exec/atomic_or_bits_by_compare_exchange_with_retries",
      counter_and_out({3, 1, 1},
                      {loop("try", u32(0), u32(3),
                            {let("seen", atomic(AtomicOp::Or, "c", u32(0), u32(0))),
                             let("won", compare_exchange("c", u32(0), var("seen"),
                                                         bit_or(var("seen"), local_id(0))))}),
                       barrier(), store("out", local_id(0), load("c", u32(0)))}),
      Grid{}, {{"c", zero_words(1)}, {"out", zero_words(3)}},
      {{"c", to_bytes({3})}, {"out", to_bytes({3, 3, 3})}}));
  return out;
}

}  // namespace vyre::reference
