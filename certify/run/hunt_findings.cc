#include "certify/run/hunt_findings.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>

#include "certify/report/replay_command.h"
#include "certify/run/output_judge.h"
#include "spec/text/text_format.h"

namespace vyre::certify {
namespace {

/// FNV-1a, 64 bits: a stable name for a reduced case, not a security hash.
std::string text_hash(std::string_view text) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (char ch : text) {
    h ^= static_cast<uint8_t>(ch);
    h *= 0x100000001b3ULL;
  }
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

std::string case_text(const TestCase& tc, std::string_view what) {
  return "# vyre-certify fuzz: " + std::string(what) + " " + tc.name + "\n" + print_case(tc);
}

/// Differing words listed per buffer in a finding's README, and lines in
/// all (a backend may return any number of buffers): enough to see the
/// pattern of a wrong result, few enough that the file stays small.
constexpr size_t kReadmeWordsPerBuffer = 8;
constexpr size_t kReadmeDifferenceLines = 64;

/// What the backend gave in the failing run, against what it should have:
/// the first differing words of each differing buffer, so that a finding can
/// be triaged without running it on the device again.
std::string observed_section(const Failure& f) {
  if (f.observed.empty()) return "observed: no outputs came back (see the message)\n";
  std::string listed = listed_differences(f.expected, f.observed, kReadmeWordsPerBuffer);
  if (listed.empty())
    return "observed: no word differs from the expected bytes (see the message)\n";
  size_t end = 0;  // Just past the last line kept.
  for (size_t line = 0; line < kReadmeDifferenceLines && end != std::string::npos; ++line) {
    end = listed.find('\n', end);
    if (end != std::string::npos) ++end;
  }
  if (end != std::string::npos && end < listed.size()) {
    listed.resize(end);
    listed += "  (more differences not listed)\n";
  }
  return "observed, against expected (u32 words at word offsets, at most " +
         std::to_string(kReadmeWordsPerBuffer) + " a buffer):\n" + listed;
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
}

/// A repro file a batch wrote (a path relative to its folder), parsed; nullopt
/// when there is none or it cannot be read back.
std::optional<TestCase> read_repro(const std::filesystem::path& batch_dir,
                                   const std::string& relative) {
  if (relative.empty()) return std::nullopt;
  std::ifstream f(batch_dir / relative, std::ios::binary);
  if (!f) return std::nullopt;
  const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  Result<TestCase> parsed = parse_case(text);
  if (!parsed) return std::nullopt;
  return std::move(parsed).value();
}

/// The repros a batch wrote for one failing case, read back.
struct FailingForms {
  std::optional<TestCase> failing;
  std::optional<TestCase> reduced;
  /// The program a metamorphic variant was rewritten from.
  std::optional<TestCase> unrewritten;
};

/// The README of a finding in `dir`: verdict, message, what the backend
/// gave, and the commands that replay and reduce it.
std::string finding_readme(const CaseResult& r, const FailingForms& forms,
                           const std::filesystem::path& dir, uint64_t seed,
                           const std::string& backend_name) {
  std::string readme = "verdict: " + std::string(name_of(r.verdict)) + "\nmessage: " + r.message +
                       "\ncase: " + r.id + "\n(hunt --seed " + std::to_string(seed) + ")\n";
  readme += "variant: " + r.failure->variant + "\n";
  readme += observed_section(*r.failure);
  if (forms.unrewritten) {
    readme +=
        "A metamorphic variant: unrewritten.vyre is the program it was rewritten from; "
        "both must give the same bytes.\n";
  }
  readme += "replay:\n  " + replay_command((dir / "original.vyre").string(), backend_name) + "\n";
  if (forms.reduced) {
    readme += "  " + replay_command((dir / "reduced.vyre").string(), backend_name) + "\n";
    readme += "reduced keeping: " + r.failure->reduced_symptom + "\n";
    readme += "reduce further (the hunt's own reduction stops at its cap):\n  " +
              reduce_command((dir / "reduced.vyre").string(), backend_name) + "\n";
  } else {
    readme += "(not reduced: the message says why)\n";
  }
  return readme;
}

}  // namespace

HuntFindings::HuntFindings(std::filesystem::path out_dir, uint64_t seed, std::string backend_name)
    : out_dir_(std::move(out_dir)), seed_(seed), backend_name_(std::move(backend_name)) {}

bool HuntFindings::claim(const std::string& hash) {
  std::lock_guard lock(mutex_);
  return seen_.insert(hash).second;
}

bool HuntFindings::record(const CaseResult& r, const std::filesystem::path& batch_dir) {
  if (!r.failure) return false;
  FailingForms forms;
  forms.failing = read_repro(batch_dir, r.failure->repro);
  if (!forms.failing) return false;
  forms.reduced = read_repro(batch_dir, r.failure->reduced_repro);
  forms.unrewritten = read_repro(batch_dir, r.failure->original_repro);
  TestCase key = forms.reduced ? *forms.reduced : *forms.failing;
  key.name.clear();
  HuntFinding finding;
  finding.hash = text_hash(print_case(key));
  // Claimed before it is written: a worker meeting the same form meanwhile
  // finds it taken and writes nothing.
  if (!claim(finding.hash)) return false;
  finding.case_id = r.id;
  finding.verdict = r.verdict;
  finding.message = r.message;
  const std::filesystem::path dir = out_dir_ / finding.hash;
  finding.dir = dir.string();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  write_text(dir / "original.vyre", case_text(*forms.failing, "original of"));
  if (forms.reduced) write_text(dir / "reduced.vyre", case_text(*forms.reduced, "reduced"));
  if (forms.unrewritten) {
    write_text(dir / "unrewritten.vyre", case_text(*forms.unrewritten, "original program of"));
  }
  write_text(dir / "README.txt", finding_readme(r, forms, dir, seed_, backend_name_));
  std::lock_guard lock(mutex_);
  findings_.push_back(std::move(finding));
  return true;
}

size_t HuntFindings::count() const {
  std::lock_guard lock(mutex_);
  return findings_.size();
}

std::vector<HuntFinding> HuntFindings::findings() const {
  std::lock_guard lock(mutex_);
  return findings_;
}

}  // namespace vyre::certify
