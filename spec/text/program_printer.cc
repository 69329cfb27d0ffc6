// Prints programs canonically with an explicit work stack instead of
// recursion: programs built in code may nest deeper than the parser allows,
// and printing one (for a repro or a diagnostic dump) must not overflow.
#include <algorithm>
#include <string_view>
#include <vector>

#include "spec/text/names.h"
#include "spec/text/program_printer.h"
#include "spec/text/text_format.h"

namespace vyre::text {
namespace {

/// Indentation stops deepening past this many levels (the validator's V018
/// nesting limit), so the text of a program built deeper in code stays linear
/// in its size instead of quadratic.
constexpr int kMaxIndentLevels = 64;

/// Axis spellings; any other axis prints as its number.
constexpr std::string_view kAxes[] = {"x", "y", "z"};

/// Written for a null ExprPtr, which only code can build; it is not in the
/// grammar, so such a dump shows the hole and does not parse back.
constexpr std::string_view kNullExpr = "<null>";

/// One pending piece of output.
struct Work {
  enum class Kind : unsigned char { Text, Indent, Expr, Node, Body };
  Kind kind;
  std::string_view text = {};
  const vyre::Expr* expr = nullptr;
  const vyre::Node* node = nullptr;
  const vyre::Body* body = nullptr;
  int indent = 0;
};

class Printer {
 public:
  explicit Printer(std::string& out) : out_(out) {}

  void program(const Program& program, int indent);

 private:
  void run();
  void text(std::string_view s) { stack_.push_back({Work::Kind::Text, s}); }
  void expr(const ExprPtr& e) {
    if (e) {
      stack_.push_back({Work::Kind::Expr, {}, e.get()});
    } else {
      text(kNullExpr);
    }
  }
  void body(const Body& b, int indent) {
    stack_.push_back({Work::Kind::Body, {}, nullptr, nullptr, &b, indent});
  }
  void indent(int levels) {
    out_.append(static_cast<size_t>(std::min(levels, kMaxIndentLevels)) * 2, ' ');
  }
  void number(uint64_t n) { out_ += std::to_string(n); }
  /// Pushes `args` separated by ", " (the caller has pushed what follows).
  void args(const std::vector<ExprPtr>& list);

  void print(const vyre::Expr& e);
  void print(const vyre::Node& n, int indent);
  void print_body(const Body& b, int indent);

