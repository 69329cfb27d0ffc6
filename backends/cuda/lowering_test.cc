// The CUDA lowering without a device: tables cover every operator and exactly
// the valid casts, whole kernels of spec/examples match hand-written CUDA C
// (testdata/*.cu), the spellings that pin each open point of CUDA C are
// checked as snippets, and programs that cannot be lowered are errors with
// the right status, never a crash.
#include "backends/cuda/lowering.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "backends/clike/source_expectations.h"
#include "backends/cuda/cuda_c_dialect.h"
#include "spec/ir/builder.h"
#include "spec/text/text_format.h"

namespace vyre::cuda {
namespace {

using namespace vyre::build;

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot read " << path;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

using clike::expect_snippet;

/// The CUDA C of `p`; the test fails when it does not lower.
std::string source_of(const Program& p) {
  return clike::source_or_test_failure(lower_program(p));
}

std::string expand_of(std::string_view pattern, std::initializer_list<std::string_view> args) {
  return clike::expand(pattern, args);
}

const BufferDecl kOut = storage("out", 0, BufferAccess::ReadWrite);

TEST(CudaTables, NoPatternUsesASwizzleOrAVectorLiteralCudaLacks) {
  // uint2/uint4 have .x .y .z .w only: no .xy, no (uint2)(...) casts.
  for (DataType from : all_data_types()) {
    for (DataType to : all_data_types()) {
      const auto pattern = cuda_c_dialect().cast_pattern(from, to);
      if (!pattern) continue;
      EXPECT_EQ(pattern->find(".xy"), std::string::npos) << *pattern;
      EXPECT_EQ(pattern->find("(uint"), std::string::npos) << *pattern;
    }
  }
}

TEST(CudaTables, OperatorsFollowS3WithCudaIntrinsics) {
  const clike::Dialect& d = cuda_c_dialect();
  EXPECT_EQ(expand_of(d.pattern(BinOp::Div), {"a", "b"}), "(b == 0u ? 0u : a / max(b, 1u))");
  EXPECT_EQ(expand_of(d.pattern(BinOp::Mod), {"a", "b"}), "(b == 0u ? 0u : a % max(b, 1u))");
  EXPECT_EQ(expand_of(d.pattern(BinOp::Shl), {"a", "b"}), "a << (b & 31u)");
  EXPECT_EQ(expand_of(d.pattern(BinOp::Shr), {"a", "b"}), "a >> (b & 31u)");
  EXPECT_EQ(expand_of(d.pattern(BinOp::Le), {"a", "b"}), "(a <= b ? 1u : 0u)");
  EXPECT_EQ(expand_of(d.pattern(UnOp::LogicalNot), {"x"}), "(x == 0u ? 1u : 0u)");
  // __clz and __ffs take int; Clz(0) and Ctz(0) are 32 by an explicit test.
  EXPECT_EQ(expand_of(d.pattern(UnOp::Clz), {"x"}),
            "(x == 0u ? 32u : (unsigned int)__clz((int)x))");
  EXPECT_EQ(expand_of(d.pattern(UnOp::Ctz), {"x"}),
            "(x == 0u ? 32u : (unsigned int)__ffs((int)x) - 1u)");
  EXPECT_EQ(expand_of(d.pattern(UnOp::Popcount), {"x"}), "(unsigned int)__popc(x)");
  EXPECT_EQ(expand_of(d.pattern(UnOp::ReverseBits), {"x"}), "__brev(x)");
  EXPECT_EQ(expand_of(*d.cast_pattern(DataType::I32, DataType::U64), {"x"}),
            "make_uint2((unsigned int)x, x < 0 ? 0xFFFFFFFFu : 0u)");
  EXPECT_EQ(expand_of(*d.cast_pattern(DataType::Vec4U32, DataType::Vec2U32), {"v"}),
            "make_uint2(v.x, v.y)");
  EXPECT_EQ(expand_of(*d.cast_pattern(DataType::U64, DataType::U32), {"v"}), "v.x");
}

/// The example `name` of spec/examples lowered, against testdata/`name`.cu.
void expect_golden(const std::string& name) {
  const std::filesystem::path root(VYRE_SOURCE_DIR);
  const Result<Program> program =
      parse_program(read_file(root / "spec" / "examples" / (name + ".vyre")));
  ASSERT_TRUE(program.ok()) << program.error().message;
  EXPECT_EQ(source_of(*program), read_file(root / "backends/cuda/testdata" / (name + ".cu")));
}

TEST(CudaGolden, HistogramIsGuardedAtomicAdds) {
  expect_golden("histogram");
}

TEST(CudaGolden, WorkgroupSumZeroesSharedMemoryAndSynchronisesTheBlock) {
  expect_golden("workgroup_sum");
}

TEST(CudaLowering, BoundBuffersAreParametersWithCountsInBindingOrder) {
  const std::string source =
      source_of({{storage("u", 2, BufferAccess::Uniform, DataType::Vec4U32),
                  storage("in", 1, BufferAccess::ReadOnly, DataType::U64), kOut},
                 {8, 4, 2},
                 {store("out", u32(0), cast(DataType::U32, load("u", u32(0)))),
                  store("out", u32(1), cast(DataType::U32, load("in", u32(0))))}});
  expect_snippet(source, "extern \"C\" __global__ void __launch_bounds__(64) vyre_main(\n");
  expect_snippet(source, "    unsigned int* b0,  // out: read_write u32\n");
  expect_snippet(source, "    const uint2* b1,  // in: read_only u64\n");
  expect_snippet(source, "    const uint4* b2,  // u: uniform vec4u32\n");
  expect_snippet(source, "    unsigned int n2  // element count of b2\n) {");
  expect_snippet(source, "uint4 t0 = make_uint4(0u, 0u, 0u, 0u);\n  if (0u < n2) t0 = b2[0u];");
}

TEST(CudaLowering, AtomicsTakeTheElementsAddressAndAreGuarded) {
  const std::string source =
      source_of({{kOut},
                 {1, 1, 1},
                 {store("out", u32(7), atomic(AtomicOp::Max, "out", u32(9), u32(1))),
                  store("out", u32(10), compare_exchange("out", u32(11), u32(0), u32(5))),
                  store("out", u32(12), atomic(AtomicOp::Exchange, "out", u32(13), u32(6)))}});
  expect_snippet(source, "unsigned int t0 = 0u;\n  if (9u < n0) t0 = atomicMax(&b0[9u], 1u);");
  // atomicCAS(address, compare, value): the expected value comes first.
  expect_snippet(source, "if (11u < n0) t1 = atomicCAS(&b0[11u], 0u, 5u);");
  expect_snippet(source, "if (13u < n0) t2 = atomicExch(&b0[13u], 6u);");
}

TEST(CudaLowering, IdsComeFromTheBlockAndThreadIndices) {
  const std::string source = source_of(
      {{kOut},
       {2, 2, 2},
       {store("out", invocation_id(2), workgroup_id(1)), store("out", local_id(0), u32(1))}});
  expect_snippet(source,
                 "if ((blockIdx.z * blockDim.z + threadIdx.z) < n0) b0[(blockIdx.z * "
                 "blockDim.z + threadIdx.z)] = blockIdx.y;");
  expect_snippet(source, "if (threadIdx.x < n0) b0[threadIdx.x] = 1u;");
}

TEST(CudaLowering, VectorsAndBoolsAreBuiltWithoutSwizzles) {
  const std::string source =
      source_of({{storage("v", 1, BufferAccess::ReadOnly, DataType::Vec4U32),
                  storage("flags", 2, BufferAccess::ReadWrite, DataType::Bool),
                  storage("pairs", 3, BufferAccess::ReadWrite, DataType::Vec2U32), kOut},
                 {1, 1, 1},
                 {store("pairs", u32(0), cast(DataType::Vec2U32, load("v", u32(0)))),
                  store("flags", u32(0), boolean(true)),
                  store("out", u32(0), cast(DataType::U32, load("flags", u32(1))))}});
  expect_snippet(source, "const uint2 t1 = make_uint2(t0.x, t0.y);");
  expect_snippet(source, "if (0u < n2) b2[0u] = (true ? 1u : 0u);");
  expect_snippet(source, "bool t2 = false;\n  if (1u < n2) t2 = (b2[1u] != 0u);");
}

TEST(CudaLowering, NegativeI32LiteralsAreWrittenAsTheirBits) {
  const std::string source = source_of(
      {{kOut}, {1, 1, 1}, {store("out", u32(0), cast(DataType::U32, i32(-2147483647 - 1)))}});
  expect_snippet(source, "((unsigned int)((int)0x80000000u))");
}

TEST(CudaLowering, ProgramsWithoutBuffersTakeNoParameters) {
  expect_snippet(source_of({{}, {1, 1, 1}, {ret()}}),
                 "__global__ void __launch_bounds__(1) vyre_main(void) {");
}

TEST(CudaLowering, TheBackendsLoweringReportsStatuses) {
  LoweringOutcome ok = lower_for_backend({{kOut}, {4, 1, 1}, {store("out", u32(0), u32(1))}}, 0);
  EXPECT_EQ(ok.status, Status::Ok) << ok.message;
  EXPECT_EQ(ok.kernel.iface.parameter_count(), 2u);
  LoweringOutcome invalid =
      lower_for_backend({{kOut}, {1, 1, 1}, {store("out", u32(0), var("x"))}}, 0);
  EXPECT_EQ(invalid.status, Status::CompileError);
  EXPECT_NE(invalid.message.find("invalid program"), std::string::npos) << invalid.message;
  // 65536 * 65536 invocations: valid IR, but no __launch_bounds__ names it.
  LoweringOutcome huge = lower_for_backend({{kOut}, {65536, 65536, 1}, {}}, 0);
  EXPECT_EQ(huge.status, Status::NotSupported) << huge.message;
  EXPECT_NE(huge.message.find("4294967296"), std::string::npos) << huge.message;
}

TEST(CudaLowering, TheRegistrysBackendLowersWithoutADevice) {
  std::unique_ptr<Backend> backend = make_cuda_backend({});
  CompileOutcome compiled = backend->compile({{kOut}, {4, 1, 1}, {store("out", u32(0), u32(1))}});
  EXPECT_EQ(compiled.status, Status::Ok) << compiled.message;
}

}  // namespace
}  // namespace vyre::cuda
