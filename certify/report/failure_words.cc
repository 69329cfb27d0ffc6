#include "certify/report/failure_words.h"

#include <algorithm>
#include <cstring>
#include <set>

namespace vyre::certify {
namespace {

uint64_t word_count(const ByteBuffer* bytes) {
  return bytes ? (bytes->size() + 3) / 4 : 0;
}

std::optional<uint32_t> word_or_none(const ByteBuffer* bytes, uint64_t index) {
  if (!bytes || index >= word_count(bytes)) return std::nullopt;
  uint32_t word = 0;
  const uint64_t first = index * 4;
  for (uint64_t b = 0; b < 4 && first + b < bytes->size(); ++b) {
    word |= static_cast<uint32_t>((*bytes)[first + b]) << (8 * b);
  }
  return word;
}

/// word_or_none(expected, i) != word_or_none(observed, i), without decoding where both
/// hold the whole word (a 128 MiB buffer is 32 Mi words).
bool word_differs(const ByteBuffer* expected, const ByteBuffer* observed, uint64_t index) {
  const uint64_t end = (index + 1) * 4;
  if (expected && observed && end <= expected->size() && end <= observed->size()) {
    return std::memcmp(expected->data() + index * 4, observed->data() + index * 4, 4) != 0;
  }
  return word_or_none(expected, index) != word_or_none(observed, index);
}

const ByteBuffer* buffer_named(const BufferSet& buffers, const std::string& name) {
  auto it = buffers.find(name);
  return it == buffers.end() ? nullptr : &it->second;
}

/// Collects the rows of one buffer: counts every differing word, keeps rows
/// while the cap allows.
class RowCollector {
 public:
  RowCollector(const ByteBuffer* expected, const ByteBuffer* observed, BufferWords& out)
      : expected_(expected), observed_(observed), out_(out) {}

  void visit(uint64_t i) {
    const bool differs = word_differs(expected_, observed_, i);
    if (differs) ++out_.differing;
    if (differs) {
      // Equal words just before it, as context, unless already shown.
      for (uint64_t j = std::max(next_, i >= kWordContext ? i - kWordContext : 0); j < i; ++j) {
        keep(j);
      }
      show_until_ = i + kWordContext;
      showing_ = true;
    }
    if (showing_ && i <= show_until_) keep(i);
  }

 private:
  void keep(uint64_t i) {
    if (out_.rows.size() >= kMaxWordRows) return;
    const auto e = word_or_none(expected_, i);
    const auto o = word_or_none(observed_, i);
    out_.rows.push_back({i, e, o, e != o});
    next_ = i + 1;
  }

  const ByteBuffer* expected_;
  const ByteBuffer* observed_;
  BufferWords& out_;
  uint64_t next_ = 0;
  uint64_t show_until_ = 0;
  bool showing_ = false;
};

}  // namespace

std::vector<BufferWords> compare_words(const BufferSet& expected, const BufferSet& observed) {
  std::set<std::string> names;
  for (const auto& [name, bytes] : expected) names.insert(name);
  for (const auto& [name, bytes] : observed) names.insert(name);
  std::vector<BufferWords> out;
  for (const std::string& name : names) {
    const ByteBuffer* e = buffer_named(expected, name);
    const ByteBuffer* o = buffer_named(observed, name);
    BufferWords words{name, std::max(word_count(e), word_count(o)), 0, {}};
    RowCollector collect(e, o, words);
    uint64_t i = 0;
    for (; i < words.words && words.rows.size() < kMaxWordRows; ++i) collect.visit(i);
    // The table is full: only count the rest.
    for (; i < words.words; ++i) words.differing += word_differs(e, o, i) ? 1 : 0;
    if (words.differing > 0) out.push_back(std::move(words));
  }
  return out;
}

}  // namespace vyre::certify
