// `vyre-certify lower FILE [--backend vulkan|opencl|cuda]
// [--emit spirv|spirv-asm|glsl|opencl-c|cuda-c] [-o OUT]`: the SPIR-V the
// vulkan backend would run for a program, as binary words, as SPIRV-Tools
// disassembly, or as GLSL decompiled by SPIRV-Cross; the OpenCL C the opencl
// backend would build; or the CUDA C the cuda backend gives NVRTC. Needs no
// device.
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>

#include "backends/cuda/lowering.h"
#include "backends/opencl/lowering.h"
#include "backends/vulkan/lowering.h"
#include "certify/cli/command.h"
#include "certify/cli/read_input.h"
#include "spec/support/diagnostic_text.h"
#include "spec/text/text_format.h"
#include "spec/validate/validator.h"

namespace vyre::cli {
namespace {

constexpr std::string_view kLowerUsage =
    "vyre-certify lower FILE [--backend vulkan|opencl|cuda]\n"
    "                   [--emit spirv|spirv-asm|glsl|opencl-c|cuda-c] [-o OUT]\n"
    "  Lowers the program in FILE for the backend (vulkan, the default, opencl or cuda)\n"
    "  and writes the result to OUT, or to stdout: for vulkan, spirv (default) is the\n"
    "  binary module, spirv-asm its SPIRV-Tools disassembly, glsl the module decompiled\n"
    "  by SPIRV-Cross; for opencl, opencl-c (its default and only form) is the kernel\n"
    "  source; for cuda, cuda-c (its default and only form) is the source NVRTC compiles.\n"
    "  Exit 0: lowered; 1: the program is invalid (diagnostics on stderr) or cannot be\n"
    "  lowered; 2: FILE cannot be read or parsed, OUT cannot be written, or bad usage.";

enum class Emit : uint8_t { Spirv, SpirvAsm, Glsl, OpenClC, CudaC };

/// The backends that lower, each with the one form it emits besides SPIR-V's.
enum class LowerBackend : uint8_t { Vulkan, OpenCl, Cuda };

struct LowerFlags {
  std::string file;
  std::string out;
  LowerBackend backend = LowerBackend::Vulkan;
  std::optional<Emit> emit;
};

int lower_usage_error(const std::string& problem) {
  return cli::usage_error("vyre-certify lower", problem, kLowerUsage);
}

/// The flags, or what is wrong with them.
std::optional<std::string> parse_flags(std::span<const std::string> args, LowerFlags& flags) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const bool has_value = i + 1 < args.size();
    if (arg == "--backend" || arg == "--emit" || arg == "-o") {
      if (!has_value) return "`" + arg + "` needs a value";
      const std::string& value = args[++i];
      if (arg == "-o") {
        flags.out = value;
      } else if (arg == "--backend") {
        if (value == "vulkan") {
          flags.backend = LowerBackend::Vulkan;
        } else if (value == "opencl") {
          flags.backend = LowerBackend::OpenCl;
        } else if (value == "cuda") {
          flags.backend = LowerBackend::Cuda;
        } else {
          return "backend `" + value + "` has no lowering; `vulkan`, `opencl` and `cuda` lower";
        }
      } else if (arg == "--emit") {
        if (value == "spirv") {
          flags.emit = Emit::Spirv;
        } else if (value == "spirv-asm") {
          flags.emit = Emit::SpirvAsm;
        } else if (value == "glsl") {
          flags.emit = Emit::Glsl;
        } else if (value == "opencl-c") {
          flags.emit = Emit::OpenClC;
        } else if (value == "cuda-c") {
          flags.emit = Emit::CudaC;
        } else {
          return "unknown --emit `" + value + "`; use spirv, spirv-asm, glsl, opencl-c or cuda-c";
        }
      }
    } else if (arg.starts_with("-") && arg != "-") {
      return "unknown option `" + arg + "`";
    } else if (!flags.file.empty()) {
      return "more than one FILE given";
    } else {
      flags.file = arg;
    }
  }
  if (flags.file.empty()) return "no FILE given";
  if (!flags.emit) return std::nullopt;
  const Emit emit = *flags.emit;
  if (flags.backend == LowerBackend::OpenCl && emit != Emit::OpenClC)
    return "--backend opencl emits only opencl-c";
  if (flags.backend == LowerBackend::Cuda && emit != Emit::CudaC)
    return "--backend cuda emits only cuda-c";
  if (emit == Emit::OpenClC && flags.backend != LowerBackend::OpenCl)
    return "--emit opencl-c needs --backend opencl";
  if (emit == Emit::CudaC && flags.backend != LowerBackend::Cuda)
    return "--emit cuda-c needs --backend cuda";
  return std::nullopt;
}

