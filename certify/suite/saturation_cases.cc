#include "certify/suite/saturation_cases.h"

#include "spec/ir/builder.h"
#include "spec/ir/host_words.h"
#include "spec/support/huge_pages.h"

namespace vyre::certify {
namespace {

using namespace vyre::build;

// The guaranteed minimums the cases sit at.
constexpr uint32_t kStorageBufferWords = (uint32_t{1} << 27) / 4;
constexpr uint32_t kWorkgroupMemoryWords = 16384 / 4;
constexpr uint32_t kWorkgroupInvocations = 128;
constexpr uint32_t kWorkgroupsPerAxis = 65535;

SuiteCase hand_written(std::string name, Program program, Grid grid, BufferSet inputs,
                       BufferSet expected, std::string inputs_are) {
  DispatchCase d;
  d.test_case = TestCase{"saturation/" + name, std::move(program), grid, std::move(inputs),
                         std::move(expected)};
  // The seed plays no part: the closed form alone rebuilds the inputs.
  InputRecipe recipe{"certify/suite/saturation_cases.cc: " + std::move(inputs_are), std::nullopt};
  return SuiteCase{"L4/saturation/" + name, Level::L4, "hand-computed closed form",
                   std::move(recipe), std::move(d)};
}

/// `bytes` zero bytes on huge pages: first touched 4 KiB page by page, the
/// two 128 MiB buffers took 65536 page faults, most of the catalog's build
/// time.
ByteBuffer large_zeroed_buffer(size_t bytes) {
  ByteBuffer buffer;
  reserve_on_huge_pages(buffer, bytes);
  buffer.resize(bytes);
  return buffer;
}

/// One read_write buffer of 2^27 bytes updated in place, dispatched as a 2-D
/// grid because 2^25 invocations need more than 65535 workgroups on one axis.
SuiteCase storage_buffer_at_limit() {
  constexpr uint32_t kRowInvocations = 65536;  // 512 workgroups of 128 on x
  constexpr uint32_t kMultiplier = 0x9E3779B1;
  Program p{
      {storage("data", 0, BufferAccess::ReadWrite)},
      {kWorkgroupInvocations, 1, 1},
      {let("i", add(mul(invocation_id(1), u32(kRowInvocations)), invocation_id(0))),
       store("data", var("i"), add(mul(load("data", var("i")), u32(kMultiplier)), var("i")))}};
  // Written straight as little-endian bytes: 2^25 words through a word
  // vector would double the case's build time and peak memory.
  ByteBuffer data = large_zeroed_buffer(size_t{kStorageBufferWords} * 4);
  ByteBuffer expected = large_zeroed_buffer(data.size());
  for (uint32_t i = 0; i < kStorageBufferWords; ++i) {
    const uint32_t before = i ^ 0xA5A5A5A5u;
    const uint32_t after = before * kMultiplier + i;
    for (uint32_t b = 0; b < 4; ++b) {
      data[size_t{i} * 4 + b] = static_cast<uint8_t>(before >> (8 * b));
      expected[size_t{i} * 4 + b] = static_cast<uint8_t>(after >> (8 * b));
    }
  }
  const Grid grid{
      {kRowInvocations / kWorkgroupInvocations, kStorageBufferWords / kRowInvocations, 1}};
  // Moved in: a braced BufferSet would copy both 128 MiB buffers out of its
  // initializer list.
  BufferSet inputs;
  inputs.emplace("data", std::move(data));
  BufferSet outputs;
  outputs.emplace("data", std::move(expected));
  return hand_written("storage_buffer_128MiB", std::move(p), grid, std::move(inputs),
                      std::move(outputs),
                      "data[i] = i ^ 0xA5A5A5A5 for i < 2^25 (128 MiB), expected "
                      "data[i] * 0x9E3779B1 + i");
}

/// 16 KiB of workgroup memory filled by 128 lanes (32 words each), then read
/// back mirrored after a barrier; eight workgroups, so the memory must also be
/// private to each workgroup.
SuiteCase workgroup_memory_at_limit() {
  constexpr uint32_t kPerLane = kWorkgroupMemoryWords / kWorkgroupInvocations;
  constexpr uint32_t kWorkgroups = 8;
  constexpr uint32_t kStride = 7919;
  const ExprPtr lane = local_id(0);
  Program p{
      {workgroup("shared", DataType::U32, kWorkgroupMemoryWords),
       storage("out", 0, BufferAccess::ReadWrite)},
      {kWorkgroupInvocations, 1, 1},
      {loop("k", u32(0), u32(kPerLane),
            {let("slot", add(mul(lane, u32(kPerLane)), var("k"))),
             store("shared", var("slot"), add(mul(workgroup_id(0), u32(kStride)), var("slot")))}),
       barrier(), let("mirror", sub(u32(kWorkgroupInvocations - 1), lane)), let("sum", u32(0)),
       loop("j", u32(0), u32(kPerLane),
            {assign("sum", add(var("sum"),
                               load("shared", add(mul(var("mirror"), u32(kPerLane)), var("j")))))}),
       store("out", invocation_id(0), var("sum"))}};
  // sum over k of (w * kStride + m * kPerLane + k), m = 127 - lane.
  std::vector<uint32_t> expected;
  for (uint32_t w = 0; w < kWorkgroups; ++w) {
    for (uint32_t l = 0; l < kWorkgroupInvocations; ++l) {
      const uint32_t m = kWorkgroupInvocations - 1 - l;
      expected.push_back(kPerLane * (w * kStride + m * kPerLane) + kPerLane * (kPerLane - 1) / 2);
    }
  }
  return hand_written("workgroup_memory_16KiB", std::move(p), Grid{{kWorkgroups, 1, 1}},
                      {{"out", ByteBuffer(expected.size() * 4, 0)}}, {{"out", to_bytes(expected)}},
                      "out = 1024 zero words");
}

/// 65535 workgroups on x, each writing its own word and counting itself.
SuiteCase workgroup_count_at_limit() {
  Program p{
      {storage("out", 0, BufferAccess::ReadWrite), storage("count", 1, BufferAccess::ReadWrite)},
      {1, 1, 1},
      {store("out", workgroup_id(0), bit_xor(workgroup_id(0), u32(0x5A5A5A5A))),
       let("old", atomic(AtomicOp::Add, "count", u32(0), u32(1)))}};
  std::vector<uint32_t> expected(kWorkgroupsPerAxis);
  for (uint32_t w = 0; w < kWorkgroupsPerAxis; ++w) expected[w] = w ^ 0x5A5A5A5Au;
  return hand_written("workgroup_count_65535", std::move(p), Grid{{kWorkgroupsPerAxis, 1, 1}},
                      {{"out", ByteBuffer(expected.size() * 4, 0)}, {"count", to_bytes({0})}},
                      {{"out", to_bytes(expected)}, {"count", to_bytes({kWorkgroupsPerAxis})}},
                      "out = 65535 zero words, count = 0");
}

/// 2^20 invocations on four counters: count, wrapping sum, max and xor.
SuiteCase atomic_contention_at_scale() {
  constexpr uint32_t kInvocations = uint32_t{1} << 20;
  const ExprPtr inv = invocation_id(0);
  Program p{{storage("ctr", 0, BufferAccess::ReadWrite)},
            {64, 1, 1},
            {let("a", atomic(AtomicOp::Add, "ctr", u32(0), u32(1))),
             let("b", atomic(AtomicOp::Add, "ctr", u32(1), inv)),
             let("c", atomic(AtomicOp::Max, "ctr", u32(2), inv)),
             let("d", atomic(AtomicOp::Xor, "ctr", u32(3), inv))}};
  // 0 + 1 + ... + (n - 1) = n (n - 1) / 2 wraps mod 2^32; the xor of 0..n-1
  // is 0 when n is a multiple of 4.
  const uint64_t n = kInvocations;
  const auto sum = static_cast<uint32_t>(n * (n - 1) / 2);
  return hand_written("atomic_contention_1M", std::move(p), Grid{{kInvocations / 64, 1, 1}},
                      {{"ctr", to_bytes({0, 0, 0, 0})}},
                      {{"ctr", to_bytes({kInvocations, sum, kInvocations - 1, 0})}},
                      "ctr = 4 zero words");
}

}  // namespace

std::vector<SuiteCase> saturation_cases() {
  std::vector<SuiteCase> out;
  out.push_back(storage_buffer_at_limit());
  out.push_back(workgroup_memory_at_limit());
  out.push_back(workgroup_count_at_limit());
  out.push_back(atomic_contention_at_scale());
  return out;
}

}  // namespace vyre::certify
