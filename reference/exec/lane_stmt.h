// Compiled statements of the lockstep core. A statement runs for the lanes of
// the active mask: If splits the mask into its two arms, Loop iterates while
// any lane still has iterations left (per-lane bounds), Return clears lanes
// for good, and Barrier is reported to observers (in lockstep every lane of
// the workgroup that reaches it arrives together, and all earlier writes are
// already in memory, so visibility needs no further work). Under solo
// stepping (Schedule::Stepping::Solo) a body runs its statements that hold a
// barrier this way and each stretch between them one lane at a time.
#pragma once

#include <memory>
#include <vector>

#include "reference/exec/lane_expr.h"

namespace vyre::reference {

/// One compiled statement node.
class LaneStmt {
 public:
  /// `has_barrier`: the statement is a Barrier or holds one.
  explicit LaneStmt(SourceLoc loc, bool has_barrier = false)
      : loc_(loc), has_barrier_(has_barrier) {}
  virtual ~LaneStmt() = default;
  /// Executes the statement for the active lanes.
  virtual void exec(BatchState& s) const = 0;
  SourceLoc loc() const { return loc_; }
  /// Whether the statement is a Barrier or holds one: solo stepping runs a
  /// statement without one lane by lane, and one with one in lockstep.
  bool has_barrier() const { return has_barrier_; }

 private:
  SourceLoc loc_;
  bool has_barrier_;
};

/// Owned compiled statement.
using LaneStmtPtr = std::unique_ptr<const LaneStmt>;
/// A compiled statement list.
using LaneBody = std::vector<LaneStmtPtr>;

/// Runs statements in order while lanes are active and the budget lasts;
/// every statement costs one lane-operation per active lane. Under solo
/// stepping (BatchState::solo) each stretch of statements without a barrier
/// runs one lane at a time, in the schedule's lane order.
void exec_body(BatchState& s, const LaneBody& body);

/// Registers an If uses for its arms' masks.
struct BranchRegs {
  Reg then_mask;
  Reg else_mask;
};
/// Registers a Loop uses: per-lane start and trip count, the iteration's mask
/// and the loop variable.
struct LoopRegs {
  Reg start;
  Reg trip_count;
  Reg iteration_mask;
  Reg variable;
};

/// let: writes the new local's slot on every lane (a lane outside the mask can
/// never see this binding, so no blend is needed).
LaneStmtPtr make_let(Reg slot, LaneExprPtr value, SourceLoc loc);
/// Assign: writes the binding on active lanes only.
LaneStmtPtr make_assign(Reg slot, LaneExprPtr value, SourceLoc loc);
/// buffer[index] = value: index first, then value; lanes apply in schedule order.
/// `site` indexes LaneProgram::access_sites (reported to observers).
LaneStmtPtr make_store(uint32_t buffer, uint32_t site, LaneExprPtr index, LaneExprPtr value,
                       SourceLoc loc);
/// if cond { then_body } else { otherwise }.
LaneStmtPtr make_if(LaneExprPtr cond, LaneBody then_body, LaneBody otherwise, BranchRegs regs,
                    SourceLoc loc);
/// for var in [from, to) { body } with bounds evaluated once per lane.
LaneStmtPtr make_loop(LaneExprPtr from, LaneExprPtr to, LaneBody body, LoopRegs regs,
                      SourceLoc loc);
/// Ends the active lanes' invocations.
LaneStmtPtr make_return(SourceLoc loc);
/// A nested scope (scoping is resolved at compile time).
LaneStmtPtr make_block(LaneBody body, SourceLoc loc);
/// Workgroup barrier.
LaneStmtPtr make_barrier(SourceLoc loc);

}  // namespace vyre::reference
