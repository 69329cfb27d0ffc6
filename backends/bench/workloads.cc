// The benchmark workloads.
#include "backends/bench/workloads.h"

#include "spec/ir/builder.h"

namespace vyre::bench {
namespace {

using namespace vyre::build;

ByteBuffer counting_words(uint32_t count) {
  ByteBuffer bytes(size_t{count} * 4);
  for (uint32_t i = 0; i < count; ++i) {
    for (uint32_t b = 0; b < 4; ++b) bytes[i * 4 + b] = static_cast<uint8_t>(i >> (8 * b));
  }
  return bytes;
}

/// out[i] = in[i] * 3 + 1 over `invocations` invocations, 64 per workgroup.
Workload elementwise(std::string name, uint32_t invocations) {
  const ExprPtr i = invocation_id(0);
  Program p{
      {storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
      {64, 1, 1},
      {if_(lt(i, buflen("out")), {store("out", i, add(mul(load("in", i), u32(3)), u32(1)))})}};
  return {std::move(name),
          std::move(p),
          {{"in", counting_words(invocations)}, {"out", ByteBuffer(size_t{invocations} * 4)}},
          Grid{{(invocations + 63) / 64, 1, 1}}};
}

/// One invocation storing one word: what a dispatch costs beyond the work.
Workload tiny() {
  Program p{
      {storage("out", 0, BufferAccess::ReadWrite)}, {1, 1, 1}, {store("out", u32(0), u32(7))}};
  return {"tiny", std::move(p), {{"out", ByteBuffer(4)}}, Grid{}};
}

}  // namespace

std::vector<Workload> benchmark_workloads() {
  return {elementwise("elementwise_1M", 1u << 20), tiny()};
}

}  // namespace vyre::bench
