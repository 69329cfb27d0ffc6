// Interpreter throughput in ns per lane-operation (RunResult::lane_ops) on
// three workloads, each with the checks (race and divergence observers) off
// and on:
//   elementwise  1M invocations of out[i] = in[i] + 1 (batches of many workgroups)
//   loop_heavy   64K invocations of a 64-iteration multiply-xor loop
//   barrier      256K invocations reducing 256-lane workgroups through
//                workgroup memory, 9 barriers each (one workgroup per batch)
// Counters: lane_ops per run and time_per_lane_op (CPU seconds, SI prefix).
#include <benchmark/benchmark.h>

#include "reference/interpreter.h"
#include "spec/ir/builder.h"

namespace vyre::reference {
namespace {

using namespace vyre::build;

struct Workload {
  Program program;
  BufferSet inputs;
  Grid grid;
};

Workload elementwise() {
  constexpr uint32_t n = 1u << 20;
  return {Program{{storage("in", 0, BufferAccess::ReadOnly),
                   storage("out", 1, BufferAccess::ReadWrite)},
                  {64, 1, 1},
                  {store("out", invocation_id(0), add(load("in", invocation_id(0)), u32(1)))}},
          {{"in", ByteBuffer(size_t{n} * 4, 1)}, {"out", ByteBuffer(size_t{n} * 4, 0)}},
          Grid{{n / 64, 1, 1}}};
}

Workload loop_heavy() {
  constexpr uint32_t n = 1u << 16;
  const ExprPtr id = invocation_id(0);
  return {Program{{storage("in", 0, BufferAccess::ReadOnly),
                   storage("out", 1, BufferAccess::ReadWrite)},
                  {64, 1, 1},
                  {let("s", load("in", id)),
                   loop("i", u32(0), u32(64),
                        {assign("s", bit_xor(mul(var("s"), u32(31)), add(var("i"), id)))}),
                   store("out", id, var("s"))}},
          {{"in", ByteBuffer(size_t{n} * 4, 3)}, {"out", ByteBuffer(size_t{n} * 4, 0)}},
          Grid{{n / 64, 1, 1}}};
}

Workload barrier_reduction() {
  constexpr uint32_t lanes = 256;
  constexpr uint32_t groups = 1024;
  const ExprPtr lid = local_id(0);
  const ExprPtr stride = shr(u32(lanes / 2), var("step"));
  return {
      Program{{storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite),
               workgroup("partial", DataType::U32, lanes)},
              {lanes, 1, 1},
              {store("partial", lid, load("in", invocation_id(0))), barrier(),
               loop("step", u32(0), u32(8),
                    {if_(lt(lid, stride),
                         {store("partial", lid,
                                add(load("partial", lid), load("partial", add(lid, stride))))}),
                     barrier()}),
               if_(eq(lid, u32(0)), {store("out", workgroup_id(0), load("partial", u32(0)))})}},
      {{"in", ByteBuffer(size_t{lanes} * groups * 4, 1)},
       {"out", ByteBuffer(size_t{groups} * 4, 0)}},
      Grid{{groups, 1, 1}}};
}

void run_workload(benchmark::State& state, const Workload& w) {
  RunOptions options;
  options.checks = state.range(0) != 0;
  uint64_t lane_ops = 0;
  for (auto _ : state) {
    Result<RunResult> r = run(w.program, w.inputs, w.grid, options);
    if (!r.ok()) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    lane_ops = r->lane_ops;
    benchmark::DoNotOptimize(r->outputs);
  }
  state.counters["lane_ops"] = static_cast<double>(lane_ops);
  // Seconds per lane-operation of CPU time (printed with an SI prefix: 650p
  // is 0.65 ns). CPU time, not wall time, so other load on the machine does
  // not count.
  state.counters["time_per_lane_op"] = benchmark::Counter(
      static_cast<double>(lane_ops),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.SetLabel(options.checks ? "checks on" : "checks off");
}

void BM_Elementwise1M(benchmark::State& state) {
  static const Workload w = elementwise();
  run_workload(state, w);
}
void BM_LoopHeavy(benchmark::State& state) {
  static const Workload w = loop_heavy();
  run_workload(state, w);
}
void BM_BarrierReduction(benchmark::State& state) {
  static const Workload w = barrier_reduction();
  run_workload(state, w);
}

BENCHMARK(BM_Elementwise1M)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoopHeavy)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BarrierReduction)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace vyre::reference

BENCHMARK_MAIN();
