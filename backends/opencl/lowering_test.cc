// The lowering without a device: tables cover every operator and exactly the
// valid casts, the emitted OpenCL C has the hand-written shapes that pin each
// open point of OpenCL C (golden snippets), and programs that cannot be
// lowered are errors with the right status, never a crash.
#include "backends/opencl/lowering.h"

#include <gtest/gtest.h>

#include "backends/clike/buffer_accessor.h"
#include "backends/clike/source_expectations.h"
#include "backends/opencl/opencl_backend.h"
#include "backends/opencl/opencl_c_dialect.h"
#include "spec/ir/builder.h"

namespace vyre::opencl {
namespace {

using namespace vyre::build;

using clike::expect_snippet;

/// The OpenCL C of `p`; the test fails when it does not lower.
std::string source_of(const Program& p) {
  return clike::source_or_test_failure(lower_program(p));
}

const BufferDecl kOut = storage("out", 0, BufferAccess::ReadWrite);

TEST(OpenClTables, DivisionNeverDividesByZeroAndShiftsMaskTheirCount) {
  // S3: x / 0 = x % 0 = 0, and no division by 0 is ever evaluated (CPU traps).
  EXPECT_EQ(clike::expand(opencl_c_dialect().pattern(BinOp::Div), {"a", "b"}),
            "(b == 0u ? 0u : a / max(b, 1u))");
  EXPECT_EQ(clike::expand(opencl_c_dialect().pattern(BinOp::Mod), {"a", "b"}),
            "(b == 0u ? 0u : a % max(b, 1u))");
  EXPECT_EQ(clike::expand(opencl_c_dialect().pattern(BinOp::Shl), {"a", "b"}), "a << (b & 31u)");
  EXPECT_EQ(clike::expand(opencl_c_dialect().pattern(BinOp::Shr), {"a", "b"}), "a >> (b & 31u)");
  // OpenCL C 1.2 has no ctz; clz(0) is tested, not trusted.
  EXPECT_EQ(clike::expand(opencl_c_dialect().pattern(UnOp::Ctz), {"x"}),
            "(x == 0u ? 32u : 31u - clz(x & (0u - x)))");
  EXPECT_EQ(clike::expand(opencl_c_dialect().pattern(UnOp::Clz), {"x"}),
            "(x == 0u ? 32u : clz(x))");
  // u32 <-> i32 reinterpret bits rather than convert out-of-range values.
  EXPECT_EQ(clike::expand(*opencl_c_dialect().cast_pattern(DataType::U32, DataType::I32), {"x"}),
            "as_int(x)");
  EXPECT_EQ(clike::expand(*opencl_c_dialect().cast_pattern(DataType::I32, DataType::U64), {"x"}),
            "((uint2)(as_uint(x), x < 0 ? 0xFFFFFFFFu : 0u))");
}

TEST(OpenClLowering, BoundBuffersAreParametersWithCountsInBindingOrder) {
  const std::string source =
      source_of({{storage("u", 2, BufferAccess::Uniform, DataType::Vec4U32),
                  storage("in", 1, BufferAccess::ReadOnly, DataType::U64), kOut},
                 {64, 2, 1},
                 {store("out", u32(0), cast(DataType::U32, load("u", u32(0)))),
                  store("out", u32(1), cast(DataType::U32, load("in", u32(0))))}});
  expect_snippet(source, "__kernel __attribute__((reqd_work_group_size(64, 2, 1)))");
  expect_snippet(source, "void vyre_main(\n");
  expect_snippet(source, "__global uint* b0,  // out: read_write u32");
  expect_snippet(source, "__global const uint2* b1,  // in: read_only u64");
  expect_snippet(source, "__constant uint4* b2,  // u: uniform vec4u32");
  expect_snippet(source, "uint n2  // element count of b2\n)");
}

TEST(OpenClLowering, EveryAccessIsBoundsChecked) {
  const std::string source =
      source_of({{storage("in", 1, BufferAccess::ReadOnly, DataType::Bool), kOut},
                 {1, 1, 1},
                 {store("out", u32(7), cast(DataType::U32, load("in", invocation_id(0)))),
                  store("out", u32(8), atomic(AtomicOp::Add, "out", u32(9), u32(1))),
                  store("out", u32(10), compare_exchange("out", u32(11), u32(0), u32(5)))}});
  // S5: a load out of bounds yields the zero of the type; Bool loads word != 0.
  expect_snippet(source, "bool t0 = false;\n  if (((uint)get_global_id(0)) < n1) t0 = (b1[");
  expect_snippet(source, "if (7u < n0) b0[7u] = t1;");
  // Atomics yield 0 and write nothing out of bounds; cmpxchg is strong.
  expect_snippet(source, "uint t2 = 0u;\n  if (9u < n0) t2 = atomic_add(&b0[9u], 1u);");
  expect_snippet(source, "if (11u < n0) t3 = atomic_cmpxchg(&b0[11u], 0u, 5u);");
}

TEST(OpenClLowering, WorkgroupMemoryIsZeroedByTheWorkgroupThenFenced) {
  const std::string source =
      source_of({{workgroup("scratch", DataType::Vec2U32, 100), kOut},
                 {8, 4, 1},
                 {store("out", u32(0), cast(DataType::U32, load("scratch", u32(3))))}});
  expect_snippet(source, "__local uint2 w0[100];  // scratch");
  expect_snippet(source, "get_local_id(2) * 32u + get_local_id(1) * 8u + get_local_id(0)");
  expect_snippet(source,
                 "for (uint i = vyre_local_index; i < 100u; i += 32u) w0[i] = (uint2)(0u);");
  expect_snippet(source, "}\n  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n");
}

TEST(OpenClLowering, ExpressionsAreEvaluatedInSpecOrderIntoTemporaries) {
  const std::string source =
      source_of({{kOut},
                 {1, 1, 1},
                 {store("out", u32(0),
                        select(lt(u32(1), u32(2)), atomic(AtomicOp::Add, "out", u32(1), u32(1)),
                               atomic(AtomicOp::Add, "out", u32(2), u32(1))))}});
  // S4: cond, then both arms (each atomic happens), then the pick.
  const size_t cond = source.find("const uint t0 = (1u < 2u ? 1u : 0u);");
  const size_t yes = source.find("atomic_add(&b0[1u], 1u)");
  const size_t no = source.find("atomic_add(&b0[2u], 1u)");
  const size_t pick = source.find("const uint t3 = (t0 != 0u) ? t1 : t2;");
  ASSERT_NE(pick, std::string::npos) << source;
  EXPECT_LT(cond, yes);
  EXPECT_LT(yes, no);
  EXPECT_LT(no, pick);
}

TEST(OpenClLowering, LoopsEvaluateBoundsOnceAndCountIterations) {
  const std::string source = source_of(
      {{kOut}, {1, 1, 1}, {loop("i", u32(2), buflen("out"), {store("out", var("i"), u32(1))})}});
  expect_snippet(source, "const uint t0 = 2u;\n    const uint t1 = n0;\n");
  expect_snippet(source, "uint c2 = t0;\n    for (; c2 < t1; ++c2) {");
  expect_snippet(source, "if (++vyre_iterations > 67108864u) { vyre_control[0] = 1u; break; }");
  expect_snippet(source, "const uint v0_i = c2;");
  expect_snippet(source, "__global uint* vyre_control  // word 0: a loop iteration budget ran out");
}

TEST(OpenClLowering, NegativeI32LiteralsAreWrittenAsTheirBits) {
  const std::string source = source_of(
      {{kOut}, {1, 1, 1}, {store("out", u32(0), cast(DataType::U32, i32(-2147483647 - 1)))}});
  expect_snippet(source, "as_uint(as_int(0x80000000u))");
}

TEST(OpenClLowering, NamesInCommentsCannotContinueTheComment) {
  // A trailing backslash (or the trigraph ??/) would continue a `//` comment.
  const std::string source = source_of(
      {{storage("x\\", 0, BufferAccess::ReadWrite), storage("y\?\?/", 1, BufferAccess::ReadWrite)},
       {1, 1, 1},
       {store("x\\", u32(0), u32(1))}});
  EXPECT_EQ(source.find('\\'), std::string::npos) << source;
  EXPECT_EQ(source.find("?\?/"), std::string::npos) << source;
  EXPECT_EQ(clike::comment_text("a\\b?c/d"), "a_b_c_d");
}

TEST(OpenClLowering, ProgramsWithoutBuffersTakeNoParameters) {
  expect_snippet(source_of({{}, {1, 1, 1}, {ret()}}), "void vyre_main(void) {");
}

TEST(OpenClCompile, TouchesNoDeviceAndReportsStatuses) {
  // An unloadable selector would fail any device use; compile() must not care.
  BackendOptions options;
  options.device = "no such device";
  OpenClBackend backend(options);
  CompileOutcome ok = backend.compile({{kOut}, {4, 1, 1}, {store("out", u32(0), u32(1))}});
  EXPECT_EQ(ok.status, Status::Ok) << ok.message;
  CompileOutcome invalid = backend.compile({{kOut}, {1, 1, 1}, {store("out", u32(0), var("x"))}});
  EXPECT_EQ(invalid.status, Status::CompileError);
  EXPECT_NE(invalid.message.find("invalid program"), std::string::npos) << invalid.message;
  CompileOutcome huge = backend.compile({{kOut}, {0x80000000u, 1, 1}, {}});
  EXPECT_EQ(huge.status, Status::NotSupported) << huge.message;
  EXPECT_NE(huge.message.find("2147483647"), std::string::npos) << huge.message;
}

}  // namespace
}  // namespace vyre::opencl
