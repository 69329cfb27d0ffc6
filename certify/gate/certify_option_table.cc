#include "certify/gate/certify_option_table.h"

#include <charconv>

namespace vyre::certify {
namespace {

/// `words` wrapped to lines of at most `width` characters (a longer word
/// stands alone), starting `used` characters into the first line; every
/// line after it is indented by `indent` spaces.
std::string wrapped(std::string_view words, size_t width, size_t used, size_t indent) {
  std::string out;
  bool first = true;
  size_t at = 0;
  while (at < words.size()) {
    size_t end = words.find(' ', at);
    if (end == std::string_view::npos) end = words.size();
    const std::string_view word = words.substr(at, end - at);
    at = end + 1;
    if (word.empty()) continue;
    if (!first && used + 1 + word.size() > width) {
      out += "\n" + std::string(indent, ' ');
      used = indent;
    } else if (!first) {
      out += ' ';
      ++used;
    }
    out += word;
    used += word.size();
    first = false;
  }
  return out;
}

std::string_view source_name(OptionSource source) {
  switch (source) {
    case OptionSource::CommandLine:
      return "command line";
    case OptionSource::GateFile:
      return "gate file";
    case OptionSource::Default:
      return "default";
  }
  return "default";
}

}  // namespace

const CertifyOption* find_certify_option(std::string_view flag) {
  for (const CertifyOption& option : kCertifyOptions) {
    if (option.flag == flag) return &option;
  }
  return nullptr;
}

const CertifyOption* find_gate_key(std::string_view key) {
  if (key.empty()) return nullptr;
  for (const CertifyOption& option : kCertifyOptions) {
    if (option.gate_key == key) return &option;
  }
  return nullptr;
}

std::optional<uint64_t> parse_option_number(const CertifyOption& option, std::string_view text) {
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  if (value < option.low || value > option.high) return std::nullopt;
  return value;
}

std::string option_number_rule(const CertifyOption& option) {
  const std::string flag(option.flag);
  if (option.low == 0 && option.high == UINT64_MAX) {
    return flag + " takes an unsigned 64-bit number";
  }
  const std::string counted = option.unit.empty() ? "" : " of " + std::string(option.unit);
  return flag + " takes a number" + counted + " from " + std::to_string(option.low) + " to " +
         std::to_string(option.high);
}

std::string gate_key_list() {
  std::string list;
  for (const CertifyOption& option : kCertifyOptions) {
    if (option.gate_key.empty()) continue;
    list += (list.empty() ? "" : ", ") + std::string(option.gate_key);
  }
  return list;
}

std::string option_synopsis(size_t width, size_t indent) {
  std::string words;
  for (const CertifyOption& option : kCertifyOptions) {
    if (option.flag == "--backend") continue;
    std::string one = "[" + std::string(option.flag);
    if (!option.value_name.empty()) one += " " + std::string(option.value_name);
    words += (words.empty() ? "" : " ") + one + "]";
  }
  // Options are kept whole on a line: their inner space is not a break.
  std::string unbroken;
  for (size_t i = 0; i < words.size(); ++i) {
    const bool inner = words[i] == ' ' && i > 0 && words[i - 1] != ']';
    unbroken += inner ? '\x1f' : words[i];
  }
  std::string out = wrapped(unbroken, width, indent, indent);
  for (char& c : out) {
    if (c == '\x1f') c = ' ';
  }
  return std::string(indent, ' ') + out;
}

std::string option_help(size_t width) {
  std::string out;
  for (const CertifyOption& option : kCertifyOptions) {
    std::string text = std::string(option.flag);
    if (!option.value_name.empty()) text += " " + std::string(option.value_name);
    text += ": " + std::string(option.help);
    std::string notes;
    if (!option.default_value.empty()) notes = "default " + std::string(option.default_value);
    if (!option.gate_key.empty()) {
      notes +=
          (notes.empty() ? "" : "; ") + std::string("gate key ") + std::string(option.gate_key);
    }
    if (!notes.empty()) text += " (" + notes + ")";
    out += "  " + wrapped(text, width, 2, 4) + "\n";
  }
  return out;
}

std::string dry_run_listing(const std::vector<ResolvedOption>& given) {
  std::string out;
  for (const CertifyOption& option : kCertifyOptions) {
    const ResolvedOption* found = nullptr;
    for (const ResolvedOption& g : given) {
      if (g.flag == option.flag) found = &g;
    }
    if (!found && option.default_value.empty()) continue;
    std::string line = "  " + std::string(option.flag);
    if (found && !found->value.empty()) line += " " + found->value;
    if (!found) line += " " + std::string(option.default_value);
    const OptionSource source = found ? found->source : OptionSource::Default;
    out += line + " (" + std::string(source_name(source)) + ")\n";
  }
  return out;
}

}  // namespace vyre::certify
