// Schedules expose order dependence without changing conforming results:
// for generated race-free programs every schedule (canonical, reversed,
// seeded random; in lockstep or solo) gives identical bytes and no
// violation; for the same programs with one racy store added, the race
// detector reports a race under every schedule.
//
// Programs are built from a recipe of numbers (RapidCheck shrinks the list),
// race-free by construction: each invocation stores only its own output
// element; atomics only combine commutatively into counters whose returned
// values are never used, each counter taking one op; workgroup memory is written at the own slot
// and read back only after a top-level barrier.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <set>

#include "reference/interpreter.h"
#include "spec/ir/builder.h"
#include "spec/ir/host_words.h"

namespace vyre::reference {
namespace {

using namespace vyre::build;

/// Reads choices from a recipe; an exhausted recipe reads zeros.
class Recipe {
 public:
  explicit Recipe(const std::vector<uint32_t>& numbers) : numbers_(numbers) {}
  uint32_t next(uint32_t bound) {
    const uint32_t v = pos_ < numbers_.size() ? numbers_[pos_] : 0;
    ++pos_;
    return bound == 0 ? v : v % bound;
  }

 private:
  const std::vector<uint32_t>& numbers_;
  size_t pos_ = 0;
};

/// Commutative, associative atomics: their final value is order-independent.
constexpr AtomicOp kOrderFreeAtomics[] = {AtomicOp::Add, AtomicOp::Or,  AtomicOp::Xor,
                                          AtomicOp::And, AtomicOp::Min, AtomicOp::Max};

struct Generated {
  Program program;
  Grid grid;
  BufferSet inputs;
};

class ProgramMaker {
 public:
  explicit ProgramMaker(const std::vector<uint32_t>& recipe) : r_(recipe) {}

  Generated make(bool racy) {
    wg_ = {1 + r_.next(8), 1 + r_.next(2), 1 + r_.next(2)};
    if (racy && wg_[0] < 2) wg_[0] = 2;  // a race needs two invocations
    grid_ = {1 + r_.next(3), 1 + r_.next(2), 1 + r_.next(2)};
    lanes_ = wg_[0] * wg_[1] * wg_[2];
    const uint32_t gx = wg_[0] * grid_[0];
    const uint32_t gy = wg_[1] * grid_[1];
    const uint32_t total = gx * gy * wg_[2] * grid_[2];
    local_linear_ = add(add(local_id(0), mul(local_id(1), u32(wg_[0]))),
                        mul(local_id(2), u32(wg_[0] * wg_[1])));
    const ExprPtr global_linear = add(add(invocation_id(0), mul(invocation_id(1), u32(gx))),
                                      mul(invocation_id(2), u32(gx * gy)));
    Body body = statements(2, true);
    body.push_back(store("out", global_linear, expr(3)));
    if (racy) body.push_back(store("racy", u32(0), local_linear_));
    std::vector<uint32_t> in(64);
    for (uint32_t& w : in) w = r_.next(0);
    Generated g;
    g.program = Program{
        {storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite),
         storage("ctr", 2, BufferAccess::ReadWrite), storage("racy", 3, BufferAccess::ReadWrite),
         workgroup("shared", DataType::U32, lanes_)},
        wg_,
        std::move(body)};
    g.grid = Grid{grid_};
    g.inputs = {{"in", to_bytes(in)},
                {"out", to_bytes(std::vector<uint32_t>(total, 0xABABABAB))},
                {"ctr", to_bytes({0, 0, 0, 0xFFFFFFFF, 0xFFFFFFFF, 0})},
                {"racy", to_bytes({0})}};
    return g;
  }

