// How names, op ids and strings are written: bare when they read as an
// identifier, quoted with escapes otherwise, so every IR string prints and
// parses back to itself.
#pragma once

#include <string>
#include <string_view>

namespace vyre::text {

/// [A-Za-z_]: may start an identifier.
bool is_ident_start(char c);
/// [A-Za-z0-9_]: may continue an identifier.
bool is_ident_char(char c);

/// True when `name` is an identifier that is not a reserved word.
bool is_bare_name(std::string_view name);
/// True when `id` is identifiers joined by single dots (`primitive.min`).
bool is_bare_op_id(std::string_view id);

/// Appends `bytes` as a string literal: "..." with \\ \" \n \t and \xHH for
/// every other byte outside printable ASCII.
void append_string_literal(std::string& out, std::string_view bytes);
/// Appends a buffer or variable name, quoted only when it must be.
void append_name(std::string& out, std::string_view name);
/// Appends a Call's op id, quoted only when it must be.
void append_op_id(std::string& out, std::string_view id);

}  // namespace vyre::text
