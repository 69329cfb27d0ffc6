// Programs whose verdict is a flag, not bytes: data races (SEMANTICS S6),
// barriers under divergence (archetype S13; V010, static and dynamic), the
// off-by-one archetype S11's out-of-bounds accesses in strict mode (S5) and
// the schedule-dependent programs of schedule_cases.cc (S6).
#include "reference/spec_tables/case_builder.h"
#include "reference/spec_tables/table_parts.h"

namespace vyre::reference {
namespace {

using namespace vyre::build;

NonconformingCase flagged(std::string name, Program p, Grid grid, BufferSet inputs,
                          Nonconformance flag, std::string reason) {
  return NonconformingCase{TestCase{std::move(name), std::move(p), grid, std::move(inputs), {}},
                           flag, std::move(reason)};
}

Program single_output(std::array<uint32_t, 3> wg, Body body, std::vector<BufferDecl> extra = {}) {
  std::vector<BufferDecl> buffers = {storage("out", 0, BufferAccess::ReadWrite)};
  for (BufferDecl& b : extra) buffers.push_back(std::move(b));
  return Program{std::move(buffers), wg, std::move(body)};
}

}  // namespace

std::vector<NonconformingCase> nonconforming_cases() {
  std::vector<NonconformingCase> out;
  out.push_back(flagged("race/two_stores_one_element",
                        single_output({2, 1, 1}, {store("out", u32(0), local_id(0))}), Grid{},
                        {{"out", zero_words(1)}}, Nonconformance::DataRace,
                        "two invocations store to out[0] with nothing ordering them"));
  out.push_back(flagged(
      "race/write_then_other_lane_reads",
      single_output({2, 1, 1},
                    {if_(eq(local_id(0), u32(0)), {store("out", u32(0), u32(7))}),
                     if_(eq(local_id(0), u32(1)), {store("out", u32(1), load("out", u32(0)))})}),
      Grid{}, {{"out", zero_words(2)}}, Nonconformance::DataRace,
      "lane 1 reads out[0], which lane 0 writes, with no barrier between"));
  out.push_back(
      flagged("race/across_workgroups",
              single_output(
                  {1, 1, 1},
                  {if_(eq(workgroup_id(0), u32(0)), {store("out", u32(0), u32(7))}), barrier(),
                   if_(eq(workgroup_id(0), u32(1)), {store("out", u32(1), load("out", u32(0)))})}),
              Grid{{2, 1, 1}}, {{"out", zero_words(2)}}, Nonconformance::DataRace,
              "workgroup 1 reads what workgroup 0 writes; barriers do not order workgroups"));
  out.push_back(
      flagged("race/workgroup_exchange_without_barrier",
              single_output({4, 1, 1},
                            {store("s", local_id(0), local_id(0)),
                             store("out", local_id(0), load("s", bit_xor(local_id(0), u32(1))))},
                            {workgroup("s", DataType::U32, 4)}),
              Grid{}, {{"out", zero_words(4)}}, Nonconformance::DataRace,
              "lanes read a neighbour's workgroup slot without a barrier after its store"));
  out.push_back(flagged(
      "race/atomic_and_plain_read",
      single_output(
          {2, 1, 1},
          {if_(eq(local_id(0), u32(0)), {let("o", atomic(AtomicOp::Add, "out", u32(0), u32(1)))}),
           if_(eq(local_id(0), u32(1)), {store("out", u32(1), load("out", u32(0)))})}),
      Grid{}, {{"out", zero_words(2)}}, Nonconformance::DataRace,
      "a plain read of an element another invocation updates atomically"));
  out.push_back(flagged("divergent_barrier/S13/branch",
                        single_output({4, 1, 1}, {if_(lt(local_id(0), u32(2)), {barrier()}),
                                                  store("out", local_id(0), u32(1))}),
                        Grid{}, {{"out", zero_words(4)}}, Nonconformance::DivergentBarrier,
                        "only lanes 0 and 1 reach the barrier"));
  out.push_back(flagged("divergent_barrier/S13/after_return",
                        single_output({4, 1, 1}, {if_(eq(local_id(0), u32(3)), {ret()}), barrier(),
                                                  store("out", local_id(0), u32(1))}),
                        Grid{}, {{"out", zero_words(4)}}, Nonconformance::DivergentBarrier,
                        "lane 3 returns before the barrier the others wait at"));
  out.push_back(flagged(
      "divergent_barrier/S13/loop_trip_count",
      single_output({4, 1, 1}, {loop("i", u32(0), select(lt(local_id(0), u32(2)), u32(2), u32(1)),
                                     {barrier()}),
                                store("out", local_id(0), u32(1))}),
      Grid{}, {{"out", zero_words(4)}}, Nonconformance::DivergentBarrier,
      "all four lanes reach the loop's barrier once, only lanes 0 and 1 a second time"));
  for (TestCase strict : off_by_one_cases()) {
    // exec/S11/x -> strict_oob/S11/x
    strict.name = "strict_oob/" + strict.name.substr(strict.name.find('/') + 1);
    strict.expected.reset();
    out.push_back(NonconformingCase{std::move(strict), Nonconformance::StrictOutOfBounds,
                                    "lanes 1 and 2 access index len and len + 1"});
  }
  for (NonconformingCase& c : schedule_dependent_cases()) out.push_back(std::move(c));
  return out;
}

}  // namespace vyre::reference
