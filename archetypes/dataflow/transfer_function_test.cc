#include "archetypes/dataflow/transfer_function.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "reference/interpreter.h"
#include "spec/ir/builder.h"
#include "spec/ir/host_words.h"

namespace vyre::dataflow {
namespace {

using ::testing::HasSubstr;

/// (source_id, current, target, metadata) and the value the spec of the
/// built-in says it must give, written by hand.
struct Row {
  std::array<uint32_t, 4> args;
  uint32_t want;
};

/// Evaluates a transfer function's IR on the interpreter, one invocation per row.
std::vector<uint32_t> eval_ir(const TransferFunction& f, const std::vector<Row>& rows) {
  using namespace vyre::build;
  auto arg = [](uint32_t k) { return load("args", add(mul(invocation_id(0), u32(4)), u32(k))); };
  Program p{
      {storage("args", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
      {1, 1, 1},
      {store("out", invocation_id(0), f.ir({arg(0), arg(1), arg(2), arg(3)}))}};
  std::vector<uint32_t> args;
  for (const Row& r : rows) args.insert(args.end(), r.args.begin(), r.args.end());
  auto run = reference::run(p, {{"args", to_bytes(args)}, {"out", zero_words(rows.size())}},
                            Grid{{static_cast<uint32_t>(rows.size()), 1, 1}});
  EXPECT_TRUE(run.ok()) << run.error().message;
  return run.ok() ? to_words(run->outputs.at("out")) : std::vector<uint32_t>{};
}

void expect_table(const TransferFunction& f, const std::vector<Row>& rows) {
  const std::vector<uint32_t> ir = eval_ir(f, rows);
  ASSERT_EQ(ir.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& a = rows[i].args;
    EXPECT_EQ(f.cpu(a[0], a[1], a[2], a[3]), rows[i].want) << f.name << " cpu row " << i;
    EXPECT_EQ(ir[i], rows[i].want) << f.name << " ir row " << i;
  }
}

TEST(TransferFunction, AllowAllLetsEveryEdgeThrough) {
  expect_table(*make_transfer("allow_all"),
               {{{0, 0, 0, 0}, 1}, {{7, 3, 9, 1}, 1}, {{~0u, ~0u, ~0u, ~0u}, 1}});
}

TEST(TransferFunction, BlockMaskDefaultsToTheSanitizerBit) {
  expect_table(*make_transfer("block_mask"), {{{0, 0, 1, 0}, 1},
                                              {{0, 0, 1, 1}, 0},
                                              {{0, 0, 1, 2}, 1},
                                              {{0, 0, 1, 3}, 0},
                                              {{0, 0, 1, 0xFFFFFFFE}, 1}});
  expect_table(*make_transfer("block_mask", {{"mask", 0xF0}}),
               {{{0, 0, 1, 0x0F}, 1}, {{0, 0, 1, 0x10}, 0}, {{0, 0, 1, 0x80000000}, 1}});
}

TEST(TransferFunction, ForwardOnlyComparesUnsigned) {
  expect_table(
      *make_transfer("forward_only"),
      {{{0, 3, 5, 0}, 1}, {{0, 5, 3, 0}, 0}, {{0, 4, 4, 0}, 0}, {{0, 1, 0x80000000, 0}, 1}});
}

TEST(TransferFunction, UnknownNamesAndParametersAreActionableErrors) {
  auto a = make_transfer("block_everything");
  ASSERT_FALSE(a.ok());
  EXPECT_THAT(a.error().message, HasSubstr("allow_all, block_mask, forward_only"));
  auto b = make_transfer("block_mask", {{"msk", 1}});
  ASSERT_FALSE(b.ok());
  EXPECT_THAT(b.error().message, HasSubstr("no parameter 'msk'"));
  EXPECT_THAT(b.error().message, HasSubstr("use one of: mask"));
  auto c = make_transfer("allow_all", {{"mask", 1}});
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(c.error().message, HasSubstr("takes no parameters"));
}

TEST(TransferFunction, SanitizerAwareness) {
  EXPECT_TRUE(blocks_sanitizers("block_mask", {}));
  EXPECT_TRUE(blocks_sanitizers("block_mask", {{"mask", 3}}));
  EXPECT_FALSE(blocks_sanitizers("block_mask", {{"mask", 2}}));
  EXPECT_FALSE(blocks_sanitizers("allow_all", {}));
  EXPECT_FALSE(blocks_sanitizers("forward_only", {}));
  EXPECT_FALSE(blocks_sanitizers("nope", {}));
  EXPECT_EQ(builtin_transfers().size(), 3u);
}

}  // namespace
}  // namespace vyre::dataflow
