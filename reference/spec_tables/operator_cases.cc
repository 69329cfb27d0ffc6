// Hand-written tables for every BinOp, UnOp and AtomicOp (pinned spec section
// 3, SEMANTICS S3/S5) on the arithmetic archetypes A1-A7, and every AtomicOp
// out of bounds (pinned spec section 5). Each row of
// expected results was derived from the operator's definition and checked
// with a calculator; none comes from the interpreter.
#include <array>
#include <map>

#include "reference/spec_tables/case_builder.h"
#include "reference/spec_tables/table_parts.h"

namespace vyre::reference {
namespace {

using namespace vyre::build;
using spec_tables::guarded;
using spec_tables::make_case;

/// Operand pairs (a, b), by archetype.
constexpr std::array<std::array<uint32_t, 2>, 20> kPairs = {{
    {0, 0},                    // P0  zero
    {1, 1},                    // P1  one; self-inverse
    {0xDEADBEEF, 0},           // P2  right identity; division by zero
    {0, 0xDEADBEEF},           // P3  left identity
    {0xDEADBEEF, 1},           // P4  identity of mul/div
    {0xFFFFFFFF, 1},           // P5  overflow pair
    {0xFFFFFFFF, 0xFFFFFFFF},  // P6  MAX x MAX
    {0x80000000, 0x80000000},  // P7  sign bit, doubled
    {0x80000000, 1},           // P8  sign bit vs unsigned compare
    {1, 31},                   // P9  shift by 31
    {1, 32},                   // P10 shift by 32 (masked to 0)
    {1, 33},                   // P11 shift by 33 (masked to 1)
    {0x80000001, 0xFFFFFFFF},  // P12 shift by MAX (masked to 31)
    {0x55555555, 0xAAAAAAAA},  // P13 bit patterns
    {0xF0F0F0F0, 0x0F0F0F0F},  // P14 bit patterns
    {0xDEADBEEF, 0xCAFEBABE},  // P15 bit patterns
    {0xCAFEBABE, 0xCAFEBABE},  // P16 self-inverse x, x
    {7, 0},                    // P17 division by zero
    {0x7FFFFFFF, 2},           // P18 power of two minus one
    {100, 7},                  // P19 ordinary values
}};

using Row = std::array<uint32_t, 20>;

/// Expected BinOp results, one row per op, columns P0..P19.
const std::map<BinOp, Row>& bin_rows() {
  static const std::map<BinOp, Row> rows = {
      {BinOp::Add,
       {0,  2,  0xDEADBEEF, 0xDEADBEEF, 0xDEADBEF0, 0,          0xFFFFFFFE, 0, 0x80000001, 32,
        33, 34, 0x80000000, 0xFFFFFFFF, 0xFFFFFFFF, 0xA9AC79AD, 0x95FD757C, 7, 0x80000001, 107}},
      {BinOp::Sub,
       {0,          0,          0xDEADBEEF, 0x21524111, 0xDEADBEEE, 0xFFFFFFFE, 0,
        0,          0x7FFFFFFF, 0xFFFFFFE2, 0xFFFFFFE1, 0xFFFFFFE0, 0x80000002, 0xAAAAAAAB,
        0xE1E1E1E1, 0x13AF0431, 0,          7,          0x7FFFFFFD, 93}},
      {BinOp::Mul,
       {0,  1,  0,          0,          0xDEADBEEF, 0xFFFFFFFF, 1,          0, 0x80000000, 31,
        32, 33, 0x7FFFFFFF, 0x71C71C72, 0x6A4C2E10, 0x88CF5B62, 0xF140A504, 0, 0xFFFFFFFE, 700}},
      {BinOp::Div, {0, 1, 0, 0, 0xDEADBEEF, 0xFFFFFFFF, 1, 1, 0x80000000, 0,
                    0, 0, 0, 0, 16,         1,          1, 0, 0x3FFFFFFF, 14}},
      {BinOp::Mod,
       {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0x80000001, 0x55555555, 0, 0x13AF0431, 0, 0, 1, 2}},
      {BinOp::BitAnd, {0, 1, 0,          0, 1, 1,          0xFFFFFFFF, 0x80000000, 0, 1,
                       0, 1, 0x80000001, 0, 0, 0xCAACBAAE, 0xCAFEBABE, 0,          2, 4}},
      {BinOp::BitOr,
       {0,          1,          0xDEADBEEF, 0xDEADBEEF, 0xDEADBEEF, 0xFFFFFFFF, 0xFFFFFFFF,
        0x80000000, 0x80000001, 31,         33,         33,         0xFFFFFFFF, 0xFFFFFFFF,
        0xFFFFFFFF, 0xDEFFBEFF, 0xCAFEBABE, 7,          0x7FFFFFFF, 103}},
      {BinOp::BitXor,
       {0,  0,  0xDEADBEEF, 0xDEADBEEF, 0xDEADBEEE, 0xFFFFFFFE, 0, 0, 0x80000001, 30,
        33, 32, 0x7FFFFFFE, 0xFFFFFFFF, 0xFFFFFFFF, 0x14530451, 0, 7, 0x7FFFFFFD, 99}},
      {BinOp::Shl, {0,          2,          0xDEADBEEF, 0, 0xBD5B7DDE, 0xFFFFFFFE, 0x80000000,
                    0x80000000, 0,          0x80000000, 1, 2,          0x80000000, 0x55555400,
                    0x78780000, 0xC0000000, 0x80000000, 7, 0xFFFFFFFC, 12800}},
      {BinOp::Shr,
       {0, 0, 0xDEADBEEF, 0,          0x6F56DF77, 0x7FFFFFFF, 1, 0x80000000, 0x40000000, 0,
        1, 0, 1,          0x00155555, 0x0001E1E1, 3,          3, 7,          0x1FFFFFFF, 0}},
      {BinOp::Eq, {1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0}},
      {BinOp::Ne, {0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1}},
      {BinOp::Lt, {0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0}},
      {BinOp::Gt, {0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 1}},
      {BinOp::Le, {1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0, 0}},
      {BinOp::Ge, {1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1}},
      {BinOp::And, {0, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1}},
      {BinOp::Or, {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
  };
  return rows;
}

/// UnOp operands.
constexpr std::array<uint32_t, 16> kUnary = {
    0,          1,          2,          0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF, 0x55555555,
    0xAAAAAAAA, 0xF0F0F0F0, 0x0F0F0F0F, 0xDEADBEEF, 0xCAFEBABE, 0x00010000, 31,         32};

using UnRow = std::array<uint32_t, 16>;

const std::map<UnOp, UnRow>& un_rows() {
  static const std::map<UnOp, UnRow> rows = {
      {UnOp::Negate,
       {0, 0xFFFFFFFF, 0xFFFFFFFE, 0x80000001, 0x80000000, 0x7FFFFFFF, 1, 0xAAAAAAAB, 0x55555556,
        0x0F0F0F10, 0xF0F0F0F1, 0x21524111, 0x35014542, 0xFFFF0000, 0xFFFFFFE1, 0xFFFFFFE0}},
      {UnOp::BitNot,
       {0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0x80000000, 0x7FFFFFFF, 0x7FFFFFFE, 0, 0xAAAAAAAA,
        0x55555555, 0x0F0F0F0F, 0xF0F0F0F0, 0x21524110, 0x35014541, 0xFFFEFFFF, 0xFFFFFFE0,
        0xFFFFFFDF}},
      {UnOp::LogicalNot, {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
      {UnOp::Popcount, {0, 1, 1, 31, 1, 2, 32, 16, 16, 16, 16, 24, 22, 1, 5, 1}},
      {UnOp::Clz, {32, 31, 30, 1, 0, 0, 0, 1, 0, 0, 4, 0, 0, 15, 27, 26}},
      {UnOp::Ctz, {32, 0, 1, 0, 31, 0, 0, 0, 1, 4, 0, 0, 1, 16, 0, 5}},
      {UnOp::ReverseBits,
       {0, 0x80000000, 0x40000000, 0xFFFFFFFE, 1, 0x80000001, 0xFFFFFFFF, 0xAAAAAAAA, 0x55555555,
        0x0F0F0F0F, 0xF0F0F0F0, 0xF77DB57B, 0x7D5D7F53, 0x00008000, 0xF8000000, 0x04000000}},
  };
  return rows;
}

std::vector<uint32_t> column(size_t k) {
  std::vector<uint32_t> out;
  for (const auto& p : kPairs) out.push_back(p[k]);
  return out;
}

std::vector<uint32_t> as_vector(const Row& row) {
  return {row.begin(), row.end()};
}

TestCase bin_case(BinOp op, const Row& expected) {
  std::vector<uint32_t> pairs;
  for (const auto& p : kPairs) pairs.insert(pairs.end(), p.begin(), p.end());
  const ExprPtr i = invocation_id(0);
  Program p{
      {storage("pairs", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
      {spec_tables::kTableWorkgroupSize, 1, 1},
      {guarded("out", {store("out", i,
                             binary(op, load("pairs", mul(i, u32(2))),
                                    load("pairs", add(mul(i, u32(2)), u32(1)))))})}};
  return make_case("spec/binop/" + std::string(name_of(op)), std::move(p),
                   spec_tables::grid_for(kPairs.size()),
                   {{"pairs", to_bytes(pairs)}, {"out", zero_words(kPairs.size())}},
                   {{"out", to_bytes(as_vector(expected))}});
}

TestCase un_case(UnOp op, const UnRow& expected) {
  const ExprPtr i = invocation_id(0);
  Program p{{storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
            {spec_tables::kTableWorkgroupSize, 1, 1},
            {guarded("out", {store("out", i, unary(op, load("in", i)))})}};
  return make_case(
      "spec/unop/" + std::string(name_of(op)), std::move(p), spec_tables::grid_for(kUnary.size()),
      {{"in", to_bytes({kUnary.begin(), kUnary.end()})}, {"out", zero_words(kUnary.size())}},
      {{"out", to_bytes({expected.begin(), expected.end()})}});
}

/// CompareExchange's `expected` operand: equal to the old value on even rows
/// (the exchange happens), off by one bit on odd rows (it does not).
std::vector<uint32_t> compare_exchange_expected() {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < kPairs.size(); ++i)
    out.push_back(i % 2 == 0 ? kPairs[i][0] : kPairs[i][0] ^ 1u);
  return out;
}

/// Memory after each AtomicOp applies b to old a, columns P0..P19.
const std::map<AtomicOp, Row>& atomic_rows() {
  static const std::map<AtomicOp, Row> rows = {
      {AtomicOp::Add, bin_rows().at(BinOp::Add)},
      {AtomicOp::Or, bin_rows().at(BinOp::BitOr)},
      {AtomicOp::And, bin_rows().at(BinOp::BitAnd)},
      {AtomicOp::Xor, bin_rows().at(BinOp::BitXor)},
      {AtomicOp::Min,
       {0, 1, 0,          0,          1,          1,          0xFFFFFFFF, 0x80000000, 1, 1,
        1, 1, 0x80000001, 0x55555555, 0x0F0F0F0F, 0xCAFEBABE, 0xCAFEBABE, 0,          2, 7}},
      {AtomicOp::Max,
       {0,          1,          0xDEADBEEF, 0xDEADBEEF, 0xDEADBEEF, 0xFFFFFFFF, 0xFFFFFFFF,
        0x80000000, 0x80000000, 31,         32,         33,         0xFFFFFFFF, 0xAAAAAAAA,
        0xF0F0F0F0, 0xDEADBEEF, 0xCAFEBABE, 7,          0x7FFFFFFF, 100}},
      {AtomicOp::Exchange,
       {0,  1,  0,          0xDEADBEEF, 1,          1,          0xFFFFFFFF, 0x80000000, 1, 31,
        32, 33, 0xFFFFFFFF, 0xAAAAAAAA, 0x0F0F0F0F, 0xCAFEBABE, 0xCAFEBABE, 0,          2, 7}},
      // Even rows exchange (memory becomes b), odd rows keep a.
      {AtomicOp::CompareExchange,
       {0,  1, 0,          0,          1,          0xFFFFFFFF, 0xFFFFFFFF, 0x80000000, 1, 1,
        32, 1, 0xFFFFFFFF, 0x55555555, 0x0F0F0F0F, 0xDEADBEEF, 0xCAFEBABE, 7,          2, 100}},
  };
  return rows;
}

TestCase atomic_case(AtomicOp op, const Row& memory_after) {
  const ExprPtr i = invocation_id(0);
  const bool cas = op == AtomicOp::CompareExchange;
  const ExprPtr rmw = cas ? compare_exchange("target", i, load("expected", i), load("value", i))
                          : atomic(op, "target", i, load("value", i));
  Program p{
      {storage("target", 0, BufferAccess::ReadWrite), storage("value", 1, BufferAccess::ReadOnly),
       storage("expected", 2, BufferAccess::ReadOnly), storage("old", 3, BufferAccess::ReadWrite)},
      {spec_tables::kTableWorkgroupSize, 1, 1},
      {guarded("old", {store("old", i, rmw)})}};
  // Every atomic returns the value before it: the `a` column.
  return make_case("spec/atomic/" + std::string(name_of(op)), std::move(p),
                   spec_tables::grid_for(kPairs.size()),
                   {{"target", to_bytes(column(0))},
                    {"value", to_bytes(column(1))},
                    {"expected", to_bytes(cas ? compare_exchange_expected() : column(0))},
                    {"old", zero_words(kPairs.size())}},
                   {{"target", to_bytes(as_vector(memory_after))}, {"old", to_bytes(column(0))}});
}

/// Out-of-bounds atomic rows (S5): the index of each row, all past the
/// 4-element target: len, MAX, len, MAX, len + 1, and 0x40000000, whose byte
/// offset 4 * 0x40000000 wraps to element 0 in 32-bit address arithmetic.
constexpr std::array<uint32_t, 6> kOobIndex = {4, 0xFFFFFFFF, 4, 0xFFFFFFFF, 5, 0x40000000};

/// The target of the out-of-bounds rows. No element is 0 or MAX, so every
/// row's operand below would change whichever element a backend hit by
/// clamping or wrapping the index.
constexpr std::array<uint32_t, 4> kOobTarget = {0x11111111, 0x22222222, 0x33333333, 0x44444444};

/// One word per out-of-bounds row.
using OobRow = std::array<uint32_t, kOobIndex.size()>;

/// Each AtomicOp's `value` operand on the out-of-bounds rows. Add, Xor and
/// Exchange: non-zero and no target element. Or and Max: the top bit, which
/// no target element has. And and Min: values below every element that also
/// clear at least one bit of each element.
const std::map<AtomicOp, OobRow>& oob_values() {
  static const OobRow kChanges = {1, 0xFFFFFFFF, 0x80000000, 0xDEADBEEF, 2, 3};
  static const OobRow kTopBit = {0xFFFFFFFF, 0x80000000, 0xF0000000,
                                 0x80000000, 0xFFFFFFFF, 0x80000001};
  static const OobRow kLow = {0, 1, 0x10000000, 0, 1, 0};
  static const std::map<AtomicOp, OobRow> rows = {
      {AtomicOp::Add, kChanges},
      {AtomicOp::Xor, kChanges},
      {AtomicOp::Exchange, kChanges},
      {AtomicOp::CompareExchange,
       {0xC0FFEE00, 0xC0FFEE01, 0xC0FFEE02, 0xC0FFEE03, 0xC0FFEE04, 0xC0FFEE05}},
      {AtomicOp::Or, kTopBit},
      {AtomicOp::Max, kTopBit},
      {AtomicOp::And, kLow},
      {AtomicOp::Min, kLow},
  };
  return rows;
}

/// CompareExchange's `expected` on the out-of-bounds rows: the element a
/// backend would hit by clamping to len - 1 (rows 0, 1), by taking the index
/// mod len (rows 2, 4) or by wrapping to the start (rows 3, 5), so that such
/// a backend would exchange.
constexpr OobRow kOobExpected = {0x44444444, 0x44444444, 0x11111111,
                                 0x11111111, 0x22222222, 0x11111111};

TestCase atomic_out_of_bounds_case(AtomicOp op) {
  const ExprPtr i = invocation_id(0);
  const bool cas = op == AtomicOp::CompareExchange;
  const ExprPtr index = load("index", i);
  const ExprPtr rmw = cas ? compare_exchange("target", index, load("expected", i), load("value", i))
                          : atomic(op, "target", index, load("value", i));
  Program p{
      {storage("target", 0, BufferAccess::ReadWrite), storage("index", 1, BufferAccess::ReadOnly),
       storage("value", 2, BufferAccess::ReadOnly), storage("expected", 3, BufferAccess::ReadOnly),
       storage("old", 4, BufferAccess::ReadWrite)},
      {spec_tables::kTableWorkgroupSize, 1, 1},
      {guarded("old", {store("old", i, rmw)})}};
  const OobRow& value = oob_values().at(op);
  // S5: an out-of-bounds atomic returns 0 and writes nothing, so `old` is all
  // zeros (the parity run poisons it first) and `target` keeps its bytes.
  return make_case("spec/atomic_oob/" + std::string(name_of(op)), std::move(p),
                   spec_tables::grid_for(kOobIndex.size()),
                   {{"target", to_bytes({kOobTarget.begin(), kOobTarget.end()})},
                    {"index", to_bytes({kOobIndex.begin(), kOobIndex.end()})},
                    {"value", to_bytes({value.begin(), value.end()})},
                    {"expected", to_bytes({kOobExpected.begin(), kOobExpected.end()})},
                    {"old", zero_words(kOobIndex.size())}},
                   {{"target", to_bytes({kOobTarget.begin(), kOobTarget.end()})},
                    {"old", zero_words(kOobIndex.size())}});
}

}  // namespace

/// Operator cases; cast cells are appended by cast_cases.cc.
std::vector<TestCase> operator_cases() {
  std::vector<TestCase> out;
  for (BinOp op : all_bin_ops()) out.push_back(bin_case(op, bin_rows().at(op)));
  for (UnOp op : all_un_ops()) out.push_back(un_case(op, un_rows().at(op)));
  for (AtomicOp op : all_atomic_ops()) out.push_back(atomic_case(op, atomic_rows().at(op)));
  for (AtomicOp op : all_atomic_ops()) out.push_back(atomic_out_of_bounds_case(op));
  return out;
}

}  // namespace vyre::reference
