#include "reference/exec/lane_expr.h"

#include <array>
#include <cstring>
#include <utility>

#include "reference/exec/memory_access.h"
#include "reference/ops/scalar_ops.h"

namespace vyre::reference {
namespace {

using BinKernel = void (*)(const uint32_t* a, const uint32_t* b, uint32_t* out, uint32_t n);
using UnKernel = void (*)(const uint32_t* x, uint32_t* out, uint32_t n);

// Lane kernels instantiate the scalar_ops.h functions, so the interpreter and
// the CPU reference cannot disagree; the function is inlined into the loop.
template <BinFn F>
void binary_kernel(const uint32_t* a, const uint32_t* b, uint32_t* out, uint32_t n) {
  for (uint32_t l = 0; l < n; ++l) out[l] = F(a[l], b[l]);
}
template <UnFn F>
void unary_kernel(const uint32_t* x, uint32_t* out, uint32_t n) {
  for (uint32_t l = 0; l < n; ++l) out[l] = F(x[l]);
}

constexpr std::array<BinKernel, 18> kBinKernels = {
#define X(e, name, doc) &binary_kernel<&bin_op::e>,
#include "spec/ir/bin_ops.def"
#undef X
};
constexpr std::array<UnKernel, 7> kUnKernels = {
#define X(e, name, doc) &unary_kernel<&un_op::e>,
#include "spec/ir/un_ops.def"
#undef X
};

/// Copies a value of `words` words between registers for the batch's lanes.
void copy_value(const BatchState& s, const uint32_t* from, uint32_t* to, uint32_t words) {
  for (uint32_t k = 0; k < words; ++k) {
    std::memcpy(to + size_t{k} * s.width, from + size_t{k} * s.width, s.lanes * sizeof(uint32_t));
  }
}

class RegisterRead final : public LaneExpr {
 public:
  RegisterRead(DataType type, Reg reg, SourceLoc loc) : LaneExpr(type, loc), reg_(reg) {}
  const uint32_t* eval(BatchState& s) const override {
    s.count_node();
    return s.at(reg_);
  }

 private:
  Reg reg_;
};

class LoadExpr final : public LaneExpr {
 public:
  LoadExpr(DataType type, uint32_t buffer, uint32_t site, LaneExprPtr index, Reg dest,
           SourceLoc loc)
      : LaneExpr(type, loc), buffer_(buffer), site_(site), index_(std::move(index)), dest_(dest) {}

  const uint32_t* eval(BatchState& s) const override {
    const uint32_t* index = index_->eval(s);
    uint32_t* out = s.at(dest_);
    s.count_node();
    const uint64_t oob = load_all_lanes(s, index, out);
    s.oob.loads += oob;
    const BufferMemory& b = s.buffers[buffer_];
    if (!s.observers.empty() && (b.watched || oob > 0)) report(s, index);
    if (b.is_bool) {
      for (uint32_t l = 0; l < s.lanes; ++l) out[l] = out[l] != 0 ? 1u : 0u;
    }
    return out;
  }

 private:
  /// Loads on every lane (inactive ones too, harmlessly: the index is
  /// bounds-checked and the value unused); returns the active lanes that
  /// were out of bounds.
  uint64_t load_all_lanes(const BatchState& s, const uint32_t* index, uint32_t* out) const {
    const BufferMemory& b = s.buffers[buffer_];
    const uint32_t m = b.words_per_element;
    uint64_t oob = 0;
    if (m == 1) {
      for (uint32_t l = 0; l < s.lanes; ++l) {
        const uint32_t i = index[l];
        const bool in = i < b.elements;
        oob += static_cast<uint64_t>(!in) & s.mask[l] & 1u;
        out[l] = in ? b.word(i) : 0u;
      }
      return oob;
    }
    for (uint32_t l = 0; l < s.lanes; ++l) {
      const uint32_t i = index[l];
      const bool in = i < b.elements;
      oob += static_cast<uint64_t>(!in) & s.mask[l] & 1u;
      for (uint32_t k = 0; k < m; ++k) {
        out[size_t{k} * s.width + l] = in ? b.word(size_t{i} * m + k) : 0u;
      }
    }
    return oob;
  }

  /// Tells observers of the active lanes' accesses (loads do not depend on
  /// their order: nothing changes memory during one Load).
  void report(BatchState& s, const uint32_t* index) const {
    const BufferMemory& b = s.buffers[buffer_];
    AccessRecorder recorder(s, buffer_, site_, AccessKind::Read, loc());
    for (uint32_t l = 0; l < s.lanes; ++l) {
      if (s.mask[l] == 0) continue;
      if (index[l] < b.elements) {
        recorder.in_bounds(l, index[l]);
      } else {
        recorder.out_of_bounds(l, index[l]);
      }
    }
    recorder.flush();
  }

