// Validation before lowering.
#include "backends/clike/validation_error.h"

#include "spec/validate/validator.h"

namespace vyre::clike {

std::optional<Error> validation_error(const Program& program) {
  const std::vector<Diagnostic> diagnostics = validate(program);
  if (diagnostics.empty()) return std::nullopt;
  std::string message = "invalid program:";
  for (const Diagnostic& d : diagnostics) {
    message += "\n" + std::string(name_of(d.rule)) + ": " + d.message;
  }
  return Error{message};
}

}  // namespace vyre::clike
