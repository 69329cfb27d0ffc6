// Every kernel the CUDA lowering emits for the certification catalogue (L1-L4
// and a sample of L5's random programs with their variants) is checked by a
// compiler, here, without a GPU: clang as a CUDA device compiler with our
// declarations of what NVRTC predefines (cuda_c/nvrtc_builtins.h), and NVRTC
// itself where its library is installed. Each check skips, saying why, where
// its compiler is missing; the clang check is itself checked against kernels
// NVRTC would reject.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "backends/cuda/lowering.h"
#include "backends/cuda/nvrtc_compile.h"
#include "backends/opencl/lowering.h"
#include "certify/suite/catalog.h"
#include "spec/ir/builder.h"

namespace vyre {
namespace {

namespace fs = std::filesystem;

/// Random programs of L5 lowered besides L1-L4 (each with its variants).
constexpr uint32_t kRandomPrograms = 24;
/// Kernels per clang invocation (one translation unit).
constexpr size_t kKernelsPerClang = 256;

struct Kernel {
  std::string id;
  std::string source;
};

/// A backend that records the programs a host-driven case compiles while it
/// prepares, and runs nothing.
class RecordingBackend final : public Backend {
 public:
  std::vector<Program> programs;
  std::string name() const override { return "recording"; }
  Capabilities probe() override { return {}; }
  CompileOutcome compile(const Program& program) override {
    programs.push_back(program);
    return {Status::Ok, "", std::make_shared<CompiledProgram>()};
  }
  DispatchOutcome dispatch(const CompiledProgram&, const BufferSet&, const Grid&) override {
    return {Status::NotSupported, "the recording backend runs nothing", {}, {}};
  }
};

/// The CUDA C of every program of the catalogue, each distinct source once.
const std::vector<Kernel>& catalogue_kernels() {
  static const std::vector<Kernel> kernels = [] {
    std::vector<Kernel> out;
    std::set<std::string> seen;
    const auto add = [&](const std::string& id, const Program& program) {
      Result<cuda::LoweredKernel> lowered = cuda::lower_program(program);
      if (!lowered.ok()) {
        ADD_FAILURE() << id << " does not lower: " << lowered.error().message;
      } else if (seen.insert(lowered->source).second) {
        out.push_back({id, std::move(lowered->source)});
      }
    };
    const std::vector<certify::SuiteCase> cases = certify::build_catalog(
        {.seed = 1, .up_to = certify::Level::L5, .random_programs = kRandomPrograms});
    for (const certify::SuiteCase& c : cases) {
      if (const certify::DispatchCase* d = certify::dispatch_of(c)) {
        add(c.id, d->test_case.program);
      } else {
        RecordingBackend recorder;
        (void)std::get<certify::HostCase>(c.body).work->prepare(recorder);
        for (size_t i = 0; i < recorder.programs.size(); ++i) {
          add(c.id + "#" + std::to_string(i), recorder.programs[i]);
        }
      }
    }
    return out;
  }();
  return kernels;
}

/// A fresh folder for this test's files, removed with it.
struct TempFolder {
  fs::path path =
      fs::temp_directory_path() / ("vyre_cuda_c_syntax_" + std::to_string(getpid()) + "_" +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  TempFolder() { fs::create_directories(path); }
  ~TempFolder() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

/// The clang++ CMake found, if it is still there.
std::optional<std::string> clang() {
  const std::string path = VYRE_CLANGXX;
  if (path.empty() || access(path.c_str(), X_OK) != 0) return std::nullopt;
  return path;
}

/// What clang says of `sources`, and whether it accepted them all.
struct ClangVerdict {
  bool accepted = false;
  std::string output;
};
ClangVerdict clang_check(const std::string& clangxx, const fs::path& folder,
                         const std::vector<Kernel>& sources) {
  // One translation unit for all of them: clang's start and its builtin
  // headers cost more than a kernel, and each kernel is one function, named
  // apart here and in a namespace of its own, so none can see another's
  // names. #line makes a diagnostic name the case it is in.
  const fs::path file = folder / "kernels.cu";
  {
    std::ofstream out(file, std::ios::binary);
    for (size_t i = 0; i < sources.size(); ++i) {
      out << "#define vyre_main vyre_main_" << i << "\nnamespace vyre_kernel_" << i << " {\n"
          << "#line 1 \"" << sources[i].id << "\"\n"
          << sources[i].source << "\n}\n#undef vyre_main\n";
    }
  }
  const std::string command = "'" + clangxx +
                              "' -x cuda --cuda-device-only -nocudainc -nocudalib "
                              "--cuda-gpu-arch=sm_70 -fsyntax-only -Wno-unknown-cuda-version "
                              "-include '" VYRE_NVRTC_BUILTINS "' '" +
                              file.string() + "'";
  ClangVerdict verdict;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return {false, "cannot run: " + command};
  char chunk[4096];
  size_t n = 0;
  while ((n = fread(chunk, 1, sizeof chunk, pipe)) > 0) verdict.output.append(chunk, n);
  const int status = pclose(pipe);
  verdict.accepted = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return verdict;
}

/// One kernel of `source`, for the checks of the check.
std::vector<Kernel> one(const std::string& id, const std::string& source) {
  return {{id, source}};
}

TEST(CudaCSyntax, ClangAcceptsEveryCatalogueKernel) {
  const std::optional<std::string> clangxx = clang();
  if (!clangxx) GTEST_SKIP() << "clang++ not found (CMake looked for clang++ and clang++-14)";
  const std::vector<Kernel>& kernels = catalogue_kernels();
  ASSERT_GT(kernels.size(), 200u);
  TempFolder folder;
  for (size_t first = 0; first < kernels.size(); first += kKernelsPerClang) {
    const std::vector<Kernel> chunk(
        kernels.begin() + static_cast<std::ptrdiff_t>(first),
        kernels.begin() +
            static_cast<std::ptrdiff_t>(std::min(first + kKernelsPerClang, kernels.size())));
    const ClangVerdict verdict = clang_check(*clangxx, folder.path, chunk);
    EXPECT_TRUE(verdict.accepted) << verdict.output.substr(0, 8000);
  }
}

TEST(CudaCSyntax, ClangWithTheBuiltinsRejectsWhatNvrtcRejects) {
  const std::optional<std::string> clangxx = clang();
  if (!clangxx) GTEST_SKIP() << "clang++ not found (CMake looked for clang++ and clang++-14)";
  TempFolder folder;
  const auto kernel = [](const std::string& body) {
    return "extern \"C\" __global__ void __launch_bounds__(64) vyre_main(unsigned int* b0, "
           "unsigned int n0) {\n" +
           body + "\n}\n";
  };
  // The control: a correct kernel using every builtin kind passes.
  const ClangVerdict good = clang_check(
      *clangxx, folder.path,
      one("good", kernel("__shared__ uint4 w0[4];\n"
                         "const uint2 v = make_uint2(threadIdx.x, blockIdx.y * blockDim.z);\n"
                         "__syncthreads();\n"
                         "if (0u < n0) b0[0] = atomicCAS(&b0[0], 0u, v.x) + __brev(v.y) + "
                         "(unsigned int)__popc(n0) + n0 / max(n0, 1u) + w0[0].w;")));
  EXPECT_TRUE(good.accepted) << good.output;
  const std::vector<std::pair<std::string, std::string>> wrong = {
      {"an atomic on a value, not its address", kernel("b0[0] = atomicAdd(b0[1], 1u);")},
      {"a swizzle CUDA's vectors lack",
       kernel("const uint4 q = make_uint4(1u, 2u, 3u, 4u);\nconst uint2 h = q.xy;")},
      {"an OpenCL C vector literal", kernel("const uint2 v = (uint2)(0u);")},
      {"an OpenCL C builtin", kernel("b0[0] = get_global_id(0);")},
      {"an OpenCL C barrier", kernel("barrier(CLK_LOCAL_MEM_FENCE);")},
      {"a write through a read-only index variable", kernel("threadIdx.x = 0u;")},
      {"an ambiguous max", kernel("b0[0] = max(n0, 1.0);")},
  };
  for (const auto& [what, source] : wrong) {
    EXPECT_FALSE(clang_check(*clangxx, folder.path, one(what, source)).accepted) << what;
  }
  // The OpenCL C of a real program is no CUDA C.
  Result<opencl::LoweredKernel> opencl_c =
      opencl::lower_program({{build::storage("out", 0, BufferAccess::ReadWrite)},
                             {64, 1, 1},
                             {build::store("out", build::invocation_id(0), build::u32(1))}});
  ASSERT_TRUE(opencl_c.ok());
  EXPECT_FALSE(clang_check(*clangxx, folder.path, one("OpenCL C", opencl_c->source)).accepted);
}

TEST(CudaCSyntax, NvrtcCompilesEveryCatalogueKernel) {
  Result<cuda::NvrtcApi> nvrtc = cuda::NvrtcApi::open(0);
  if (!nvrtc.ok()) GTEST_SKIP() << "no NVRTC library: " << nvrtc.error().message;
  // As for an H100, but PTX: the front end and NVVM judge the source; ptxas,
  // which only CUBIN output runs, judges NVVM's PTX, not the lowering.
  Result<cuda::NvrtcTarget> target = cuda::nvrtc_target({9, 0}, nvrtc->supported_archs);
  ASSERT_TRUE(target.ok()) << target.error().message;
  target->cubin = false;
  target->options[0] = "--gpu-architecture=compute_" + std::to_string(target->arch);
  for (const Kernel& k : catalogue_kernels()) {
    Result<cuda::KernelImage> image = cuda::compile_cuda_c(*nvrtc, k.source, *target);
    EXPECT_TRUE(image.ok()) << k.id << ": " << (image.ok() ? "" : image.error().message);
  }
}

}  // namespace
}  // namespace vyre