 private:
  ExprPtr expr(int depth) {
    const uint32_t kind = r_.next(depth > 0 ? 8 : 3);
    switch (kind) {
      case 0:
        return u32(r_.next(0));
      case 1: {
        const uint32_t axis = r_.next(3);
        switch (r_.next(3)) {
          case 0:
            return invocation_id(axis);
          case 1:
            return workgroup_id(axis);
          default:
            return local_id(axis);
        }
      }
      case 2:
        if (!vars_.empty()) return var(vars_[r_.next(static_cast<uint32_t>(vars_.size()))]);
        return u32(r_.next(0));
      case 3:
        return load("in", bit_and(expr(depth - 1), u32(63)));
      case 4: {
        const BinOp op = all_bin_ops()[r_.next(static_cast<uint32_t>(all_bin_ops().size()))];
        return binary(op, expr(depth - 1), expr(depth - 1));
      }
      case 5: {
        const UnOp op = all_un_ops()[r_.next(static_cast<uint32_t>(all_un_ops().size()))];
        return unary(op, expr(depth - 1));
      }
      case 6:
        return select(expr(depth - 1), expr(depth - 1), expr(depth - 1));
      default:
        return call(r_.next(2) ? "primitive.min" : "primitive.abs_diff",
                    {expr(depth - 1), expr(depth - 1)});
    }
  }

  std::string fresh() { return "v" + std::to_string(names_++); }

  Body statements(int depth, bool top_level) {
    Body body;
    const uint32_t count = 1 + r_.next(4);
    const size_t scope = vars_.size();
    for (uint32_t k = 0; k < count; ++k) {
      switch (r_.next(top_level ? 6 : 5)) {
        case 0: {
          const std::string name = fresh();
          body.push_back(let(name, expr(2)));
          vars_.push_back(name);
          break;
        }
        case 1: {
          std::vector<std::string> mutable_vars;
          for (const std::string& v : vars_) {
            if (!loop_vars_.count(v)) mutable_vars.push_back(v);
          }
          if (!mutable_vars.empty()) {
            const std::string& v =
                mutable_vars[r_.next(static_cast<uint32_t>(mutable_vars.size()))];
            body.push_back(assign(v, expr(2)));
          }
          break;
        }
        case 2:
          if (depth > 0)
            body.push_back(
                if_(expr(2), statements(depth - 1, false), statements(depth - 1, false)));
          break;
        case 3:
          if (depth > 0) {
            const std::string i = fresh();
            const ExprPtr to = bit_and(expr(1), u32(3));
            vars_.push_back(i);
            loop_vars_.insert(i);  // immutable: never an Assign target
            Body inner = statements(depth - 1, false);
            vars_.pop_back();
            body.push_back(loop(i, u32(0), to, std::move(inner)));
          }
          break;
        case 4: {
          // One counter per op: two different ops on one counter do not commute.
          const uint32_t k = r_.next(std::size(kOrderFreeAtomics));
          body.push_back(let(fresh(), atomic(kOrderFreeAtomics[k], "ctr", u32(k), expr(2))));
          break;
        }
        default: {
          // Own slot, barrier at top level, then a neighbour's slot.
          body.push_back(store("shared", local_linear_, expr(2)));
          body.push_back(barrier());
          const std::string name = fresh();
          body.push_back(let(name, load("shared", mod(add(local_linear_, u32(1 + r_.next(lanes_))),
                                                      u32(lanes_)))));
          body.push_back(barrier());  // later writes to `shared` come after every read
          vars_.push_back(name);
        }
      }
    }
    vars_.resize(scope);
    return body;
  }

