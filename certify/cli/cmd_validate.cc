// `vyre-certify validate [--json] FILE...`: parses each program and prints
// every validation diagnostic as `FILE:LINE:COL: VNNN: message` (0:0 when the
// node has no location), or all of them as one JSON array. Diagnostics spell
// IR names with the text format's escapes, so each is one printable line.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "certify/cli/command.h"
#include "certify/cli/read_input.h"
#include "spec/support/diagnostic_text.h"
#include "spec/text/text_format.h"
#include "spec/validate/rule_id.h"
#include "spec/validate/validator.h"

namespace vyre::cli {
namespace {

constexpr std::string_view kValidateUsage =
    "vyre-certify validate [--json] [--] FILE...\n"
    "  Prints one line per problem: FILE:LINE:COL: VNNN: message, or FILE:LINE:COL: error:\n"
    "  message for a file that cannot be read or parsed. --json prints a JSON array of\n"
    "  {file, line, col, rule, message} instead (rule \"error\" for those files).\n"
    "  Exit 0: every program is valid; 1: some program is invalid; 2: a file cannot be\n"
    "  read or parsed, or bad usage. `--` ends the options: every later argument is a FILE.";

/// One line of output.
struct Finding {
  std::string file;
  SourceLoc loc;
  std::string rule;  ///< "V001" ... or "error" for unreadable or unparsable input.
  std::string message;
};

/// What validating one file found; the exit code it calls for.
int check_file(const std::string& path, std::vector<Finding>& out) {
  Result<std::string> text = read_text_file(path);
  if (!text) {
    out.push_back({path, {}, "error", text.error().message});
    return kExitUsage;
  }
  Result<Program> program = parse_program(*text);
  if (!program) {
    out.push_back({path, program.error().loc, "error", program.error().message});
    return kExitUsage;
  }
  const std::vector<Diagnostic> diagnostics = validate(*program);
  for (const Diagnostic& d : diagnostics) {
    out.push_back({path, d.loc, std::string(name_of(d.rule)), d.message});
  }
  return diagnostics.empty() ? kExitOk : kExitFail;
}

void print_lines(const std::vector<Finding>& findings) {
  for (const Finding& f : findings) {
    std::printf("%s\n", file_diagnostic(f.file, f.loc, f.rule, f.message).c_str());
  }
}

void print_json(const std::vector<Finding>& findings) {
  nlohmann::ordered_json array = nlohmann::ordered_json::array();
  for (const Finding& f : findings) {
    array.push_back({{"file", f.file},
                     {"line", f.loc.line},
                     {"col", f.loc.col},
                     {"rule", f.rule},
                     {"message", f.message}});
  }
  // A file name may hold any bytes; `replace` writes U+FFFD for those that are
  // not UTF-8 rather than throwing, so the output is always valid JSON.
  const std::string text =
      array.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  std::printf("%s\n", text.c_str());
}

}  // namespace

std::string_view validate_usage() {
  return kValidateUsage;
}

int cmd_validate(std::span<const std::string> args) {
  bool json = false;
  std::vector<std::string> files;
  bool options_ended = false;
  for (const std::string& arg : args) {
    if (options_ended) {
      files.push_back(arg);
    } else if (arg == "--") {
      options_ended = true;
    } else if (arg == "--json") {
      json = true;
    } else if (arg.starts_with("-")) {
      return usage_error("vyre-certify validate", "unknown option `" + arg + "`", kValidateUsage);
    } else {
      files.push_back(arg);
    }
  }
  if (files.empty()) {
    return usage_error("vyre-certify validate", "no FILE given", kValidateUsage);
  }
  std::vector<Finding> findings;
  int exit_code = kExitOk;
  // Unreadable input (2) outranks an invalid program (1).
  for (const std::string& file : files) exit_code = std::max(exit_code, check_file(file, findings));
  if (json) {
    print_json(findings);
  } else {
    print_lines(findings);
  }
  return exit_code;
}

std::string validate_summary() {
  const std::span<const RuleId> rules = all_rules();
  return "validate programs (rules " + std::string(name_of(rules.front())) + "-" +
         std::string(name_of(rules.back())) + ")";
}

}  // namespace vyre::cli
