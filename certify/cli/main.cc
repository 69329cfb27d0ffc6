// vyre-certify: `vyre-certify COMMAND ...`, or `vyre-certify --backend NAME ...`
// for the certification run (the command named "certify").
#include <cstdio>
#include <string>
#include <vector>

#include "certify/cli/command.h"

namespace vyre::cli {
namespace {

void print_help() {
  std::printf(
      "vyre-certify: the vyre 0.4.0 conformance suite\n\n"
      "usage: vyre-certify --backend NAME [options]   certify a backend (see `certify --help`)\n"
      "       vyre-certify COMMAND [args]\n\ncommands:\n");
  for (const Command& c : commands()) {
    std::printf("  %-10s %s\n", std::string(c.name).c_str(), c.summary.c_str());
  }
  std::printf("\n`vyre-certify COMMAND --help` shows a command's usage.\n");
}

}  // namespace

}  // namespace vyre::cli

int main(int argc, char** argv) {
  using namespace vyre::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    print_help();
    return args.empty() ? kExitUsage : kExitOk;
  }
  std::string name = args[0];
  std::span<const std::string> rest(args.begin() + 1, args.end());
  if (name.starts_with("--")) {  // `vyre-certify --backend vulkan ...` is the certification run.
    name = "certify";
    rest = std::span<const std::string>(args);
  }
  for (const Command& c : commands()) {
    if (c.name != name) continue;
    if (!rest.empty() && (rest[0] == "--help" || rest[0] == "-h")) {
      std::printf("usage: %.*s\n", static_cast<int>(c.usage.size()), c.usage.data());
      return kExitOk;
    }
    return c.run(rest);
  }
  std::fprintf(stderr, "vyre-certify: unknown command `%s`; run `vyre-certify --help`\n",
               name.c_str());
  return kExitUsage;
}