  Recipe r_;
  std::array<uint32_t, 3> wg_{};
  std::array<uint32_t, 3> grid_{};
  uint32_t lanes_ = 1;
  ExprPtr local_linear_;
  std::vector<std::string> vars_;
  std::set<std::string> loop_vars_;
  uint32_t names_ = 0;
};

std::vector<RunOptions> schedules(uint64_t seed) {
  std::vector<RunOptions> out(5);
  out[1].schedule.kind = Schedule::Kind::Reversed;
  out[2].schedule = {Schedule::Kind::Random, seed};
  out[3].schedule = {Schedule::Kind::Random, seed + 1};
  out[4].schedule = {Schedule::Kind::Random, seed ^ 0x9E3779B97F4A7C15ull};
  return out;
}

RC_GTEST_PROP(Schedules, RaceFreeProgramsGiveIdenticalBytesUnderEverySchedule,
              (const std::vector<uint32_t>& recipe, uint64_t seed)) {
  const Generated g = ProgramMaker(recipe).make(false);
  std::optional<BufferSet> first;
  for (const RunOptions& options : schedules(seed)) {
    const Result<RunResult> r = run(g.program, g.inputs, g.grid, options);
    if (!r.ok()) RC_FAIL(r.error().message);
    if (!r->conforming()) RC_FAIL(r->violations.front().message);
    if (!first) {
      first = r->outputs;
    } else {
      RC_ASSERT(*first == r->outputs);
    }
  }
}

RC_GTEST_PROP(Schedules, TheRaceDetectorReportsARacyProgramUnderEverySchedule,
              (const std::vector<uint32_t>& recipe, uint64_t seed)) {
  const Generated g = ProgramMaker(recipe).make(true);
  for (const RunOptions& options : schedules(seed)) {
    const Result<RunResult> r = run(g.program, g.inputs, g.grid, options);
    if (!r.ok()) RC_FAIL(r.error().message);
    bool raced = false;
    for (const Violation& v : r->violations) raced = raced || v.kind == Violation::Kind::DataRace;
    RC_ASSERT(raced);
  }
}

RC_GTEST_PROP(Schedules, RaceFreeProgramsGiveIdenticalBytesOutOfStep,
              (const std::vector<uint32_t>& recipe, uint64_t seed)) {
  // Solo stepping runs unchecked; its bytes must be lockstep's, barriers,
  // workgroup memory, divergent loops and all.
  const Generated g = ProgramMaker(recipe).make(false);
  RunOptions lockstep;
  lockstep.checks = false;
  const Result<RunResult> first = run(g.program, g.inputs, g.grid, lockstep);
  if (!first.ok()) RC_FAIL(first.error().message);
  for (Schedule::Kind kind :
       {Schedule::Kind::Canonical, Schedule::Kind::Reversed, Schedule::Kind::Random}) {
    RunOptions solo = lockstep;
    solo.schedule = {kind, seed, Schedule::Grouping::Default, Schedule::Stepping::Solo};
    const Result<RunResult> r = run(g.program, g.inputs, g.grid, solo);
    if (!r.ok()) RC_FAIL(r.error().message);
    RC_ASSERT(first->outputs == r->outputs);
  }
}

TEST(Schedules, RandomScheduleChangesTheOrderAtomicsApply) {
  // Exchange returns the previous value: under different schedules the
  // lane that saw the initial value differs, which is exactly what makes
  // such a program order-dependent.
  const Program p{
      {storage("cell", 0, BufferAccess::ReadWrite), storage("seen", 1, BufferAccess::ReadWrite)},
      {16, 1, 1},
      {store("seen", local_id(0), atomic(AtomicOp::Exchange, "cell", u32(0), local_id(0)))}};
  std::set<std::vector<uint32_t>> outcomes;
  for (uint64_t seed = 0; seed < 8; ++seed) {
    RunOptions options;
    options.schedule = {Schedule::Kind::Random, seed};
    const Result<RunResult> r =
        run(p, {{"cell", to_bytes({99})}, {"seen", ByteBuffer(64, 0)}}, Grid{}, options);
    ASSERT_TRUE(r.ok()) << r.error().message;
    outcomes.insert(to_words(r->outputs.at("seen")));
  }
  EXPECT_GT(outcomes.size(), 1u);
}

TEST(Schedules, ReversedRunsWorkgroupsAndLanesBackwards) {
  // The last Exchange to apply leaves its id in memory.
  const Program p{{storage("cell", 0, BufferAccess::ReadWrite)},
                  {4, 1, 1},
                  {let("o", atomic(AtomicOp::Exchange, "cell", u32(0), invocation_id(0)))}};
  RunOptions canonical;
  RunOptions reversed;
  reversed.schedule.kind = Schedule::Kind::Reversed;
  const Result<RunResult> a = run(p, {{"cell", to_bytes({99})}}, Grid{{3, 1, 1}}, canonical);
  const Result<RunResult> b = run(p, {{"cell", to_bytes({99})}}, Grid{{3, 1, 1}}, reversed);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(to_words(a->outputs.at("cell")), std::vector<uint32_t>{11});
  EXPECT_EQ(to_words(b->outputs.at("cell")), std::vector<uint32_t>{0});
}

}  // namespace
}  // namespace vyre::reference
