// Adapter from the Backend interface to vyre::reference::run.
#include "backends/reference_backend.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>
#include <string>

#include "reference/interpreter.h"
#include "spec/validate/validator.h"

namespace vyre {
namespace {

/// A reference "compiled" program is the validated program itself.
class ReferenceProgram final : public CompiledProgram {
 public:
  explicit ReferenceProgram(Program program) : program_(std::move(program)) {}
  const Program& program() const { return program_; }

 private:
  Program program_;
};

/// Every diagnostic on its own line, rule id first.
std::string describe(const std::vector<Diagnostic>& diagnostics) {
  std::string text;
  for (const Diagnostic& d : diagnostics) {
    if (!text.empty()) text += '\n';
    text += std::string(name_of(d.rule)) + ": " + d.message;
  }
  return text;
}

std::string describe(const std::vector<reference::Violation>& violations) {
  std::string text = "the run is not conforming, so it has no defined output:";
  for (const reference::Violation& v : violations) {
    text += "\n" + std::string(reference::name_of(v.kind)) + ": " + v.message;
  }
  return text;
}

/// Most invocations one dispatch may run: the interpreter's default
/// RunOptions limit, and never past 2^32 - 1 (invocation ids are u32).
uint64_t dispatch_invocation_limit() {
  return std::min<uint64_t>(reference::RunOptions{}.max_invocations, uint64_t{0xFFFFFFFF});
}

/// Why the interpreter will not run `grid` of `program`'s workgroups: more
/// invocations than it takes (a limit of this backend, so NotSupported);
/// nullopt when it will, or when the grid has an empty axis (a host error
/// run() reports).
std::optional<std::string> past_invocation_limit(const Program& program, const Grid& grid) {
  const uint64_t limit = dispatch_invocation_limit();
  const std::optional<uint64_t> total = dispatch_invocations(program.workgroup_size, grid);
  if (total && (*total == 0 || *total <= limit)) return std::nullopt;
  return "the dispatch has " + (total ? std::to_string(*total) : std::string("more than 2^64")) +
         " invocations, more than the " + std::to_string(limit) +
         " the reference interpreter runs; dispatch fewer or smaller workgroups";
}

class ReferenceBackend final : public Backend {
 public:
  std::string name() const override { return "reference"; }

  Capabilities probe() override {
    const reference::RunOptions limits;
    constexpr uint32_t kNoLimit = std::numeric_limits<uint32_t>::max();
    Capabilities caps;
    caps.device_name = "reference interpreter";
    caps.driver = "vyre-certify reference";
    caps.api = "vyre 0.4.0";
    caps.max_workgroup_invocations =
        static_cast<uint32_t>(std::min<uint64_t>(limits.max_invocations, kNoLimit));
    caps.max_workgroup_size = {kNoLimit, kNoLimit, kNoLimit};
    caps.max_workgroup_count = {kNoLimit, kNoLimit, kNoLimit};
    caps.max_dispatch_invocations = dispatch_invocation_limit();
    caps.max_storage_buffer_bytes = limits.max_memory_bytes;
    caps.max_uniform_buffer_bytes = 65536;
    caps.max_workgroup_memory_bytes = limits.max_memory_bytes;
    return caps;
  }

  CompileOutcome compile(const Program& program) override {
    std::vector<Diagnostic> diagnostics = validate(program);
    if (!diagnostics.empty()) {
      return {Status::CompileError, "invalid program:\n" + describe(diagnostics), nullptr};
    }
    return {Status::Ok, "", std::make_shared<ReferenceProgram>(program)};
  }

  DispatchOutcome dispatch(const CompiledProgram& compiled, const BufferSet& inputs,
                           const Grid& grid) override {
    const auto* program = dynamic_cast<const ReferenceProgram*>(&compiled);
    if (program == nullptr) {
      return {
          Status::Error, "the program was compiled by another backend than `reference`", {}, {}};
    }
    if (std::optional<std::string> past = past_invocation_limit(program->program(), grid)) {
      return {Status::NotSupported, *past, {}, {}};
    }
    const auto start = std::chrono::steady_clock::now();
    Result<reference::RunResult> run = reference::run(program->program(), inputs, grid);
    DispatchOutcome outcome;
    outcome.timing.execute_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!run.ok()) {
      outcome.status = Status::Error;
      outcome.message = run.error().message;
    } else if (!run->conforming()) {
      outcome.status = Status::Error;
      outcome.message = describe(run->violations);
    } else {
      outcome.status = Status::Ok;
      outcome.outputs = std::move(run->outputs);
    }
    return outcome;
  }
};

}  // namespace

std::unique_ptr<Backend> make_reference_backend(const BackendOptions&) {
  return std::make_unique<ReferenceBackend>();
}

}  // namespace vyre
