#include "reference/exec/lane_stmt.h"

#include <algorithm>
#include <cstring>
#include <span>
#include <utility>

#include "reference/exec/memory_access.h"
#include "reference/ops/scalar_ops.h"

namespace vyre::reference {
namespace {

class LetStmt final : public LaneStmt {
 public:
  LetStmt(Reg slot, LaneExprPtr value, SourceLoc loc)
      : LaneStmt(loc), slot_(slot), value_(std::move(value)) {}
  void exec(BatchState& s) const override {
    const uint32_t* v = value_->eval(s);
    uint32_t* out = s.at(slot_);
    for (uint32_t k = 0; k < value_->words(); ++k) {
      std::memcpy(out + size_t{k} * s.width, v + size_t{k} * s.width, s.lanes * sizeof(uint32_t));
    }
  }

 private:
  Reg slot_;
  LaneExprPtr value_;
};

class AssignStmt final : public LaneStmt {
 public:
  AssignStmt(Reg slot, LaneExprPtr value, SourceLoc loc)
      : LaneStmt(loc), slot_(slot), value_(std::move(value)) {}
  void exec(BatchState& s) const override {
    const uint32_t* v = value_->eval(s);
    uint32_t* out = s.at(slot_);
    for (uint32_t k = 0; k < value_->words(); ++k) {
      const size_t off = size_t{k} * s.width;
      for (uint32_t l = 0; l < s.lanes; ++l) {
        out[off + l] = (v[off + l] & s.mask[l]) | (out[off + l] & ~s.mask[l]);
      }
    }
  }

 private:
  Reg slot_;
  LaneExprPtr value_;
};

class StoreStmt final : public LaneStmt {
 public:
  StoreStmt(uint32_t buffer, uint32_t site, LaneExprPtr index, LaneExprPtr value, SourceLoc loc)
      : LaneStmt(loc),
        buffer_(buffer),
        site_(site),
        index_(std::move(index)),
        value_(std::move(value)) {}

  void exec(BatchState& s) const override {
    const uint32_t* index = index_->eval(s);
    const uint32_t* value = value_->eval(s);
    const BufferMemory& b = s.buffers[buffer_];
    if (s.observers.empty() || !b.watched) {
      const uint64_t oob = store_unrecorded(s, index, value);
      s.oob.stores += oob;
      if (oob > 0 && !s.observers.empty()) report_out_of_bounds(s, index);
      return;
    }
    AccessRecorder recorder(s, buffer_, site_, AccessKind::Write, loc());
    const uint32_t m = b.words_per_element;
    for (uint32_t l : s.schedule->next_lane_order()) {
      if (s.mask[l] == 0) continue;
      const uint32_t i = index[l];
      if (i >= b.elements) {
        ++s.oob.stores;
        recorder.out_of_bounds(l, i);
        continue;
      }
      for (uint32_t k = 0; k < m; ++k)
        b.set_word(size_t{i} * m + k, value[size_t{k} * s.width + l]);
      recorder.in_bounds(l, i);
    }
    recorder.flush();
  }

 private:
  /// Stores for the active lanes in schedule order; returns how many were
  /// out of bounds (and dropped).
  uint64_t store_unrecorded(BatchState& s, const uint32_t* index, const uint32_t* value) const {
    const BufferMemory& b = s.buffers[buffer_];
    const uint32_t m = b.words_per_element;
    uint64_t oob = 0;
    if (s.full() && m == 1 && s.schedule->canonical()) {
      // The common case: every lane stores one word, in lane order.
      for (uint32_t l = 0; l < s.lanes; ++l) {
        const uint32_t i = index[l];
        if (i < b.elements) {
          b.set_word(i, value[l]);
        } else {
          ++oob;
        }
      }
      return oob;
    }
    for (uint32_t l : s.schedule->next_lane_order()) {
      if (s.mask[l] == 0) continue;
      const uint32_t i = index[l];
      if (i >= b.elements) {
        ++oob;
        continue;
      }
      for (uint32_t k = 0; k < m; ++k)
        b.set_word(size_t{i} * m + k, value[size_t{k} * s.width + l]);
    }
    return oob;
  }

  void report_out_of_bounds(BatchState& s, const uint32_t* index) const {
    AccessRecorder recorder(s, buffer_, site_, AccessKind::Write, loc());
    for (uint32_t l = 0; l < s.lanes; ++l) {
      if (s.mask[l] != 0 && index[l] >= s.buffers[buffer_].elements) {
        recorder.out_of_bounds(l, index[l]);
      }
    }
  }

