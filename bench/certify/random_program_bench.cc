// Programs per second of L5 and `vyre-certify fuzz`: generate a random
// program, screen it on the reference, build its metamorphic variants, and
// run each case on a backend against the reference (every variant of the
// case once). Items/s is programs/s.
//   vyre_random_program_bench [--benchmark_filter=vulkan] (VYRE_BENCH_DEVICE
//   picks the Vulkan device)
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "backends/registry/registry.h"
#include "certify/run/case_runner.h"
#include "certify/suite/random_program_cases.h"

namespace vyre::certify {
namespace {

/// One backend per name for the whole process, never destroyed (drivers
/// tear down in their own atexit handlers).
Backend& backend_named(const std::string& name) {
  static auto& backends = *new std::vector<std::unique_ptr<Backend>>;
  for (const auto& b : backends) {
    if (b->name() == name) return *b;
  }
  BackendOptions options;
  if (const char* device = std::getenv("VYRE_BENCH_DEVICE")) options.device = device;
  auto made = make_backend(name, options);
  if (!made.ok()) {
    std::fprintf(stderr, "%s\n", made.error().message.c_str());
    std::exit(2);
  }
  backends.push_back(std::move(*made));
  return *backends.back();
}

/// `with_variants`: the program and its metamorphic variants (what L5 and
/// fuzz run per program); otherwise the program alone.
void programs(benchmark::State& state, const std::string& backend_name, bool with_variants) {
  Backend& backend = backend_named(backend_name);
  CaseRunOptions options;
  options.runs = 1;
  const ReproWriter no_repro = [](const TestCase&) { return std::string(); };
  uint32_t index = 0;
  uint64_t cases = 0;
  for (auto _ : state) {
    auto suite = random_program_suite_cases(random_program_seed(1, index), "bench", 1);
    ++index;
    if (!suite) continue;
    for (const SuiteCase& c : *suite) {
      CaseResult r = run_case(backend, c, options, no_repro);
      ++cases;
      if (r.verdict != Verdict::Pass) {
        state.SkipWithError((c.id + ": " + r.message).c_str());
        return;
      }
      if (!with_variants) break;
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  state.counters["cases"] = static_cast<double>(cases);
}

void register_all() {
  for (const char* backend : {"reference", "vulkan"}) {
    benchmark::RegisterBenchmark((std::string("program/") + backend).c_str(), programs,
                                 std::string(backend), false)
        ->Unit(benchmark::kMillisecond)
        ->MinTime(2.0)
        ->UseRealTime();
    benchmark::RegisterBenchmark((std::string("program_with_variants/") + backend).c_str(),
                                 programs, std::string(backend), true)
        ->Unit(benchmark::kMillisecond)
        ->MinTime(2.0)
        ->UseRealTime();
  }
}

}  // namespace
}  // namespace vyre::certify

int main(int argc, char** argv) {
  vyre::certify::register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
