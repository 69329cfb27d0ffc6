#include "spec/validate/messages.h"

#include <array>

#include "spec/text/names.h"

namespace vyre {
namespace {

struct MessageRow {
  RuleId rule;
  std::string_view text;
};

constexpr std::array kMessageRows = {
#define X(id, rule, text) MessageRow{RuleId::rule, text},
#include "spec/validate/messages.def"
#undef X
};
constexpr std::array kMessages = {
#define X(id, rule, text) MessageId::id,
#include "spec/validate/messages.def"
#undef X
};

/// An argument's text as the message shows it. Names and op ids are IR
/// strings that may hold any byte; they are spelled as the text format writes
/// them, escapes included, so a message stays one line of printable text that
/// reads back as the name it shows.
std::string shown(const MessageArg& arg) {
  std::string out;
  if (arg.key == "name") {
    text::append_name(out, arg.value);
  } else if (arg.key == "op_id") {
    text::append_op_id(out, arg.value);
  } else {
    out = arg.value;
  }
  return out;
}

}  // namespace

RuleId rule_of(MessageId id) {
  return kMessageRows[static_cast<size_t>(id)].rule;
}
std::string_view template_of(MessageId id) {
  return kMessageRows[static_cast<size_t>(id)].text;
}
std::span<const MessageId> all_messages() {
  return kMessages;
}

std::string render(MessageId id, std::initializer_list<MessageArg> args) {
  const std::string_view text = template_of(id);
  std::string out;
  out.reserve(text.size() + 32);
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t open = text.find('<', pos);
    const size_t close = open == std::string_view::npos ? open : text.find('>', open);
    if (close == std::string_view::npos) {
      out.append(text.substr(pos));
      break;
    }
    out.append(text.substr(pos, open - pos));
    const std::string_view key = text.substr(open + 1, close - open - 1);
    const MessageArg* arg = nullptr;
    for (const MessageArg& candidate : args) {
      if (candidate.key == key) arg = &candidate;
    }
    // A missing argument keeps its placeholder, which the message tests catch.
    if (arg != nullptr) {
      out.append(shown(*arg));
    } else {
      out.append(text.substr(open, close - open + 1));
    }
    pos = close + 1;
  }
  return out;
}

}  // namespace vyre
