#include "certify/run/failure_symptom.h"

#include <cctype>
#include <vector>

namespace vyre::certify {
namespace {

/// Characters of a stable message kept: enough to name a failure, short
/// enough for a report line.
constexpr size_t kStableMessageChars = 160;

bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

bool is_hex_digit(char c) {
  return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

/// "buffer `a` differs" or "buffers `a`, `b` differ": `one` and `many` are
/// the verb phrases after the names.
std::string buffers_phrase(const std::vector<std::string>& names, std::string_view one,
                           std::string_view many) {
  std::string out = names.size() == 1 ? "buffer " : "buffers ";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ", ";
    out += "`" + names[i] + "`";
  }
  out += ' ';
  out += names.size() == 1 ? one : many;
  return out;
}

}  // namespace

FailureSymptom output_symptom(Verdict verdict, const BufferSet& expected,
                              const BufferSet& observed) {
  FailureSymptom s;
  s.verdict = verdict;
  for (const auto& [name, want] : expected) {
    const auto got = observed.find(name);
    if (got == observed.end()) {
      s.buffers[name] = BufferDifference::Missing;
    } else if (got->second.size() != want.size()) {
      s.buffers[name] = BufferDifference::Length;
    } else if (got->second != want) {
      s.buffers[name] = BufferDifference::Bytes;
    }
  }
  for (const auto& [name, bytes] : observed) {
    if (!expected.contains(name)) s.buffers[name] = BufferDifference::Unexpected;
  }
  return s;
}

FailureSymptom status_symptom(Verdict verdict, std::string_view message) {
  FailureSymptom s;
  s.verdict = verdict;
  s.message = stable_message(message);
  return s;
}

std::string stable_message(std::string_view message) {
  const std::string_view line = message.substr(0, message.find('\n'));
  std::string out;
  for (size_t i = 0; i < line.size();) {
    const bool hex = line[i] == '0' && i + 2 < line.size() && (line[i + 1] | 0x20) == 'x' &&
                     is_hex_digit(line[i + 2]);
    if (hex) {
      out += "0x#";
      for (i += 2; i < line.size() && is_hex_digit(line[i]);) ++i;
    } else if (is_digit(line[i])) {
      out += '#';
      while (i < line.size() && is_digit(line[i])) ++i;
    } else {
      out += line[i++];
    }
  }
  if (out.size() > kStableMessageChars) {
    // Cut before a UTF-8 continuation byte, never inside a character.
    size_t cut = kStableMessageChars;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
    out.resize(cut);
  }
  while (!out.empty() && std::isspace(static_cast<unsigned char>(out.back())) != 0) out.pop_back();
  return out;
}

std::string describe(const FailureSymptom& s) {
  std::string out(name_of(s.verdict));
  if (!s.message.empty()) return out + ": " + s.message;
  struct Phrase {
    BufferDifference kind;
    std::string_view one, many;
  };
  static constexpr Phrase kPhrases[] = {
      {BufferDifference::Bytes, "differs", "differ"},
      {BufferDifference::Length, "has another length", "have another length"},
      {BufferDifference::Missing, "did not come back", "did not come back"},
      {BufferDifference::Unexpected, "came back unexpected", "came back unexpected"},
  };
  std::string separator = ": ";
  for (const Phrase& p : kPhrases) {
    std::vector<std::string> names;
    for (const auto& [name, kind] : s.buffers) {
      if (kind == p.kind) names.push_back(name);
    }
    if (names.empty()) continue;
    out += separator + buffers_phrase(names, p.one, p.many);
    separator = "; ";
  }
  return out;
}

}  // namespace vyre::certify