  uint32_t buffer_;
  uint32_t site_;
  LaneExprPtr index_;
  Reg dest_;
};

class BinaryExpr final : public LaneExpr {
 public:
  BinaryExpr(BinOp op, LaneExprPtr left, LaneExprPtr right, Reg dest, SourceLoc loc)
      : LaneExpr(DataType::U32, loc),
        kernel_(kBinKernels[static_cast<size_t>(op)]),
        left_(std::move(left)),
        right_(std::move(right)),
        dest_(dest) {}

  const uint32_t* eval(BatchState& s) const override {
    const uint32_t* a = left_->eval(s);
    const uint32_t* b = right_->eval(s);
    uint32_t* out = s.at(dest_);
    s.count_node();
    kernel_(a, b, out, s.lanes);
    return out;
  }

 private:
  BinKernel kernel_;
  LaneExprPtr left_;
  LaneExprPtr right_;
  Reg dest_;
};

class UnaryExpr final : public LaneExpr {
 public:
  UnaryExpr(UnOp op, LaneExprPtr operand, Reg dest, SourceLoc loc)
      : LaneExpr(DataType::U32, loc),
        kernel_(kUnKernels[static_cast<size_t>(op)]),
        operand_(std::move(operand)),
        dest_(dest) {}

  const uint32_t* eval(BatchState& s) const override {
    const uint32_t* x = operand_->eval(s);
    uint32_t* out = s.at(dest_);
    s.count_node();
    kernel_(x, out, s.lanes);
    return out;
  }

 private:
  UnKernel kernel_;
  LaneExprPtr operand_;
  Reg dest_;
};

class SelectExpr final : public LaneExpr {
 public:
  SelectExpr(LaneExprPtr cond, LaneExprPtr if_true, LaneExprPtr if_false, Reg dest, SourceLoc loc)
      : LaneExpr(if_true->type(), loc),
        cond_(std::move(cond)),
        if_true_(std::move(if_true)),
        if_false_(std::move(if_false)),
        dest_(dest) {}

  const uint32_t* eval(BatchState& s) const override {
    // Both arms always run (pinned spec section 2): an atomic in either happens.
    const uint32_t* c = cond_->eval(s);
    const uint32_t* t = if_true_->eval(s);
    const uint32_t* f = if_false_->eval(s);
    uint32_t* out = s.at(dest_);
    s.count_node();
    for (uint32_t k = 0; k < words(); ++k) {
      const size_t off = size_t{k} * s.width;
      for (uint32_t l = 0; l < s.lanes; ++l) out[off + l] = truthy(c[l]) ? t[off + l] : f[off + l];
    }
    return out;
  }

 private:
  LaneExprPtr cond_;
  LaneExprPtr if_true_;
  LaneExprPtr if_false_;
  Reg dest_;
};

class CastExpr final : public LaneExpr {
 public:
  CastExpr(DataType target, const CastRecipe& recipe, LaneExprPtr value, Reg dest, SourceLoc loc)
      : LaneExpr(target, loc), recipe_(recipe), value_(std::move(value)), dest_(dest) {}

  const uint32_t* eval(BatchState& s) const override {
    const uint32_t* v = value_->eval(s);
    uint32_t* out = s.at(dest_);
    s.count_node();
    const uint32_t source_words = value_->words();
    for (uint32_t l = 0; l < s.lanes; ++l) {
      ValueWords in = {0, 0, 0, 0};
      for (uint32_t k = 0; k < source_words; ++k) in[k] = v[size_t{k} * s.width + l];
      const ValueWords result = apply_cast(recipe_, in, source_words);
      for (uint32_t k = 0; k < words(); ++k) out[size_t{k} * s.width + l] = result[k];
    }
    return out;
  }

 private:
  CastRecipe recipe_;
  LaneExprPtr value_;
  Reg dest_;
};

class AtomicExpr final : public LaneExpr {
 public:
  AtomicExpr(AtomicOp op, uint32_t buffer, uint32_t site, LaneExprPtr index, LaneExprPtr expected,
             LaneExprPtr value, Reg dest, SourceLoc loc)
      : LaneExpr(DataType::U32, loc),
        op_(op),
        buffer_(buffer),
        site_(site),
        index_(std::move(index)),
        expected_(std::move(expected)),
        value_(std::move(value)),
        dest_(dest) {}

