// Validation and the language's limits before lowering.
#include "backends/clike/lowering_refusal.h"

#include "spec/validate/validator.h"

namespace vyre::clike {
namespace {

std::optional<Error> validation_error(const Program& program) {
  const std::vector<Diagnostic> diagnostics = validate(program);
  if (diagnostics.empty()) return std::nullopt;
  std::string message = "invalid program:";
  for (const Diagnostic& d : diagnostics) {
    message += "\n" + std::string(name_of(d.rule)) + ": " + d.message;
  }
  return Error{message};
}

}  // namespace

std::optional<Error> lowering_refusal(const Program& program, LanguageLimits limits) {
  if (std::optional<Error> invalid = validation_error(program)) return invalid;
  if (std::optional<std::string> beyond = limits(program)) return Error{*beyond};
  return std::nullopt;
}

bool refused_only_by_limits(const Program& program, LanguageLimits limits) {
  return validate(program).empty() && limits(program).has_value();
}

}  // namespace vyre::clike
