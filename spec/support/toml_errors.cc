#include "spec/support/toml_errors.h"

#include "spec/support/diagnostic_text.h"

namespace vyre::dataflow {

Error TomlErrors::located(SourceLoc loc, const std::string& problem, const std::string& fix) const {
  Error e;
  e.loc = loc;
  e.message = kind_ + " " + file_diagnostic(origin_, loc, "", problem + ". Fix: " + fix + ".");
  return e;
}

Error TomlErrors::at(const toml::source_region& where, const std::string& problem,
                     const std::string& fix) const {
  return located(
      {static_cast<uint32_t>(where.begin.line), static_cast<uint32_t>(where.begin.column)}, problem,
      fix);
}

Error TomlErrors::whole(const std::string& problem, const std::string& fix) const {
  return located({1, 1}, problem, fix);
}

Result<uint32_t> TomlErrors::u32(const toml::node& node, const std::string& what) const {
  const auto v = node.value_exact<int64_t>();
  if (!v) return at(node.source(), what + " must be an integer", "write a whole number");
  if (*v < 0 || *v > int64_t{UINT32_MAX}) {
    return at(node.source(), what + " = " + std::to_string(*v) + " is outside [0, 4294967295]",
              "use a u32 value");
  }
  return static_cast<uint32_t>(*v);
}

}  // namespace vyre::dataflow
