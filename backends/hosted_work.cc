#include "backends/hosted_work.h"

#include <pthread.h>

#include <map>
#include <mutex>
#include <utility>

#include "backends/level_loop.h"
#include "spec/support/parallel_for.h"

namespace vyre {
namespace {

using Clock = std::chrono::steady_clock;

/// The process's registered work. A fork while another thread registers
/// would leave the child a table mid-change and its lock held: the lock is
/// taken around every fork (pthread_atfork), so the child's copy is whole.
struct Registry {
  std::mutex mutex;
  std::map<uint64_t, const HostedWork*> works;
  uint64_t last_id = 0;

  Registry() {
    ::pthread_atfork([] { registry().mutex.lock(); }, [] { registry().mutex.unlock(); },
                     [] { registry().mutex.unlock(); });
  }

  static Registry& registry() {
    static Registry* r = new Registry;  // Never destroyed: works may outlive statics.
    return *r;
  }
};

/// Forwards every call to `inner` and sums the device time its dispatches
/// report, as add_device_ms does for a batch: the work's own backend calls
/// go through it, from any of the run threads.
class DeviceTimeTally final : public Backend {
 public:
  explicit DeviceTimeTally(Backend& inner) : inner_(inner) {}

  std::string name() const override { return inner_.name(); }
  Capabilities probe() override { return inner_.probe(); }
  CompileOutcome compile(const Program& program) override { return inner_.compile(program); }
  std::vector<Encoding> encodings() const override { return inner_.encodings(); }
  CompileOutcome compile_encoded(const Program& program, Encoding encoding) override {
    return inner_.compile_encoded(program, encoding);
  }
  DispatchOutcome dispatch(const CompiledProgram& program, const BufferSet& inputs,
                           const Grid& grid) override {
    DispatchOutcome out = inner_.dispatch(program, inputs, grid);
    add(out.timing.device_ms);
    return out;
  }
  BatchOutcome dispatch_runs(const CompiledProgram& program, const BufferSet& inputs,
                             const Grid& grid, const BatchOptions& options) override {
    BatchOutcome out = inner_.dispatch_runs(program, inputs, grid, options);
    add(out.timing.device_ms);
    return out;
  }
  LevelLoopOutcome dispatch_levels(const CompiledProgram& program, const BufferSet& state,
                                   const Grid& grid, const LevelLoop& loop) override {
    LevelLoopOutcome out = inner_.dispatch_levels(program, state, grid, loop);
    add(out.device_ms);
    return out;
  }
  bool compiles_concurrently() const override { return inner_.compiles_concurrently(); }
  void prepare(const CompiledProgram& program) override { inner_.prepare(program); }
  uint32_t concurrent_dispatches() const override { return inner_.concurrent_dispatches(); }
  std::optional<DriverCacheUse> driver_cache() const override { return inner_.driver_cache(); }

  /// The sum so far; nullopt before any dispatch or after an unmeasured one.
  std::optional<double> total() {
    std::lock_guard lock(mutex_);
    return total_;
  }

 private:
  void add(std::optional<double> part) {
    std::lock_guard lock(mutex_);
    total_ = add_device_ms(total_, part, first_);
    first_ = false;
  }

  Backend& inner_;
  std::mutex mutex_;
  std::optional<double> total_;
  bool first_ = true;
};

uint64_t micros_since(Clock::time_point start) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count());
}

}  // namespace

HostedWork::HostedWork(std::string name, Prepare prepare)
    : name_(std::move(name)), prepare_(std::move(prepare)) {
  Registry& r = Registry::registry();
  std::lock_guard lock(r.mutex);
  id_ = ++r.last_id;
  r.works[id_] = this;
}

HostedWork::~HostedWork() {
  Registry& r = Registry::registry();
  std::lock_guard lock(r.mutex);
  r.works.erase(id_);
}

const HostedWork* find_hosted_work(uint64_t id) {
  Registry& r = Registry::registry();
  std::lock_guard lock(r.mutex);
  auto it = r.works.find(id);
  return it == r.works.end() ? nullptr : it->second;
}

uint64_t last_hosted_work_id() {
  Registry& r = Registry::registry();
  std::lock_guard lock(r.mutex);
  return r.last_id;
}

HostedRunsOutcome HostedWork::run_here(Backend& inner, const HostedRunsOptions& options) const {
  const Clock::time_point start = Clock::now();
  HostedRunsOutcome out;
  DeviceTimeTally backend(inner);
  HostedPrepared prepared = prepare(backend);
  out.prepare_us = micros_since(start);
  out.prepare_status = prepared.status;
  out.prepare_message = std::move(prepared.message);
  if (prepared.status != Status::Ok) return out;
  if (!prepared.run) {
    out.prepare_status = Status::Error;
    out.prepare_message = "hosted work `" + name_ + "` prepared no run";
    return out;
  }
  out.runs.resize(options.runs);
  const Clock::time_point runs_start = Clock::now();
  // Each run stays its own execution; only their host work and backend calls
  // overlap. No run is taken after one that failed.
  parallel_for(options.runs, std::max<uint32_t>(options.threads, 1), [&](size_t run) {
    if (options.budget.count() > 0 && Clock::now() - start > options.budget) return false;
    HostedRun& done = out.runs[run].emplace(prepared.run());
    return done.status == Status::Ok;
  });
  out.runs_us = micros_since(runs_start);
  out.device_ms = backend.total();
  return out;
}

HostedRunsOutcome Backend::run_hosted(const HostedWork& work, const HostedRunsOptions& options) {
  return work.run_here(*this, options);
}

}  // namespace vyre