  uint32_t buffer_;
  uint32_t site_;
  LaneExprPtr index_;
  LaneExprPtr value_;
};

bool holds_barrier(const LaneBody& body) {
  return std::any_of(body.begin(), body.end(),
                     [](const LaneStmtPtr& x) { return x->has_barrier(); });
}

/// Runs `body` under mask `m`, then restores the enclosing mask `outer`,
/// dropping lanes that returned meanwhile.
void run_masked(BatchState& s, uint32_t* m, const LaneBody& body, uint32_t* outer) {
  const uint64_t returns_before = s.returns;
  s.set_mask(m);
  if (s.active != 0) exec_body(s, body);
  if (s.returns != returns_before) s.drop_returned(outer);
  s.set_mask(outer);
}

class IfStmt final : public LaneStmt {
 public:
  IfStmt(LaneExprPtr cond, LaneBody then_body, LaneBody otherwise, BranchRegs regs, SourceLoc loc)
      : LaneStmt(loc, holds_barrier(then_body) || holds_barrier(otherwise)),
        cond_(std::move(cond)),
        then_(std::move(then_body)),
        otherwise_(std::move(otherwise)),
        regs_(regs) {}

  void exec(BatchState& s) const override {
    const uint32_t* c = cond_->eval(s);
    uint32_t* then_mask = s.at(regs_.then_mask);
    uint32_t* else_mask = s.at(regs_.else_mask);
    for (uint32_t l = 0; l < s.lanes; ++l) {
      const uint32_t taken = truthy(c[l]) ? ~0u : 0u;
      then_mask[l] = s.mask[l] & taken;
      else_mask[l] = s.mask[l] & ~taken;
    }
    // The arms hold disjoint lanes, so either order is a valid interleaving;
    // the schedule picks one to expose programs that depend on it.
    uint32_t* outer = s.mask;
    if (s.schedule->next_else_first()) {
      run_masked(s, else_mask, otherwise_, outer);
      run_masked(s, then_mask, then_, outer);
    } else {
      run_masked(s, then_mask, then_, outer);
      run_masked(s, else_mask, otherwise_, outer);
    }
  }

 private:
  LaneExprPtr cond_;
  LaneBody then_;
  LaneBody otherwise_;
  BranchRegs regs_;
};

class LoopStmt final : public LaneStmt {
 public:
  LoopStmt(LaneExprPtr from, LaneExprPtr to, LaneBody body, LoopRegs regs, SourceLoc loc)
      : LaneStmt(loc, holds_barrier(body)),
        from_(std::move(from)),
        to_(std::move(to)),
        body_(std::move(body)),
        regs_(regs) {}

  void exec(BatchState& s) const override {
    // Bounds once at entry, `from` first; [from, to) is empty when from >= to.
    const uint32_t* from = from_->eval(s);
    const uint32_t* to = to_->eval(s);
    uint32_t* start = s.at(regs_.start);
    uint32_t* trips = s.at(regs_.trip_count);
    uint32_t most = 0;
    for (uint32_t l = 0; l < s.lanes; ++l) {
      start[l] = from[l];
      trips[l] = to[l] > from[l] ? to[l] - from[l] : 0u;
      if (s.mask[l] != 0) most = std::max(most, trips[l]);
    }
    uint32_t* outer = s.mask;
    uint32_t* iteration = s.at(regs_.iteration_mask);
    uint32_t* variable = s.at(regs_.variable);
    const uint64_t returns_before = s.returns;
    for (uint32_t k = 0; k < most && s.stop == StopReason::None; ++k) {
      for (uint32_t l = 0; l < s.lanes; ++l) {
        iteration[l] = outer[l] & s.alive[l] & (k < trips[l] ? ~0u : 0u);
        variable[l] = start[l] + k;
      }
      s.set_mask(iteration);
      if (s.active == 0) break;
      // The iteration itself is charged, so even an empty body exhausts the
      // step budget instead of spinning.
      if (!s.charge(loc())) break;
      exec_body(s, body_);
    }
    if (s.returns != returns_before) s.drop_returned(outer);
    s.set_mask(outer);
  }

 private:
  LaneExprPtr from_;
  LaneExprPtr to_;
  LaneBody body_;
  LoopRegs regs_;
};

class ReturnStmt final : public LaneStmt {
 public:
  using LaneStmt::LaneStmt;
  void exec(BatchState& s) const override {
    for (uint32_t l = 0; l < s.lanes; ++l) {
      s.alive[l] &= ~s.mask[l];
      s.mask[l] = 0;
    }
    s.active = 0;
    ++s.returns;
  }
};

class BlockStmt final : public LaneStmt {
 public:
  BlockStmt(LaneBody body, SourceLoc loc)
      : LaneStmt(loc, holds_barrier(body)), body_(std::move(body)) {}
  void exec(BatchState& s) const override { exec_body(s, body_); }

