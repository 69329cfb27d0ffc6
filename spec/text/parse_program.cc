// The program production: `program { declarations statements }`.
#include "spec/text/parser.h"
#include "spec/text/syntax_error.h"

namespace vyre::text {

Program Parser::program() {
  const SourceLoc keyword = current().loc;
  expect_keyword(Keyword::Program, "(a program starts with `program {`)");
  SourceLoc open = expect(TokenKind::LBrace, "after `program`").loc;
  Program program;
  program.loc = keyword;
  bool have_workgroup_size = false;
  while (true) {
    if (at_keyword(Keyword::WorkgroupSize)) {
      SourceLoc loc = take().loc;
      if (have_workgroup_size) fail_at(loc, "`workgroup_size` is given twice; keep one");
      have_workgroup_size = true;
      program.workgroup_size_loc = loc;
      program.workgroup_size = triple("workgroup_size");
    } else if (at_keyword(Keyword::Buffer)) {
      program.buffers.push_back(buffer_decl());
    } else {
      break;
    }
  }
  while (!at(TokenKind::RBrace)) {
    if (at(TokenKind::End)) {
      fail_expected("`}`", "to close the program opened at " + std::to_string(open.line) + ":" +
                               std::to_string(open.col));
    }
    program.entry.push_back(statement());
  }
  take();
  return program;
}

BufferDecl Parser::buffer_decl() {
  BufferDecl decl;
  decl.loc = take().loc;
  decl.name = name("after `buffer`");
  expect(TokenKind::Colon, "after the buffer name (as in `buffer out: u32 read_write @1`)");
  decl.element = data_type("as the element type of a buffer");
  decl.access = buffer_access("after the element type of a buffer");
  if (at(TokenKind::At)) {
    take();
    decl.binding = u32_number("as a binding slot");
  } else if (decl.access != BufferAccess::Workgroup) {
    fail_expected("`@` and a binding slot",
                  "after the access of a non-workgroup buffer (as in `read_only @0`)");
  }
  if (at(TokenKind::LBracket)) {
    take();
    decl.count = u32_number("as an element count");
    expect(TokenKind::RBracket, "to close the element count");
  }
  return decl;
}

std::array<uint32_t, 3> Parser::triple(std::string_view keyword) {
  std::string context = "in `" + std::string(keyword) + "(x, y, z)`";
  expect(TokenKind::LParen, context);
  std::array<uint32_t, 3> xyz{};
  for (size_t i = 0; i < 3; ++i) {
    if (i > 0) expect(TokenKind::Comma, context);
    xyz[i] = u32_number(context);
  }
  expect(TokenKind::RParen, context);
  return xyz;
}

}  // namespace vyre::text
