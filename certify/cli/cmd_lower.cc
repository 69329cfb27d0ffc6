// `vyre-certify lower FILE [--backend vulkan] [--emit spirv|spirv-asm|glsl] [-o OUT]`:
// the SPIR-V the vulkan backend would run for a program, as binary words, as
// SPIRV-Tools disassembly, or as GLSL decompiled by SPIRV-Cross. Needs no
// Vulkan device.
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>

#include "backends/vulkan/lowering.h"
#include "certify/cli/command.h"
#include "certify/cli/read_input.h"
#include "spec/support/diagnostic_text.h"
#include "spec/text/text_format.h"
#include "spec/validate/validator.h"

namespace vyre::cli {
namespace {

constexpr std::string_view kUsage =
    "vyre-certify lower FILE [--backend vulkan] [--emit spirv|spirv-asm|glsl] [-o OUT]\n"
    "  Lowers the program in FILE for the backend (only `vulkan` lowers) and writes the\n"
    "  module to OUT, or to stdout: spirv (default) is the binary module, spirv-asm its\n"
    "  SPIRV-Tools disassembly, glsl the module decompiled by SPIRV-Cross.\n"
    "  Exit 0: lowered; 1: the program is invalid (diagnostics on stderr) or cannot be\n"
    "  lowered; 2: FILE cannot be read or parsed, OUT cannot be written, or bad usage.";

enum class Emit : uint8_t { Spirv, SpirvAsm, Glsl };

struct LowerFlags {
  std::string file;
  std::string out;
  Emit emit = Emit::Spirv;
};

int usage_error(const std::string& problem) {
  return cli::usage_error("vyre-certify lower", problem, kUsage);
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
      } else if (arg == "--backend" && value != "vulkan") {
        return "backend `" + value + "` has no lowering; only `vulkan` lowers to SPIR-V";
      } else if (arg == "--emit") {
        if (value == "spirv") {
          flags.emit = Emit::Spirv;
        } else if (value == "spirv-asm") {
          flags.emit = Emit::SpirvAsm;
        } else if (value == "glsl") {
          flags.emit = Emit::Glsl;
        } else {
          return "unknown --emit `" + value + "`; use spirv, spirv-asm or glsl";
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
  }
  return Error{"unknown output form"};
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
  return kUsage;
}

int cmd_lower(std::span<const std::string> args) {
  LowerFlags flags;
  if (std::optional<std::string> problem = parse_flags(args, flags)) return usage_error(*problem);
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
  const Result<vulkan::LoweredProgram> lowered = vulkan::lower_program(*program);
  if (!lowered.ok()) {
    std::fprintf(stderr, "%s: %s\n", flags.file.c_str(), lowered.error().message.c_str());
    return kExitFail;
  }
  const Result<std::string> output = render(lowered->spirv, flags.emit);
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