  std::string& out_;
  std::vector<Work> stack_;
};

void Printer::program(const Program& program, int levels) {
  indent(levels);
  out_ += "program {\n";
  indent(levels + 1);
  out_ += "workgroup_size(";
  for (size_t i = 0; i < 3; ++i) {
    if (i > 0) out_ += ", ";
    number(program.workgroup_size[i]);
  }
  out_ += ")\n";
  for (const BufferDecl& decl : program.buffers) {
    indent(levels + 1);
    out_ += "buffer ";
    append_name(out_, decl.name);
    out_ += ": ";
    out_ += name_of(decl.element);
    out_ += ' ';
    out_ += name_of(decl.access);
    if (decl.access != BufferAccess::Workgroup || decl.binding != 0) {
      out_ += " @";
      number(decl.binding);
    }
    if (decl.count != 0) {
      out_ += " [";
      number(decl.count);
      out_ += ']';
    }
    out_ += '\n';
  }
  for (auto it = program.entry.rbegin(); it != program.entry.rend(); ++it) {
    stack_.push_back({Work::Kind::Node, {}, nullptr, &*it, nullptr, levels + 1});
  }
  run();
  indent(levels);
  out_ += "}\n";
}

void Printer::run() {
  while (!stack_.empty()) {
    Work work = stack_.back();
    stack_.pop_back();
    switch (work.kind) {
      case Work::Kind::Text:
        out_ += work.text;
        break;
      case Work::Kind::Indent:
        indent(work.indent);
        break;
      case Work::Kind::Expr:
        print(*work.expr);
        break;
      case Work::Kind::Node:
        print(*work.node, work.indent);
        break;
      case Work::Kind::Body:
        print_body(*work.body, work.indent);
        break;
    }
  }
}

void Printer::args(const std::vector<ExprPtr>& list) {
  for (size_t i = list.size(); i-- > 0;) {
    expr(list[i]);
    if (i > 0) text(", ");
  }
}

void Printer::print(const vyre::Expr& e) {
  std::visit(
      [&](const auto& k) {
        using T = std::decay_t<decltype(k)>;
        using namespace expr;
        if constexpr (std::is_same_v<T, LitU32>) {
          number(k.value);
        } else if constexpr (std::is_same_v<T, LitI32>) {
          out_ += std::to_string(k.value);
          out_ += 'i';
        } else if constexpr (std::is_same_v<T, LitBool>) {
          out_ += k.value ? "true" : "false";
        } else if constexpr (std::is_same_v<T, Var>) {
          append_name(out_, k.name);
        } else if constexpr (std::is_same_v<T, Load>) {
          append_name(out_, k.buffer);
          out_ += '[';
          text("]");
          expr(k.index);
        } else if constexpr (std::is_same_v<T, BufLen>) {
          out_ += "buflen(";
          append_name(out_, k.buffer);
          out_ += ')';
        } else if constexpr (std::is_same_v<T, InvocationId> || std::is_same_v<T, WorkgroupId> ||
                             std::is_same_v<T, LocalId>) {
          if constexpr (std::is_same_v<T, InvocationId>) out_ += "invocation_id.";
          if constexpr (std::is_same_v<T, WorkgroupId>) out_ += "workgroup_id.";
          if constexpr (std::is_same_v<T, LocalId>) out_ += "local_id.";
          if (k.axis < 3) {
            out_ += kAxes[k.axis];
          } else {
            number(k.axis);
          }
        } else if constexpr (std::is_same_v<T, Binary>) {
          out_ += name_of(k.op);
          out_ += '(';
          text(")");
          expr(k.right);
          text(", ");
          expr(k.left);
        } else if constexpr (std::is_same_v<T, Unary>) {
          out_ += name_of(k.op);
          out_ += '(';
          text(")");
          expr(k.operand);
        } else if constexpr (std::is_same_v<T, Call>) {
          out_ += "call ";
          append_op_id(out_, k.op_id);
          out_ += '(';
          text(")");
          args(k.args);
        } else if constexpr (std::is_same_v<T, Select>) {
          out_ += "select(";
          text(")");
          expr(k.if_false);
          text(", ");
          expr(k.if_true);
          text(", ");
          expr(k.cond);
        } else if constexpr (std::is_same_v<T, Cast>) {
          out_ += "cast<";
          out_ += name_of(k.target);
          out_ += ">(";
          text(")");
          expr(k.value);
        } else {
          static_assert(std::is_same_v<T, Atomic>);
          out_ += name_of(k.op);
          out_ += '(';
          append_name(out_, k.buffer);
          out_ += '[';
          text(")");
          expr(k.value);
          text(", ");
          if (k.expected) {
            expr(k.expected);
            text(", ");
          }
          text("]");
          expr(k.index);
        }
      },
      e.kind);
}

void Printer::print(const vyre::Node& n, int levels) {
  indent(levels);
  text("\n");
  std::visit(
      [&](const auto& k) {
        using T = std::decay_t<decltype(k)>;
        using namespace node;
        if constexpr (std::is_same_v<T, Let>) {
          out_ += "let ";
          append_name(out_, k.name);
          out_ += " = ";
          expr(k.value);
        } else if constexpr (std::is_same_v<T, Assign>) {
          append_name(out_, k.name);
          out_ += " = ";
          expr(k.value);
        } else if constexpr (std::is_same_v<T, Store>) {
          append_name(out_, k.buffer);
          out_ += '[';
          expr(k.value);
          text("] = ");
          expr(k.index);
        } else if constexpr (std::is_same_v<T, If>) {
          out_ += "if ";
          if (!k.otherwise.empty()) {
            body(k.otherwise, levels);
            text(" else ");
          }
          body(k.then_body, levels);
          text(" ");
          expr(k.cond);
        } else if constexpr (std::is_same_v<T, Loop>) {
          out_ += "for ";
          append_name(out_, k.var);
          out_ += " in ";
          body(k.body, levels);
          text(" ");
          expr(k.to);
          text(" .. ");
          expr(k.from);
        } else if constexpr (std::is_same_v<T, Block>) {
          body(k.body, levels);
        } else if constexpr (std::is_same_v<T, Return>) {
          out_ += "return";
        } else {
          static_assert(std::is_same_v<T, Barrier>);
          out_ += "barrier";
        }
      },
      n.kind);
}

void Printer::print_body(const Body& b, int levels) {
  if (b.empty()) {
    out_ += "{}";
    return;
  }
  out_ += "{\n";
  stack_.push_back({Work::Kind::Text, "}"});
  stack_.push_back({Work::Kind::Indent, {}, nullptr, nullptr, nullptr, levels});
  for (auto it = b.rbegin(); it != b.rend(); ++it) {
    stack_.push_back({Work::Kind::Node, {}, nullptr, &*it, nullptr, levels + 1});
  }
}

}  // namespace

void append_program(std::string& out, const Program& program, int indent) {
  Printer(out).program(program, indent);
}

}  // namespace vyre::text

namespace vyre {

std::string print_program(const Program& program) {
  std::string out;
  text::append_program(out, program, 0);
  return out;
}

}  // namespace vyre
