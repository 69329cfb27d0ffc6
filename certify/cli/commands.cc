#include "certify/cli/command.h"

#include <cstdio>

namespace vyre::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"certify", "certify a backend (also: vyre-certify --backend NAME ...)", certify_usage(),
       cmd_certify},
      {"diff", "compare two reports: status changes, cases 2x slower; exit 1 on a new failure",
       diff_usage(), cmd_diff},
      {"fuzz", "hunt for backend failures with random programs; each reduced and written once",
       fuzz_usage(), cmd_fuzz},
      {"generate", "write L5's random programs and their metamorphic variants as case files",
       generate_usage(), cmd_generate},
      {"lower", "lower a program to SPIR-V (vulkan) or OpenCL C (opencl)", lower_usage(),
       cmd_lower},
      {"merge", "join the reports of a sharded run (--shard I/N) into one sealed report",
       merge_usage(), cmd_merge},
      {"reduce", "shrink a case that fails on a backend while it keeps failing the same way",
       reduce_usage(), cmd_reduce},
      {"rules", "list the validation rules", rules_usage(), cmd_rules},
      {"run", "run one case file on a backend (default: the reference) and check its expectation",
       run_usage(), cmd_run},
      {"validate", validate_summary(), validate_usage(), cmd_validate},
      {"verify", "check a report's certificate digest, schema and verdict", verify_usage(),
       cmd_verify},
  };
  return table;
}

int usage_error(std::string_view who, std::string_view problem, std::string_view usage) {
  std::fprintf(stderr, "%.*s: %.*s\nusage: %.*s\n", static_cast<int>(who.size()), who.data(),
               static_cast<int>(problem.size()), problem.data(), static_cast<int>(usage.size()),
               usage.data());
  return kExitUsage;
}

}  // namespace vyre::cli
