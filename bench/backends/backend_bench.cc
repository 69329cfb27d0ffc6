// Backend benchmark (Google Benchmark): for every backend and workload, the
// compile time, the pipeline build time (first dispatch of a compiled
// program) and the time of later dispatches with their upload, execute and
// readback phases as counters; for the tiny and elementwise workloads also a
// batch of 100 runs (dispatch_runs) over 1 and over 10 submissions, whose
// per_dispatch_us counter compares with the single dispatch's.
//
//   vyre_backend_bench [--vyre_backends=reference,vulkan,opencl] [benchmark flags]
//   VYRE_BENCH_DEVICE=H100 vyre_backend_bench      # pick the Vulkan and OpenCL device
//   VYRE_BENCH_HOST_THREADS=1 vyre_backend_bench   # reference batches serial
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "backends/registry/registry.h"
#include "bench/backends/workloads.h"

namespace vyre::bench {
namespace {

constexpr benchmark::IterationCount kPipelineBuildSamples = 10;

BackendOptions options_from_environment() {
  BackendOptions options;
  if (const char* device = std::getenv("VYRE_BENCH_DEVICE")) options.device = device;
  if (const char* threads = std::getenv("VYRE_BENCH_HOST_THREADS")) {
    options.host_threads = static_cast<uint32_t>(std::strtoul(threads, nullptr, 10));
  }
  return options;
}

/// One backend shared by all its benchmarks, so the device opens once. Never
/// destroyed: at exit, drivers (NVIDIA's) tear themselves down in atexit
/// handlers registered after this static, so destroying a device later crashes.
Backend& backend_named(std::string_view name) {
  static auto& backends = *new std::vector<std::unique_ptr<Backend>>;
  for (const auto& b : backends) {
    if (b->name() == name) return *b;
  }
  Result<std::unique_ptr<Backend>> made = make_backend(name, options_from_environment());
  if (!made.ok()) {
    std::fprintf(stderr, "%s\n", made.error().message.c_str());
    std::exit(2);
  }
  backends.push_back(std::move(*made));
  return *backends.back();
}

std::shared_ptr<const CompiledProgram> compile_or_skip(benchmark::State& state, Backend& backend,
                                                       const Program& program) {
  CompileOutcome compiled = backend.compile(program);
  if (compiled.status != Status::Ok) state.SkipWithError(compiled.message.c_str());
  return compiled.program;
}

bool dispatched(benchmark::State& state, const DispatchOutcome& outcome) {
  if (outcome.status == Status::Ok) return true;
  state.SkipWithError((std::string(name_of(outcome.status)) + ": " + outcome.message).c_str());
  return false;
}

void compile(benchmark::State& state, std::string backend_name, const Workload& w) {
  Backend& backend = backend_named(backend_name);
  for (auto _ : state) {
    if (!compile_or_skip(state, backend, w.program)) break;
  }
}

/// Manual time: the setup phase of each compiled program's first dispatch.
void pipeline_build(benchmark::State& state, std::string backend_name, const Workload& w) {
  Backend& backend = backend_named(backend_name);
  for (auto _ : state) {
    auto program = compile_or_skip(state, backend, w.program);
    if (!program) break;
    DispatchOutcome outcome = backend.dispatch(*program, w.inputs, w.grid);
    if (!dispatched(state, outcome)) break;
    if (outcome.timing.setup_ms == 0) {
      state.SkipWithError("this backend has no pipeline build phase");
      break;
    }
    state.SetIterationTime(outcome.timing.setup_ms / 1e3);
  }
}

/// Wall time of a dispatch whose pipeline already exists, with its phases.
void dispatch(benchmark::State& state, std::string backend_name, const Workload& w) {
  Backend& backend = backend_named(backend_name);
  auto program = compile_or_skip(state, backend, w.program);
  if (!program || !dispatched(state, backend.dispatch(*program, w.inputs, w.grid))) return;
  DispatchTiming total;
  double wall_us = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    DispatchOutcome outcome = backend.dispatch(*program, w.inputs, w.grid);
    wall_us +=
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    if (!dispatched(state, outcome)) break;
    total.setup_ms += outcome.timing.setup_ms;
    total.upload_ms += outcome.timing.upload_ms;
    total.execute_ms += outcome.timing.execute_ms;
    total.readback_ms += outcome.timing.readback_ms;
  }
  const auto average = [&](double ms) {
    return benchmark::Counter(ms, benchmark::Counter::kAvgIterations);
  };
  state.counters["setup_ms"] = average(total.setup_ms);
  state.counters["upload_ms"] = average(total.upload_ms);
  state.counters["execute_ms"] = average(total.execute_ms);
  state.counters["readback_ms"] = average(total.readback_ms);
  state.counters["per_dispatch_us"] = average(wall_us);
}

/// Runs per batch, as a certification run repeats each variant.
constexpr uint32_t kBatchRuns = 100;

/// Wall time of dispatch_runs(kBatchRuns) over state.range(0) submissions,
/// pipeline already built; per_dispatch_us is the batch's amortised cost.
void dispatch_runs(benchmark::State& state, std::string backend_name, const Workload& w) {
  Backend& backend = backend_named(backend_name);
  auto program = compile_or_skip(state, backend, w.program);
  if (!program || !dispatched(state, backend.dispatch(*program, w.inputs, w.grid))) return;
  const BatchOptions options{kBatchRuns, static_cast<uint32_t>(state.range(0))};
  double per_dispatch_us = 0;
  for (auto _ : state) {
    BatchOutcome batch = backend.dispatch_runs(*program, w.inputs, w.grid, options);
    if (batch.status != Status::Ok || batch.differing_runs != 0) {
      state.SkipWithError((std::string(name_of(batch.status)) + ": " + batch.message +
                           " (differing runs: " + std::to_string(batch.differing_runs) + ")")
                              .c_str());
      break;
    }
    per_dispatch_us += batch.timing.per_dispatch_us;
  }
  state.counters["per_dispatch_us"] =
      benchmark::Counter(per_dispatch_us, benchmark::Counter::kAvgIterations);
}

std::vector<std::string> backends_from_flags(int& argc, char** argv) {
  std::vector<std::string> names = {"reference", "vulkan", "opencl"};
  const std::string flag = "--vyre_backends=";
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (!arg.starts_with(flag)) {
      argv[kept++] = argv[i];
      continue;
    }
    names.clear();
    std::string list = arg.substr(flag.size());
    for (size_t start = 0; start <= list.size();) {
      const size_t comma = std::min(list.find(',', start), list.size());
      if (comma > start) names.push_back(list.substr(start, comma - start));
      start = comma + 1;
    }
  }
  argc = kept;
  return names;
}

}  // namespace
}  // namespace vyre::bench

int main(int argc, char** argv) {
  using namespace vyre::bench;
  const std::vector<std::string> backends = backends_from_flags(argc, argv);
  static const std::vector<Workload> workloads = benchmark_workloads();
  for (const std::string& backend : backends) {
    for (const Workload& w : workloads) {
      const std::string suffix = "/" + backend + "/" + w.name;
      benchmark::RegisterBenchmark(("compile" + suffix).c_str(), compile, backend, w)
          ->Unit(benchmark::kMillisecond);
      // A fixed number of samples: the manual time counts the setup phase
      // alone, so Google Benchmark would size the run by it and repeat a
      // dispatch that takes seconds (graph.bfs) thousands of times.
      benchmark::RegisterBenchmark(("pipeline_build" + suffix).c_str(), pipeline_build, backend, w)
          ->UseManualTime()
          ->Iterations(kPipelineBuildSamples)
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("dispatch" + suffix).c_str(), dispatch, backend, w)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
      if (w.name == "tiny" || w.name.starts_with("elementwise")) {
        benchmark::RegisterBenchmark(("dispatch_runs" + suffix).c_str(), dispatch_runs, backend, w)
            ->Arg(1)
            ->Arg(10)
            ->ArgName("submissions")
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