 private:
  LaneBody body_;
};

class BarrierStmt final : public LaneStmt {
 public:
  explicit BarrierStmt(SourceLoc loc) : LaneStmt(loc, true) {}
  void exec(BatchState& s) const override {
    if (s.observers.empty()) return;
    const BarrierEvent event{loc(), std::span<const uint32_t>(s.mask, s.lanes),
                             std::span<const uint32_t>(s.alive, s.lanes)};
    for (Observer* o : s.observers) o->on_barrier(s.view(), event);
  }
};

/// Runs body[first, last) in order for the active lanes, together.
void exec_range(BatchState& s, const LaneBody& body, size_t first, size_t last) {
  for (size_t i = first; i < last; ++i) {
    if (s.active == 0 || s.stop != StopReason::None) return;
    if (!s.charge(body[i]->loc())) return;
    body[i]->exec(s);
  }
}

/// Runs body[first, last), a stretch without a barrier, one lane at a time:
/// each active lane runs the whole stretch alone, in the schedule's lane
/// order, before the next lane starts. The register file, `alive` and the
/// invocation ids are offset to the lane, so every node (its kernels, masks
/// and lane orders) sees a batch of that one lane; memory is shared as ever.
void exec_solo(BatchState& s, const LaneBody& body, size_t first, size_t last) {
  uint32_t* const outer = s.mask;
  uint32_t* const file = s.file;
  uint32_t* const alive = s.alive;
  const uint32_t lanes = s.lanes;
  const std::span<const uint32_t> invocation = s.invocation;
  const uint64_t returns_before = s.returns;
  // Taken before the window: it stays valid while no batch begins.
  const std::span<const uint32_t> order = s.schedule->next_lane_order();
  s.schedule->enter_window();
  for (uint32_t l : order) {
    if (outer[l] == 0) continue;
    s.file = file + l;
    s.alive = alive + l;
    s.lanes = 1;
    if (!invocation.empty()) s.invocation = invocation.subspan(l, 1);
    s.set_mask(outer + l);
    exec_range(s, body, first, last);
    if (s.stop != StopReason::None) break;
  }
  s.schedule->leave_window();
  s.file = file;
  s.alive = alive;
  s.lanes = lanes;
  s.invocation = invocation;
  if (s.returns != returns_before) s.drop_returned(outer);
  s.set_mask(outer);
}

}  // namespace

void exec_body(BatchState& s, const LaneBody& body) {
  // One lane (a one-lane batch, or one lane running alone in a solo
  // stretch, where `file`, `alive` and `invocation` are offset to it):
  // nothing to put out of step.
  if (!s.solo || s.lanes == 1) {
    exec_range(s, body, 0, body.size());
    return;
  }
  // Solo stepping: a statement holding a barrier runs in lockstep (every lane
  // reaches the barrier together, its nested stretches again lane by lane);
  // each maximal stretch between such statements runs one lane at a time.
  size_t i = 0;
  while (i < body.size() && s.active != 0 && s.stop == StopReason::None) {
    size_t end = i;
    while (end < body.size() && !body[end]->has_barrier()) ++end;
    if (end == i) {
      exec_range(s, body, i, i + 1);
      ++i;
    } else {
      exec_solo(s, body, i, end);
      i = end;
    }
  }
}

LaneStmtPtr make_let(Reg slot, LaneExprPtr value, SourceLoc loc) {
  return std::make_unique<LetStmt>(slot, std::move(value), loc);
}
LaneStmtPtr make_assign(Reg slot, LaneExprPtr value, SourceLoc loc) {
  return std::make_unique<AssignStmt>(slot, std::move(value), loc);
}
LaneStmtPtr make_store(uint32_t buffer, uint32_t site, LaneExprPtr index, LaneExprPtr value,
                       SourceLoc loc) {
  return std::make_unique<StoreStmt>(buffer, site, std::move(index), std::move(value), loc);
}
LaneStmtPtr make_if(LaneExprPtr cond, LaneBody then_body, LaneBody otherwise, BranchRegs regs,
                    SourceLoc loc) {
  return std::make_unique<IfStmt>(std::move(cond), std::move(then_body), std::move(otherwise), regs,
                                  loc);
}
LaneStmtPtr make_loop(LaneExprPtr from, LaneExprPtr to, LaneBody body, LoopRegs regs,
                      SourceLoc loc) {
  return std::make_unique<LoopStmt>(std::move(from), std::move(to), std::move(body), regs, loc);
}
LaneStmtPtr make_return(SourceLoc loc) {
  return std::make_unique<ReturnStmt>(loc);
}
LaneStmtPtr make_block(LaneBody body, SourceLoc loc) {
  return std::make_unique<BlockStmt>(std::move(body), loc);
}
LaneStmtPtr make_barrier(SourceLoc loc) {
  return std::make_unique<BarrierStmt>(loc);
}

}  // namespace vyre::reference
