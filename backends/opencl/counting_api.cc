// A counting trampoline per entry point of opencl_functions.def.
#include "backends/opencl/counting_api.h"

#include <array>
#include <atomic>

namespace vyre::opencl::testing {
namespace {

enum Entry : size_t {
#define CL(name) k_##name,
#include "backends/opencl/opencl_functions.def"
#undef CL
  kEntries
};

constexpr std::array<std::string_view, kEntries> kNames = {
#define CL(name) #name,
#include "backends/opencl/opencl_functions.def"
#undef CL
};

/// The entry points wrap() replaced, and the calls counted.
OpenClApi real_api;
std::array<std::atomic<uint64_t>, kEntries> counts{};

template <size_t I, auto Member, typename R, typename... Args>
R CL_API_CALL counted(Args... args) {
  counts[I].fetch_add(1, std::memory_order_relaxed);
  return (real_api.*Member)(args...);
}

/// counted<> for an entry point of type R (*)(Args...).
template <size_t I, auto Member, typename R, typename... Args>
auto counting(R(CL_API_CALL*)(Args...)) {
  return &counted<I, Member, R, Args...>;
}

}  // namespace

void CallCounts::wrap(OpenClApi& api) {
  real_api = api;
#define CL(name) api.name = counting<k_##name, &OpenClApi::name>(api.name);
#include "backends/opencl/opencl_functions.def"
#undef CL
  reset();
}

void CallCounts::reset() {
  for (std::atomic<uint64_t>& count : counts) count.store(0);
}

uint64_t CallCounts::of(std::string_view name) {
  for (size_t i = 0; i < kEntries; ++i) {
    if (kNames[i] == name) return counts[i].load();
  }
  return 0;
}

uint64_t CallCounts::enqueues() {
  uint64_t total = 0;
  for (size_t i = 0; i < kEntries; ++i) {
    if (kNames[i].starts_with("clEnqueue")) total += counts[i].load();
  }
  return total;
}

}  // namespace vyre::opencl::testing
