// Compiled expressions of the lockstep core. An expression is compiled once
// per run (lane_compiler.h) with its variables resolved to registers, its
// buffers to indices and its operator to a lane kernel; eval() then computes
// it for every lane of a batch at once and returns the result's register.
// Pure operations run on all lanes (results of inactive lanes are never
// used); memory operations touch memory for active lanes only.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "reference/exec/batch_state.h"
#include "reference/ops/cast_ops.h"
#include "spec/ir/types.h"

namespace vyre::reference {

/// One compiled expression node.
class LaneExpr {
 public:
  LaneExpr(DataType type, SourceLoc loc) : type_(type), words_(word_count(type)), loc_(loc) {}
  virtual ~LaneExpr() = default;

  /// Evaluates on every lane of the batch; returns word 0's lane vector, word
  /// k at + k * width. Valid until the enclosing statement finishes.
  virtual const uint32_t* eval(BatchState& s) const = 0;

  DataType type() const { return type_; }
  /// Words per value (U64 and Vec2U32: 2, Vec4U32: 4, others 1).
  uint32_t words() const { return words_; }
  SourceLoc loc() const { return loc_; }

 private:
  DataType type_;
  uint32_t words_;
  SourceLoc loc_;
};

/// Owned compiled expression.
using LaneExprPtr = std::unique_ptr<const LaneExpr>;

/// A value already in a register: a constant, a variable, an id, a parameter.
LaneExprPtr make_register_read(DataType type, Reg reg, SourceLoc loc);
/// buffer[index] into `dest`; out of bounds yields zero and is counted.
/// `site` indexes LaneProgram::access_sites (reported to observers).
LaneExprPtr make_load(DataType type, uint32_t buffer, uint32_t site, LaneExprPtr index, Reg dest,
                      SourceLoc loc);
/// left op right into `dest`, left evaluated first.
LaneExprPtr make_binary(BinOp op, LaneExprPtr left, LaneExprPtr right, Reg dest, SourceLoc loc);
/// op operand into `dest`.
LaneExprPtr make_unary(UnOp op, LaneExprPtr operand, Reg dest, SourceLoc loc);
/// cond, then both arms, then a per-lane pick into `dest`.
LaneExprPtr make_select(LaneExprPtr cond, LaneExprPtr if_true, LaneExprPtr if_false, Reg dest,
                        SourceLoc loc);
/// A cast by its recipe (cast_ops.h) into `dest`.
LaneExprPtr make_cast(DataType target, const CastRecipe& recipe, LaneExprPtr value, Reg dest,
                      SourceLoc loc);
/// Atomic read-modify-write in schedule lane order; `expected` only for
/// CompareExchange (null otherwise). Yields the old value. `site` as for make_load.
LaneExprPtr make_atomic(AtomicOp op, uint32_t buffer, uint32_t site, LaneExprPtr index,
                        LaneExprPtr expected, LaneExprPtr value, Reg dest, SourceLoc loc);
/// An inlined call: arguments left to right into `params`, then `body` (which
/// reads the parameters through register reads), copied into `dest`.
LaneExprPtr make_inlined_call(std::vector<LaneExprPtr> args, std::vector<Reg> params,
                              LaneExprPtr body, Reg dest, SourceLoc loc);

}  // namespace vyre::reference
