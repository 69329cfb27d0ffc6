#include "backends/hosted_work.h"

#include <pthread.h>

#include <map>
#include <mutex>
#include <utility>

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

HostedRunsOutcome HostedWork::run_here(Backend& backend, const HostedRunsOptions& options) const {
  const Clock::time_point start = Clock::now();
  HostedRunsOutcome out;
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
  return out;
}

HostedRunsOutcome Backend::run_hosted(const HostedWork& work, const HostedRunsOptions& options) {
  return work.run_here(*this, options);
}

}  // namespace vyre
