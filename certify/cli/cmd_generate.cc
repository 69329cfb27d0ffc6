// `vyre-certify generate --seed S --count N --out DIR`: writes the random
// programs L5 draws from --seed (program i of the run is L5's program i)
// and their metamorphic variants as case files in the text format, each
// expecting the bytes the reference gives, so other tools can take them and
// anyone can read what the generator draws. INDEX.txt lists each program
// with its size class, features and shapes.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <set>

#include "certify/cli/command.h"
#include "certify/cli/output_folder.h"
#include "certify/cli/read_input.h"
#include "certify/suite/random_program_cases.h"
#include "generators/wellformed_program.h"
#include "spec/text/text_format.h"

namespace vyre::cli {
namespace {

constexpr std::string_view kGenerateUsage =
    "vyre-certify generate --seed S --count N --out DIR [--max-workgroup-invocations W]\n"
    "  Writes random programs 0..N-1 of seed S (L5's programs of `--seed S`) and their\n"
    "  metamorphic variants as case files DIR/<i>.vyre and DIR/<i>.<rewrite>.vyre, each\n"
    "  expecting the reference's bytes (`vyre-certify run FILE` checks one), and\n"
    "  DIR/INDEX.txt: per program its seed, size class, grid, features and shapes.\n"
    "  A program the reference flags (a generator defect) is listed, not written.\n"
    "  --max-workgroup-invocations: most invocations per workgroup, 1-1024 (default 128,\n"
    "  L5's: Vulkan's guaranteed limit; a backend refuses more than its device takes\n"
    "  as not supported).\n"
    "  Exit: 0 written, 1 some program discarded, 2 bad usage or unwritable DIR.";

/// Most programs one call writes (each a few files).
constexpr uint64_t kMaxCount = 100000;

int generate_usage_error(const std::string& message) {
  return cli::usage_error("vyre-certify generate", message, kGenerateUsage);
}

struct GenerateArgs {
  uint64_t seed = 0;
  uint64_t count = 0;
  std::string out_dir;
  GeneratorOptions options;
};

std::optional<uint64_t> parse_u64(const std::string& text) {
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::optional<std::string> parse_generate_args(std::span<const std::string> args,
                                               GenerateArgs& out) {
  std::set<std::string> seen;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    constexpr std::string_view kValued[] = {"--seed", "--count", "--out",
                                            "--max-workgroup-invocations"};
    if (std::find(std::begin(kValued), std::end(kValued), flag) == std::end(kValued)) {
      return "unknown option `" + flag + "`";
    }
    if (i + 1 >= args.size()) return "option " + flag + " needs a value";
    const std::string& value = args[++i];
    if (!seen.insert(flag).second) return flag + " given twice; give it once";
    if (flag == "--seed") {
      const auto seed = parse_u64(value);
      if (!seed) return "--seed takes an unsigned 64-bit number, not `" + value + "`";
      out.seed = *seed;
    } else if (flag == "--count") {
      const auto count = parse_u64(value);
      if (!count || *count == 0 || *count > kMaxCount) {
        return "--count takes a number of programs from 1 to " + std::to_string(kMaxCount) +
               ", not `" + value + "`";
      }
      out.count = *count;
    } else if (flag == "--out") {
      if (value.empty()) return "--out needs a folder, not an empty string";
      out.out_dir = value;
    } else {
      const auto w = parse_u64(value);
      if (!w || *w == 0 || *w > 1024) {
        return "--max-workgroup-invocations takes 1 to 1024, not `" + value + "`";
      }
      out.options.max_workgroup_invocations = static_cast<uint32_t>(*w);
    }
  }
  for (const char* required : {"--seed", "--count", "--out"}) {
    if (!seen.contains(required)) return std::string(required) + " is required";
  }
  return std::nullopt;
}

/// "000123" for program 123, as L5's ids number them.
std::string program_number(uint32_t index) {
  char text[16];
  std::snprintf(text, sizeof text, "%06u", index);
  return text;
}

std::string features_of(const ProgramFeatures& f) {
  const std::pair<bool, const char*> named[] = {{f.ifs, "ifs"},
                                                {f.loops, "loops"},
                                                {f.blocks, "blocks"},
                                                {f.selects, "selects"},
                                                {f.calls, "calls"},
                                                {f.casts, "casts"},
                                                {f.wide_types, "wide_types"},
                                                {f.own_atomics, "own_atomics"},
                                                {f.contended_atomics, "contended_atomics"},
                                                {f.workgroup_ids, "workgroup_ids"},
                                                {f.barriers, "barriers"},
                                                {f.workgroup_memory, "workgroup_memory"},
                                                {f.uniform_buffers, "uniform_buffers"},
                                                {f.bytes_buffers, "bytes_buffers"},
                                                {f.out_of_bounds, "out_of_bounds"},
                                                {f.early_return, "early_return"},
                                                {f.multi_axis, "multi_axis"},
                                                {f.shadowing, "shadowing"},
                                                {f.return_in_loop, "return_in_loop"},
                                                {f.reload_after_store, "reload_after_store"},
                                                {f.communication, "communication"},
                                                {f.atomic_sections, "atomic_sections"},
                                                {f.path_trace, "path_trace"},
                                                {f.rule_idioms, "rule_idioms"},
                                                {f.opaque_constants, "opaque_constants"}};
  std::string out;
  for (const auto& [on, name] : named) {
    if (on) out += (out.empty() ? "" : ",") + std::string(name);
  }
  return out.empty() ? "-" : out;
}

}  // namespace

std::string_view generate_usage() {
  return kGenerateUsage;
}

int cmd_generate(std::span<const std::string> args) {
  GenerateArgs a;
  if (auto error = parse_generate_args(args, a)) return generate_usage_error(*error);
  if (auto error = check_writable(a.out_dir)) return generate_usage_error(*error);
  const std::filesystem::path dir(a.out_dir);
  std::string index = "# vyre-certify generate --seed " + std::to_string(a.seed) + " --count " +
                      std::to_string(a.count) + " --max-workgroup-invocations " +
                      std::to_string(a.options.max_workgroup_invocations) +
                      "\n# file seed size workgroup grid invocations features shapes\n";
  uint64_t files = 0, discarded = 0;
  for (uint32_t i = 0; i < a.count; ++i) {
    const uint64_t program_seed = certify::random_program_seed(a.seed, i);
    const GeneratedCase drawn = generate_wellformed(program_seed, a.options);
    const auto cases = certify::random_program_suite_cases(
        program_seed, certify::random_program_id(i), a.seed, a.options);
    const std::string number = program_number(i);
    const auto& w = drawn.test_case.program.workgroup_size;
    const auto& g = drawn.test_case.grid.workgroups;
    char seed_text[32];
    std::snprintf(seed_text, sizeof seed_text, "0x%016llx",
                  static_cast<unsigned long long>(program_seed));
    std::string shapes;
    for (const std::string& s : drawn.shapes) shapes += (shapes.empty() ? "" : ",") + s;
    index += (cases ? number + ".vyre" : number + " DISCARDED") + " " + seed_text + " " +
             name_of(drawn.size) + " " + std::to_string(w[0]) + "x" + std::to_string(w[1]) + "x" +
             std::to_string(w[2]) + " " + std::to_string(g[0]) + "x" + std::to_string(g[1]) + "x" +
             std::to_string(g[2]) + " " +
             std::to_string(uint64_t{w[0]} * w[1] * w[2] * g[0] * g[1] * g[2]) + " " +
             features_of(drawn.features) + " " + (shapes.empty() ? "-" : shapes) + "\n";
    if (!cases) {
      ++discarded;
      continue;
    }
    const std::string id = certify::random_program_id(i);
    for (const certify::SuiteCase& c : *cases) {
      // "L5/random/000123/dead_code" -> "000123.dead_code.vyre".
      std::string name = number;
      if (c.id.size() > id.size()) name += "." + c.id.substr(id.size() + 1);
      const std::string text = "# vyre-certify generate: " + c.id + ", program seed " + seed_text +
                               "\n" + print_case(certify::dispatch_of(c)->test_case);
      if (!write_whole_file((dir / (name + ".vyre")).string(), text)) {
        std::fprintf(stderr, "vyre-certify generate: cannot write %s\n",
                     (dir / (name + ".vyre")).c_str());
        return kExitUsage;
      }
      ++files;
    }
  }
  if (!write_whole_file((dir / "INDEX.txt").string(), index)) {
    std::fprintf(stderr, "vyre-certify generate: cannot write %s\n", (dir / "INDEX.txt").c_str());
    return kExitUsage;
  }
  std::printf("%llu programs, %llu case files in %s, %llu discarded by the reference\n",
              static_cast<unsigned long long>(a.count - discarded),
              static_cast<unsigned long long>(files), a.out_dir.c_str(),
              static_cast<unsigned long long>(discarded));
  return discarded == 0 ? kExitOk : kExitFail;
}

}  // namespace vyre::cli
