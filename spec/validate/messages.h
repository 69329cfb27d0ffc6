// The diagnostic texts of every rule, listed once in messages.def, and the
// renderer that fills in their `<key>` arguments.
#pragma once

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include "spec/validate/rule_id.h"

namespace vyre {

/// One message template; a rule may have several (V004 has four).
enum class MessageId : uint8_t {
#define X(id, rule, text) id,
#include "spec/validate/messages.def"
#undef X
};

/// One argument of a template: the text that replaces `<key>`.
struct MessageArg {
  std::string_view key;
  std::string value;
};

/// The rule a message belongs to.
RuleId rule_of(MessageId id);
/// The template, with arguments written `<key>`.
std::string_view template_of(MessageId id);
/// Every message in table order.
std::span<const MessageId> all_messages();

/// The template with every `<key>` replaced by its argument's value; the
/// values of `<name>` and `<op_id>` are spelled as the text format writes
/// them (bare or quoted with escapes), so every message is printable.
std::string render(MessageId id, std::initializer_list<MessageArg> args = {});

}  // namespace vyre
