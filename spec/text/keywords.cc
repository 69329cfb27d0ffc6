#include "spec/text/keywords.h"

#include <array>

#include "spec/ir/types.h"

namespace vyre::text {
namespace {

constexpr std::array kKeywordSpellings = {
#define X(e, spelling, reserved) std::string_view(spelling),
#include "spec/text/keywords.def"
#undef X
};
constexpr std::array kReserved = {
#define X(e, spelling, reserved) reserved,
#include "spec/text/keywords.def"
#undef X
};

}  // namespace

std::string_view spelling_of(Keyword k) {
  return kKeywordSpellings[static_cast<size_t>(k)];
}

std::optional<Keyword> keyword_named(std::string_view word) {
  for (size_t i = 0; i < kKeywordSpellings.size(); ++i) {
    if (kKeywordSpellings[i] == word) return static_cast<Keyword>(i);
  }
  return std::nullopt;
}

bool is_reserved_word(std::string_view word) {
  std::optional<Keyword> k = keyword_named(word);
  if (k) return kReserved[static_cast<size_t>(*k)];
  return bin_op_named(word) || un_op_named(word) || atomic_op_named(word);
}

}  // namespace vyre::text