  const uint32_t* eval(BatchState& s) const override {
    // Index, expected, value in that order (pinned spec section 2).
    const uint32_t* index = index_->eval(s);
    const uint32_t* expected = expected_ ? expected_->eval(s) : nullptr;
    const uint32_t* value = value_->eval(s);
    uint32_t* out = s.at(dest_);
    s.count_node();
    const BufferMemory& b = s.buffers[buffer_];
    const bool observed = !s.observers.empty();
    AccessRecorder recorder(s, buffer_, site_, AccessKind::Atomic, loc());
    // Lanes apply one at a time in the schedule's order: sequentially consistent.
    for (uint32_t l : s.schedule->next_lane_order()) {
      out[l] = 0;
      if (s.mask[l] == 0) continue;
      const uint32_t i = index[l];
      if (i >= b.elements) {
        ++s.oob.atomics;
        if (observed) recorder.out_of_bounds(l, i);
        continue;
      }
      const uint32_t old = b.word(i);
      b.set_word(i, apply(op_, old, expected ? expected[l] : 0u, value[l]));
      out[l] = old;
      if (observed) recorder.in_bounds(l, i);
    }
    if (observed) recorder.flush();
    return out;
  }

 private:
  AtomicOp op_;
  uint32_t buffer_;
  uint32_t site_;
  LaneExprPtr index_;
  LaneExprPtr expected_;
  LaneExprPtr value_;
  Reg dest_;
};

class InlinedCallExpr final : public LaneExpr {
 public:
  InlinedCallExpr(std::vector<LaneExprPtr> args, std::vector<Reg> params, LaneExprPtr body,
                  Reg dest, SourceLoc loc)
      : LaneExpr(body->type(), loc),
        args_(std::move(args)),
        params_(std::move(params)),
        body_(std::move(body)),
        dest_(dest) {}

  const uint32_t* eval(BatchState& s) const override {
    // Each argument is evaluated once, left to right, before the composition.
    for (size_t i = 0; i < args_.size(); ++i) {
      copy_value(s, args_[i]->eval(s), s.at(params_[i]), args_[i]->words());
    }
    const uint32_t* result = body_->eval(s);
    uint32_t* out = s.at(dest_);
    s.count_node();
    copy_value(s, result, out, words());
    return out;
  }

 private:
  std::vector<LaneExprPtr> args_;
  std::vector<Reg> params_;
  LaneExprPtr body_;
  Reg dest_;
};

}  // namespace

LaneExprPtr make_register_read(DataType type, Reg reg, SourceLoc loc) {
  return std::make_unique<RegisterRead>(type, reg, loc);
}
LaneExprPtr make_load(DataType type, uint32_t buffer, uint32_t site, LaneExprPtr index, Reg dest,
                      SourceLoc loc) {
  return std::make_unique<LoadExpr>(type, buffer, site, std::move(index), dest, loc);
}
LaneExprPtr make_binary(BinOp op, LaneExprPtr left, LaneExprPtr right, Reg dest, SourceLoc loc) {
  return std::make_unique<BinaryExpr>(op, std::move(left), std::move(right), dest, loc);
}
LaneExprPtr make_unary(UnOp op, LaneExprPtr operand, Reg dest, SourceLoc loc) {
  return std::make_unique<UnaryExpr>(op, std::move(operand), dest, loc);
}
LaneExprPtr make_select(LaneExprPtr cond, LaneExprPtr if_true, LaneExprPtr if_false, Reg dest,
                        SourceLoc loc) {
  return std::make_unique<SelectExpr>(std::move(cond), std::move(if_true), std::move(if_false),
                                      dest, loc);
}
LaneExprPtr make_cast(DataType target, const CastRecipe& recipe, LaneExprPtr value, Reg dest,
                      SourceLoc loc) {
  return std::make_unique<CastExpr>(target, recipe, std::move(value), dest, loc);
}
LaneExprPtr make_atomic(AtomicOp op, uint32_t buffer, uint32_t site, LaneExprPtr index,
                        LaneExprPtr expected, LaneExprPtr value, Reg dest, SourceLoc loc) {
  return std::make_unique<AtomicExpr>(op, buffer, site, std::move(index), std::move(expected),
                                      std::move(value), dest, loc);
}
LaneExprPtr make_inlined_call(std::vector<LaneExprPtr> args, std::vector<Reg> params,
                              LaneExprPtr body, Reg dest, SourceLoc loc) {
  return std::make_unique<InlinedCallExpr>(std::move(args), std::move(params), std::move(body),
                                           dest, loc);
}

}  // namespace vyre::reference
