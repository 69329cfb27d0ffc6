#include "backends/isolation/spread_backend.h"

#include <cassert>
#include <utility>

#include "backends/hosted_work.h"
#include "backends/isolation/isolated_backend.h"
#include "spec/support/parallel_for.h"

namespace vyre::isolation {

SpreadBackend::SpreadBackend(std::vector<std::unique_ptr<Backend>> members)
    : members_(std::move(members)) {
  assert(!members_.empty());
}

SpreadBackend::~SpreadBackend() {
  parallel_for(members_.size(), static_cast<unsigned>(members_.size()), [this](size_t i) {
    members_[i].reset();
    return true;
  });
}

std::string SpreadBackend::name() const {
  return members_.front()->name();
}

Capabilities SpreadBackend::probe() {
  return members_.front()->probe();
}

std::vector<Encoding> SpreadBackend::encodings() const {
  return members_.front()->encodings();
}

bool SpreadBackend::compiles_concurrently() const {
  return members_.front()->compiles_concurrently();
}

uint32_t SpreadBackend::concurrent_dispatches() const {
  uint32_t total = 0;
  for (const auto& m : members_) total += m->concurrent_dispatches();
  return total;
}

CompileOutcome SpreadBackend::compile(const Program& program) {
  return compile_encoded(program, Encoding::AsEmitted);
}

CompileOutcome SpreadBackend::compile_encoded(const Program& program, Encoding encoding) {
  // In turn, so that cases compiled one after another (as the certifier
  // prepares them) run on alternate children.
  const size_t member = next_compile_++ % members_.size();
  CompileOutcome outcome = members_[member]->compile_encoded(program, encoding);
  if (const auto* isolated = dynamic_cast<const IsolatedProgram*>(outcome.program.get())) {
    std::lock_guard lock(mutex_);
    compiled_on_[isolated->id()] = member;
  }
  return outcome;
}

Backend& SpreadBackend::member_of(const CompiledProgram& program) {
  const auto* isolated = dynamic_cast<const IsolatedProgram*>(&program);
  // Not an isolated backend's: the first member says that it cannot run it.
  if (isolated == nullptr) return *members_.front();
  std::lock_guard lock(mutex_);
  if (auto it = compiled_on_.find(isolated->id()); it != compiled_on_.end()) {
    return *members_[it->second];
  }
  // Another backend's program (after a device loss the certifier's fresh
  // backend runs the cases its first one compiled ahead): spread by id,
  // compiled again in the member that runs it.
  return *members_[isolated->id() % members_.size()];
}

void SpreadBackend::prepare(const CompiledProgram& program) {
  member_of(program).prepare(program);
}

DispatchOutcome SpreadBackend::dispatch(const CompiledProgram& program, const BufferSet& inputs,
                                        const Grid& grid) {
  return member_of(program).dispatch(program, inputs, grid);
}

BatchOutcome SpreadBackend::dispatch_runs(const CompiledProgram& program, const BufferSet& inputs,
                                          const Grid& grid, const BatchOptions& options) {
  return member_of(program).dispatch_runs(program, inputs, grid, options);
}

HostedRunsOutcome SpreadBackend::run_hosted(const HostedWork& work,
                                            const HostedRunsOptions& options) {
  return members_[work.id() % members_.size()]->run_hosted(work, options);
}

namespace {

/// Adds `part`'s counts to `total`, which takes part's dir and what when it
/// holds none yet; a nullopt part adds nothing.
void add_driver_cache(std::optional<DriverCacheUse>& total,
                      const std::optional<DriverCacheUse>& part) {
  if (!part) return;
  if (!total) {
    total = part;
    return;
  }
  total->hits += part->hits;
  total->misses += part->misses;
  total->rejected += part->rejected;
  total->stored += part->stored;
}

}  // namespace

std::optional<DriverCacheUse> SpreadBackend::driver_cache() const {
  std::optional<DriverCacheUse> total;
  for (const auto& member : members_) add_driver_cache(total, member->driver_cache());
  return total;
}

}  // namespace vyre::isolation
