#include "certify/suite/found_bug_cases.h"

#include "spec/text/text_format.h"

namespace vyre::certify {

std::string found_bug_case_id(std::string_view path) {
  constexpr std::string_view kExtension = ".vyre";
  constexpr std::string_view kRepro = "/repro";
  std::string_view stem = path.substr(0, path.size() - kExtension.size());
  if (stem.ends_with(kRepro)) stem.remove_suffix(kRepro.size());
  return std::string(kFoundBugIdPrefix) + std::string(stem);
}

std::vector<SuiteCase> found_bug_cases(std::span<const DriverBugFile> files) {
  std::vector<SuiteCase> out;
  for (const DriverBugFile& file : files) {
    std::string id = found_bug_case_id(file.path);
    const std::string source = "reports/driver-bugs/" + std::string(file.path);
    Result<TestCase> parsed = parse_case(file.text);
    if (!parsed.ok()) {
      out.push_back(broken_case(id, Level::L5, source + ": " + parsed.error().message));
      continue;
    }
    // The oracle is the record's own expectation: a file that leaves it to
    // the reference (`expect reference`) would be judged under an oracle
    // that says otherwise.
    if (!parsed->expected) {
      out.push_back(
          broken_case(id, Level::L5, source + ": no expected bytes (`expect reference`)"));
      continue;
    }
    DispatchCase d;
    d.test_case = std::move(*parsed);
    d.test_case.name = id;
    // The encoding and batch a repro was found in are the backend's own;
    // every backend runs the case as emitted and in all its encodings.
    d.test_case.encoding = Encoding::AsEmitted;
    d.test_case.batch.reset();
    d.every_encoding = true;
    // The inputs exactly as recorded: a poisoned output could change the
    // program's path (its counters and trip counts are read from them).
    d.poisonable = std::vector<std::string>{};
    // The oracle names the record, so that a failing case points at what is known of it.
    const std::string_view record = file.path.substr(0, file.path.find('/'));
    std::string oracle =
        "driver-bug record reports/driver-bugs/" + std::string(record) +
        "/README.md (expectation checked by hand; the reference interpreter agrees)";
    out.push_back(SuiteCase{std::move(id), Level::L5, std::move(oracle),
                            InputRecipe{source, std::nullopt}, std::move(d)});
  }
  return out;
}

}  // namespace vyre::certify