/// The module in the requested form.
Result<std::string> render(const vulkan::SpirvWords& spirv, Emit emit) {
  switch (emit) {
    case Emit::Spirv:
      return std::string(reinterpret_cast<const char*>(spirv.data()),
                         spirv.size() * sizeof(uint32_t));
    case Emit::SpirvAsm:
      return vulkan::disassemble_spirv(spirv);
    case Emit::Glsl:
      return vulkan::spirv_to_glsl(spirv);
    case Emit::OpenClC:
    case Emit::CudaC:
      break;  // Not SPIR-V forms: lowered_output renders them.
  }
  return Error{"unknown output form"};
}

/// The program lowered for the chosen backend, in the requested form.
Result<std::string> lowered_output(const Program& program, const LowerFlags& flags) {
  if (flags.backend == LowerBackend::OpenCl) {
    Result<opencl::LoweredKernel> kernel = opencl::lower_program(program);
    if (!kernel.ok()) return kernel.error();
    return kernel->source;
  }
  if (flags.backend == LowerBackend::Cuda) {
    Result<cuda::LoweredKernel> kernel = cuda::lower_program(program);
    if (!kernel.ok()) return kernel.error();
    return kernel->source;
  }
  Result<vulkan::LoweredProgram> lowered = vulkan::lower_program(program);
  if (!lowered.ok()) return lowered.error();
  return render(lowered->spirv, flags.emit.value_or(Emit::Spirv));
}

bool write_all(const std::string& path, const std::string& bytes) {
  if (path.empty() || path == "-") {
    return std::fwrite(bytes.data(), 1, bytes.size(), stdout) == bytes.size() &&
           std::fflush(stdout) == 0;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out.flush());
}

}  // namespace

std::string_view lower_usage() {
  return kLowerUsage;
}

int cmd_lower(std::span<const std::string> args) {
  LowerFlags flags;
  if (std::optional<std::string> problem = parse_flags(args, flags))
    return lower_usage_error(*problem);
  const Result<std::string> text = read_text_file(flags.file);
  if (!text) {
    std::fprintf(stderr, "%s: %s\n", flags.file.c_str(), text.error().message.c_str());
    return kExitUsage;
  }
  const Result<Program> program = parse_program(*text);
  if (!program.ok()) {
    std::fprintf(
        stderr, "%s\n",
        file_diagnostic(flags.file, program.error().loc, "error", program.error().message).c_str());
    return kExitUsage;
  }
  const std::vector<Diagnostic> diagnostics = validate(*program);
  for (const Diagnostic& d : diagnostics) {
    std::fprintf(stderr, "%s\n",
                 file_diagnostic(flags.file, d.loc, name_of(d.rule), d.message).c_str());
  }
  if (!diagnostics.empty()) return kExitFail;
  const Result<std::string> output = lowered_output(*program, flags);
  if (!output.ok()) {
    std::fprintf(stderr, "%s: %s\n", flags.file.c_str(), output.error().message.c_str());
    return kExitFail;
  }
  if (!write_all(flags.out, *output)) {
    std::fprintf(stderr, "%s: cannot write the output\n", flags.out.c_str());
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace vyre::cli
