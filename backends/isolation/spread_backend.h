// One backend spread over several isolated children, each a process with a
// driver of its own, for a driver that runs one call at a time per process
// (Backend::useful_processes: NVIDIA's OpenCL). The children share the
// calls: programs are compiled on them in turn and each runs on the child
// that compiled it (a program from elsewhere is compiled there first, as in
// any isolated backend), host-driven work by its id. A child that crashes or
// hangs fails the calls in flight on it and is replaced by its own isolated
// backend; the others go on.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "backends/backend.h"

namespace vyre::isolation {

class SpreadBackend final : public Backend {
 public:
  /// `members`: started isolated backends of one factory, at least one.
  explicit SpreadBackend(std::vector<std::unique_ptr<Backend>> members);
  /// Closes the members side by side: each waits for its child to end (its
  /// driver's teardown and cache write, about half a second on NVIDIA's),
  /// which one after another would add up at the end of every run.
  ~SpreadBackend() override;

  size_t processes() const { return members_.size(); }

  std::string name() const override;
  Capabilities probe() override;
  CompileOutcome compile(const Program& program) override;
  std::vector<Encoding> encodings() const override;
  CompileOutcome compile_encoded(const Program& program, Encoding encoding) override;
  DispatchOutcome dispatch(const CompiledProgram& program, const BufferSet& inputs,
                           const Grid& grid) override;
  BatchOutcome dispatch_runs(const CompiledProgram& program, const BufferSet& inputs,
                             const Grid& grid, const BatchOptions& options) override;
  bool compiles_concurrently() const override;
  void prepare(const CompiledProgram& program) override;
  /// The members' together: each child runs its own concurrently.
  uint32_t concurrent_dispatches() const override;
  HostedRunsOutcome run_hosted(const HostedWork& work, const HostedRunsOptions& options) override;
  /// The members' counts summed (each its children's, as
  /// IsolatedBackend::driver_cache() counts them), with the dir and what of
  /// the first member that reports a cache; nullopt when none does.
  std::optional<DriverCacheUse> driver_cache() const override;

 private:
  /// The member that compiled `program`; for another backend's, one by its
  /// id, so that those spread too.
  Backend& member_of(const CompiledProgram& program);

  std::vector<std::unique_ptr<Backend>> members_;
  std::atomic<uint64_t> next_compile_{0};
  std::mutex mutex_;
  /// Which member compiled each program, by its isolated id.
  std::unordered_map<uint64_t, size_t> compiled_on_;
};

}  // namespace vyre::isolation
