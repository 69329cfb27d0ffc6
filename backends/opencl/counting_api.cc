// A counting trampoline per entry point of opencl_functions.def.
#include "backends/opencl/counting_api.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <vector>

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
std::array<std::atomic<uint64_t>, kEntries> nanoseconds{};

template <size_t I, auto Member, typename R, typename... Args>
R CL_API_CALL counted(Args... args) {
  counts[I].fetch_add(1, std::memory_order_relaxed);
  const auto start = std::chrono::steady_clock::now();
  R result = (real_api.*Member)(args...);
  nanoseconds[I].fetch_add(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count(),
      std::memory_order_relaxed);
  return result;
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
  for (std::atomic<uint64_t>& time : nanoseconds) time.store(0);
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

std::string CallCounts::table() {
  std::vector<size_t> called;
  for (size_t i = 0; i < kEntries; ++i) {
    if (counts[i].load() != 0) called.push_back(i);
  }
  std::sort(called.begin(), called.end(),
            [](size_t a, size_t b) { return nanoseconds[a].load() > nanoseconds[b].load(); });
  std::string out;
  for (size_t i : called) {
    char line[128];
    std::snprintf(line, sizeof line, "%-32.*s %8llu calls %10.1f us\n",
                  static_cast<int>(kNames[i].size()), kNames[i].data(),
                  static_cast<unsigned long long>(counts[i].load()),
                  static_cast<double>(nanoseconds[i].load()) / 1e3);
    out += line;
  }
  return out;
}

}  // namespace vyre::opencl::testing
