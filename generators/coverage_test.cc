// The coverage record on hand-built programs, and the default generator's
// reach over the whole universe.
#include "generators/coverage.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>

#include "generators/wellformed_program.h"
#include "spec/ir/builder.h"

namespace vyre {
namespace {

using namespace build;

TEST(Coverage, RecordsOpTypeAndContext) {
  const Program p{{storage("in", 0, BufferAccess::ReadOnly, DataType::U64),
                   storage("out", 1, BufferAccess::ReadWrite)},
                  {1, 1, 1},
                  {let("x", cast(DataType::U32, load("in", add(invocation_id(0), u32(1))))),
                   store("out", var("x"), call("primitive.min", {var("x"), u32(2)}))}};
  const Coverage c = coverage_of(p);
  const auto& h = c.hits();
  EXPECT_TRUE(h.contains({"load.read_only", DataType::U64, CoverageContext::LetValue}));
  EXPECT_TRUE(h.contains({"cast.from.u64", DataType::U32, CoverageContext::LetValue}));
  EXPECT_TRUE(h.contains({"bin.add", DataType::U32, CoverageContext::LoadIndex}));
  EXPECT_TRUE(h.contains({"id.invocation_id.x", DataType::U32, CoverageContext::LoadIndex}));
  EXPECT_TRUE(h.contains({"var", DataType::U32, CoverageContext::StoreIndex}));
  EXPECT_TRUE(h.contains({"var", DataType::U32, CoverageContext::CallArg}));
  EXPECT_TRUE(h.contains({"call.primitive.min", DataType::U32, CoverageContext::StoreValue}));
  EXPECT_TRUE(h.contains({"stmt.store.read_write", DataType::U32, CoverageContext::TopLevel}));
  EXPECT_TRUE(h.contains({"stmt.let", DataType::U32, CoverageContext::TopLevel}));
  // Whole-program entries: 2 statements, expressions 3 deep, one invocation.
  EXPECT_TRUE(h.contains({"size.statements.le32", DataType::U32, CoverageContext::TopLevel}));
  EXPECT_TRUE(h.contains({"size.expr_depth.le4", DataType::U32, CoverageContext::TopLevel}));
  EXPECT_TRUE(h.contains({"size.workgroup.1", DataType::U32, CoverageContext::TopLevel}));
  EXPECT_EQ(h.size(), 14u);
}

/// The shape hits of `p`: op names starting "shape.", with their contexts.
std::set<std::pair<std::string, CoverageContext>> shapes_of(const Program& p) {
  std::set<std::pair<std::string, CoverageContext>> out;
  const Coverage c = coverage_of(p);
  for (const CoverageHit& h : c.hits()) {
    if (h.op.starts_with("shape.")) out.insert({h.op, h.context});
  }
  return out;
}

TEST(Coverage, ReturnInALoopUnderAnIfIsAShapeAndElsewhereIsNot) {
  using Shapes = std::set<std::pair<std::string, CoverageContext>>;
  const auto out = storage("out", 0, BufferAccess::ReadWrite);
  const Program nested{
      {out}, {1, 1, 1}, {if_(u32(1), {loop("i", u32(0), u32(2), {if_(var("i"), {ret()})})})}};
  EXPECT_EQ(shapes_of(nested),
            (Shapes{{"shape.return_in_loop_under_if", CoverageContext::IfBody}}));
  // A Loop at the top level, and an If inside a Loop, are not the shape.
  const Program top{{out}, {1, 1, 1}, {loop("i", u32(0), u32(2), {if_(var("i"), {ret()})})}};
  EXPECT_TRUE(shapes_of(top).empty());
  const Program in_if{{out}, {1, 1, 1}, {if_(u32(1), {ret()})}};
  EXPECT_TRUE(shapes_of(in_if).empty());
}

TEST(Coverage, LoadAfterAStoreOfTheSameIndexTreeIsAShape) {
  using Shapes = std::set<std::pair<std::string, CoverageContext>>;
  const auto out = storage("out", 0, BufferAccess::ReadWrite);
  // Store then load of out[x]: the shape; the load before the store is not.
  const Program reload{{out},
                       {1, 1, 1},
                       {let("x", invocation_id(0)), let("a", load("out", var("x"))),
                        store("out", var("x"), add(var("a"), u32(1))),
                        store("out", var("x"), add(load("out", var("x")), u32(2)))}};
  EXPECT_EQ(shapes_of(reload), (Shapes{{"shape.load_after_store", CoverageContext::StoreValue}}));
  // Another index tree, or a store in a closed sibling body, is not.
  const Program other_index{{out},
                            {1, 1, 1},
                            {store("out", invocation_id(0), u32(1)),
                             let("b", load("out", add(invocation_id(0), u32(0))))}};
  EXPECT_TRUE(shapes_of(other_index).empty());
  const Program closed{
      {out}, {1, 1, 1}, {block({store("out", u32(0), u32(1))}), let("b", load("out", u32(0)))}};
  EXPECT_TRUE(shapes_of(closed).empty());
}

/// The whole-program entries of `p` with a prefix.
std::set<std::string> entries_of(const Program& p, std::string_view prefix) {
  std::set<std::string> out;
  const Coverage c = coverage_of(p);
  for (const CoverageHit& h : c.hits()) {
    if (h.op.starts_with(prefix)) out.insert(h.op);
  }
  return out;
}

TEST(Coverage, CommunicationSignaturesAreReadFromTheProgram) {
  using Names = std::set<std::string>;
  const auto wg = workgroup("x", DataType::U32, 8);
  const auto acc = storage("acc", 0, BufferAccess::ReadWrite);
  // A tree reduction: a loop whose body stores and loads x around a barrier.
  const Program reduce{
      {wg},
      {8, 1, 1},
      {store("x", local_id(0), local_id(0)), barrier(),
       loop("k", u32(0), u32(3),
            {if_(eq(bit_and(local_id(0), u32(1)), u32(0)),
                 {store("x", local_id(0),
                        add(load("x", local_id(0)), load("x", add(local_id(0), u32(1)))))}),
             barrier()})}};
  EXPECT_EQ(entries_of(reduce, "comm."), (Names{"comm.loop_exchange.workgroup"}));
  // The same phases straight-line are not a loop exchange.
  const Program straight{
      {wg}, {8, 1, 1}, {store("x", local_id(0), u32(1)), barrier(), let("y", load("x", u32(0)))}};
  EXPECT_TRUE(entries_of(straight, "comm.").empty());
  // An atomic section, an atomic read after a barrier, a compare-exchange retry loop.
  const Program atomics{
      {acc},
      {4, 1, 1},
      {if_(eq(atomic(AtomicOp::Add, "acc", u32(0), u32(1)), u32(0)),
           {store("acc", u32(1), u32(7))}),
       let("t", atomic(AtomicOp::Max, "acc", u32(2), local_id(0))), barrier(),
       let("r", load("acc", u32(2))), let("done", u32(0)),
       loop("i", u32(0), u32(4),
            {let("cur", atomic(AtomicOp::Or, "acc", u32(3), u32(0))),
             let("got", compare_exchange("acc", u32(3), var("cur"), add(var("cur"), u32(1)))),
             if_(eq(var("got"), var("cur")), {assign("done", u32(1))})})}};
  EXPECT_EQ(entries_of(atomics, "comm."),
            (Names{"comm.atomic_guarded_section", "comm.atomic_read_after_barrier",
                   "comm.cas_retry_loop"}));
}

TEST(Coverage, PairsPathRecordsOpaqueGuardsAndRuleShapes) {
  using Names = std::set<std::string>;
  const auto out = storage("out", 0, BufferAccess::ReadWrite);
  const auto opq = storage("opq", 1, BufferAccess::Uniform);
  const Program p{
      {out, opq},
      {1, 1, 1},
      {if_(eq(load("opq", u32(2)), u32(5)), {store("out", u32(0), u32(1))},
           {store("out", u32(0), u32(2))}),
       let("a", div(invocation_id(0), u32(8))), let("b", shr(shl(var("a"), u32(3)), u32(3))),
       let("c", cast(DataType::U32, cast(DataType::I32, var("b")))),
       let("d", select(lt(var("a"), var("b")), var("a"), var("b")))}};
  EXPECT_EQ(entries_of(p, "shape."),
            (Names{"shape.branch_records", "shape.opaque_guard", "shape.div_mod_power_of_two",
                   "shape.shift_pair", "shape.cast_of_cast", "shape.select_min_max"}));
  EXPECT_EQ(entries_of(p, "pair."), (Names{"pair.if.store"}));
  EXPECT_EQ(entries_of(p, "size.nesting."), (Names{"size.nesting.1"}));
}

TEST(Coverage, MergeUnitesAndMissingShrinks) {
  const Program a{
      {storage("out", 0, BufferAccess::ReadWrite)}, {1, 1, 1}, {store("out", u32(0), u32(1))}};
  const Program b{{storage("out", 0, BufferAccess::ReadWrite)}, {1, 1, 1}, {ret()}};
  Coverage c = coverage_of(a);
  const size_t missing_a = c.missing().size();
  c.merge(coverage_of(b));
  // Both hit the same three size classes.
  EXPECT_EQ(c.hits().size(), coverage_of(a).hits().size() + coverage_of(b).hits().size() - 3);
  EXPECT_EQ(c.missing().size() + 2, missing_a);  // stmt.return u32 and stmt.return @ top_level
  EXPECT_LT(c.missing().size(), Coverage::universe_size());
}

TEST(Coverage, ThreeHundredDefaultProgramsReachTheWholeUniverse) {
  Coverage all;
  for (uint64_t seed = 1; seed <= 300; ++seed)
    all.merge(coverage_of(generate_wellformed_case(seed)));
  std::string missing;
  for (const std::string& m : all.missing()) missing += m + "\n";
  EXPECT_TRUE(missing.empty()) << "not reached:\n" << missing;
}

}  // namespace
}  // namespace vyre
