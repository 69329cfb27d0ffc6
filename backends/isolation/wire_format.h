// The payload encoding of isolation messages: little-endian integers, doubles
// by their bits, and length-prefixed strings and byte vectors. The reader
// never trusts a length and never reads past the payload.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "spec/ir/host_abi.h"
#include "spec/support/result.h"

namespace vyre::isolation {

/// Appends values to a payload.
class WireWriter {
 public:
  void u8(uint8_t value);
  void u32(uint32_t value);
  void u64(uint64_t value);
  void f64(double value);
  /// Length (u64) then the bytes.
  void text(std::string_view value);
  /// Length (u64) then the bytes.
  void bytes(std::span<const uint8_t> value);
  /// Count (u32), then each buffer's name and bytes, in name order.
  void buffers(const BufferSet& value);
  /// The payload written so far.
  std::vector<uint8_t> take() { return std::move(out_); }

 private:
  std::vector<uint8_t> out_;
};

/// Reads values back. After the first malformed read every later read gives a
/// zero value, and finish() reports that first problem.
class WireReader {
 public:
  explicit WireReader(std::span<const uint8_t> payload) : in_(payload) {}
  uint8_t u8();
  uint32_t u32();
  uint64_t u64();
  double f64();
  std::string text();
  ByteBuffer bytes();
  /// Rejects duplicate names.
  BufferSet buffers();
  /// Marks the payload malformed (for a value out of range).
  void fail(const std::string& why);
  /// True once a read or fail() found the payload malformed.
  bool failed() const { return !error_.empty(); }
  /// Ok when every read fit and no byte is left over.
  Result<Ok> finish() const;

 private:
  bool take(size_t count, const uint8_t** at);
  uint64_t little_endian(size_t count);

  std::span<const uint8_t> in_;
  size_t at_ = 0;
  std::string error_;
};

}  // namespace vyre::isolation
