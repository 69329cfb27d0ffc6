#include "backends/isolation/wire_format.h"

#include <bit>
#include <limits>

#include "spec/ir/host_words.h"

namespace vyre::isolation {

void WireWriter::u8(uint8_t value) {
  out_.push_back(value);
}

void WireWriter::u32(uint32_t value) {
  append_le(out_, value, 4);
}

void WireWriter::u64(uint64_t value) {
  append_le(out_, value, 8);
}

void WireWriter::f64(double value) {
  u64(std::bit_cast<uint64_t>(value));
}

void WireWriter::text(std::string_view value) {
  u64(value.size());
  out_.insert(out_.end(), value.begin(), value.end());
}

void WireWriter::bytes(std::span<const uint8_t> value) {
  u64(value.size());
  out_.insert(out_.end(), value.begin(), value.end());
}

void WireWriter::buffers(const BufferSet& value) {
  // Buffers are most of a dispatch message: size it once rather than
  // copying megabytes on every regrowth.
  size_t needed = 4;
  for (const auto& [name, data] : value) needed += 16 + name.size() + data.size();
  out_.reserve(out_.size() + needed);
  u32(static_cast<uint32_t>(value.size()));
  for (const auto& [name, data] : value) {
    text(name);
    bytes(data);
  }
}

bool WireReader::take(size_t count, const uint8_t** at) {
  if (!error_.empty()) return false;
  if (count > in_.size() - at_) {
    fail("truncated: needs " + std::to_string(count) + " more bytes at offset " +
         std::to_string(at_) + " of " + std::to_string(in_.size()));
    return false;
  }
  *at = in_.data() + at_;
  at_ += count;
  return true;
}

uint64_t WireReader::little_endian(size_t count) {
  const uint8_t* at = nullptr;
  if (!take(count, &at)) return 0;
  return read_le(std::span<const uint8_t>(at, count));
}

uint8_t WireReader::u8() {
  return static_cast<uint8_t>(little_endian(1));
}

uint32_t WireReader::u32() {
  return static_cast<uint32_t>(little_endian(4));
}

uint64_t WireReader::u64() {
  return little_endian(8);
}

double WireReader::f64() {
  return std::bit_cast<double>(u64());
}

std::string WireReader::text() {
  uint64_t size = u64();
  const uint8_t* at = nullptr;
  if (size > std::numeric_limits<size_t>::max() || !take(static_cast<size_t>(size), &at)) {
    fail("a string longer than the rest of the message");
    return {};
  }
  return std::string(reinterpret_cast<const char*>(at), static_cast<size_t>(size));
}

ByteBuffer WireReader::bytes() {
  uint64_t size = u64();
  const uint8_t* at = nullptr;
  if (size > std::numeric_limits<size_t>::max() || !take(static_cast<size_t>(size), &at)) {
    fail("a byte vector longer than the rest of the message");
    return {};
  }
  return ByteBuffer(at, at + size);
}

BufferSet WireReader::buffers() {
  uint32_t count = u32();
  BufferSet out;
  for (uint32_t i = 0; i < count && !failed(); ++i) {
    std::string name = text();
    ByteBuffer data = bytes();
    if (failed()) break;
    if (!out.emplace(name, std::move(data)).second) fail("buffer '" + name + "' appears twice");
  }
  return out;
}

void WireReader::fail(const std::string& why) {
  if (error_.empty()) error_ = why;
}

Result<Ok> WireReader::finish() const {
  if (!error_.empty()) return Error{error_};
  if (at_ != in_.size()) {
    return Error{std::to_string(in_.size() - at_) + " unexpected bytes after the message"};
  }
  return Ok{};
}

}  // namespace vyre::isolation
