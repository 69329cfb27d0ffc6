// Prints test cases canonically. Buffer bytes take the shortest faithful
// form: `zeros`/`fill` for one repeated byte, a u32 list when the length is
// a multiple of 4, hex otherwise.
#include <algorithm>
#include <cstdio>

#include "spec/ir/host_words.h"
#include "spec/text/names.h"
#include "spec/text/program_printer.h"
#include "spec/text/text_format.h"

namespace vyre::text {
namespace {

/// Values per line in a long u32 list.
constexpr size_t kValuesPerLine = 8;
/// Below this a u32 prints in decimal, from it in hex.
constexpr uint32_t kFirstHexValue = 0x10000;

void append_u32(std::string& out, uint32_t value) {
  char digits[16];
  if (value < kFirstHexValue) {
    std::snprintf(digits, sizeof digits, "%u", value);
  } else {
    std::snprintf(digits, sizeof digits, "0x%X", value);
  }
  out += digits;
}

void append_data(std::string& out, const ByteBuffer& bytes, int indent) {
  if (!bytes.empty() &&
      std::all_of(bytes.begin(), bytes.end(), [&](uint8_t b) { return b == bytes.front(); })) {
    if (bytes.front() == 0) {
      out += "zeros " + std::to_string(bytes.size());
    } else {
      char fill[8];
      std::snprintf(fill, sizeof fill, "0x%02X", bytes.front());
      out += "fill " + std::to_string(bytes.size()) + " " + fill;
    }
    return;
  }
  if (bytes.empty() || bytes.size() % 4 != 0) {
    constexpr char kHex[] = "0123456789abcdef";
    out += "hex \"";
    for (uint8_t b : bytes) {
      out += kHex[b >> 4];
      out += kHex[b & 0xF];
    }
    out += '"';
    return;
  }
  size_t count = bytes.size() / 4;
  bool wrap = count > kValuesPerLine;
  out += "u32 [";
  for (size_t i = 0; i < count; ++i) {
    if (wrap && i % kValuesPerLine == 0) {
      if (i > 0) out += ',';
      out += '\n';
      out.append(static_cast<size_t>(indent + 1) * 2, ' ');
    } else if (i > 0) {
      out += ", ";
    }
    append_u32(out, word_at(bytes, i));
  }
  if (wrap) {
    out += '\n';
    out.append(static_cast<size_t>(indent) * 2, ' ');
  }
  out += ']';
}

void append_buffers(std::string& out, std::string_view keyword, const BufferSet& buffers) {
  for (const auto& [name, bytes] : buffers) {
    out += "  ";
    out += keyword;
    out += ' ';
    append_name(out, name);
    out += ": ";
    append_data(out, bytes, 1);
    out += '\n';
  }
}

}  // namespace
}  // namespace vyre::text

namespace vyre {

std::string print_case(const TestCase& test_case) {
  std::string out = "case ";
  text::append_string_literal(out, test_case.name);
  out += " {\n";
  text::append_program(out, test_case.program, 1);
  const auto& grid = test_case.grid.workgroups;
  out += "  dispatch(" + std::to_string(grid[0]) + ", " + std::to_string(grid[1]) + ", " +
         std::to_string(grid[2]) + ")\n";
  if (const auto& b = test_case.batch) {
    out += "  batch(" + std::to_string(b->runs) + ", " + std::to_string(b->submissions) + ", " +
           std::to_string(b->failed_run) + ")  # runs, submissions, the run that failed\n";
  }
  if (test_case.encoding != Encoding::AsEmitted) {
    out += "  encoding ";
    text::append_string_literal(out, std::string(name_of(test_case.encoding)));
    out += "\n";
  }
  text::append_buffers(out, "input", test_case.inputs);
  if (test_case.comparison != Comparison::Bytes) {
    out += "  compare " + std::string(name_of(test_case.comparison)) + "\n";
  }
  if (!test_case.expected) {
    out += "  expect reference\n";
  } else if (test_case.expected->empty()) {
    out += "  expect nothing\n";
  } else {
    text::append_buffers(out, "expect", *test_case.expected);
  }
  out += "}\n";
  return out;
}

}  // namespace vyre
