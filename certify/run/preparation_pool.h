// Cases prepared off the critical path: the expectations of the run's cases
// (each variant interpreted once) and, for a backend that compiles
// concurrently, their compiled programs with the device objects built ahead
// (Backend::prepare), computed on worker threads in case order and a
// bounded distance ahead of the case the backend is running, so that the
// interpreter's and the driver compiler's work overlap the device's and use
// every host core. The distance is a number of cases, and further while the
// prepared cases hold little memory: the few cases whose reference takes
// seconds (R-MAT graphs, a 128 MiB buffer) then start long before the run
// reaches them, instead of every lane waiting for them there (on the H100's
// Vulkan run the lanes waited 1.9 s of its 9.9 s).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "certify/run/case_expectations.h"

namespace vyre::certify {

/// Programs compiled and prepared before a run, by case id
/// (compile_cases_ahead): the pool takes a case's own instead of compiling
/// them again.
using CompiledAhead = std::map<std::string, std::map<CompileKey, CompileOutcome>>;

/// Computes compute_expectations() (and compiles, see above) for `cases` on
/// `threads` workers.
class PreparationPool {
 public:
  /// Starts the workers; `cases`, `options` and `compile_on` must outlive the
  /// pool. `lookahead` cases past the one being taken may always be prepared
  /// and held (their outputs are held in memory until taken); up to
  /// kFarLookahead while the prepared cases hold less than kHeldBytesBudget
  /// (on hosts of kFarLookaheadThreads threads or more).
  /// `compile_on`: the backend to compile the cases' programs on, or null to
  /// leave compiling to the run (a backend that does not compile
  /// concurrently).
  /// `ahead`, when given, holds programs compiled before the run; the pool
  /// moves each case's out of it (it must outlive the pool).
  PreparationPool(const std::vector<const SuiteCase*>& cases, const CaseRunOptions& options,
                  Backend* compile_on, unsigned threads, size_t lookahead,
                  CompiledAhead* ahead = nullptr);
  ~PreparationPool();
  PreparationPool(const PreparationPool&) = delete;
  PreparationPool& operator=(const PreparationPool&) = delete;

  /// Case `index` prepared, waiting for it if needed. Each case is taken
  /// once, in order or nearly: cases running side by side (lanes) take them
  /// a few apart, within the lookahead. Thread-safe.
  CaseExpectations take(size_t index);

 private:
  void work();

  const std::vector<const SuiteCase*>& cases_;
  const CaseRunOptions& options_;
  Backend* const compile_on_;
  CompiledAhead* const ahead_;
  const size_t lookahead_;
  /// kFarLookahead, or 0 with fewer than kFarLookaheadThreads workers.
  const size_t far_lookahead_;
  /// The bytes each prepared, untaken case holds (held_bytes), and their sum.
  std::vector<uint64_t> held_;
  uint64_t held_total_ = 0;
  std::mutex mutex_;
  std::condition_variable changed_;
  /// The next case a worker starts on, and the case the run takes next.
  size_t next_ = 0;
  size_t taken_ = 0;
  bool stopping_ = false;
  std::vector<std::optional<CaseExpectations>> done_;
  std::vector<std::thread> workers_;
};

/// How far past the case being taken the pool prepares while the prepared
/// cases hold less than kHeldBytesBudget bytes, with at least
/// kFarLookaheadThreads workers: on a 2-core machine the work run ahead took
/// the cores lavapipe's device runs on (its default run 115 s -> 144 s).
inline constexpr size_t kFarLookahead = 256;
inline constexpr unsigned kFarLookaheadThreads = 8;
inline constexpr uint64_t kHeldBytesBudget = uint64_t{256} << 20;

/// The bytes of buffers `e` holds: its variants' inputs and expectations,
/// or a host-driven case's outputs.
uint64_t held_bytes(const CaseExpectations& e);

/// Compiles and prepares on `backend` the program of each workgroup size
/// among `e`'s variants (none when a variant is invalid), into e.compiled,
/// adding the time to e.compile_us.
void compile_ahead(Backend& backend, CaseExpectations& e);

/// Compiles and prepares on `backend`, on `threads` threads, the programs of
/// every variant of `cases` at once, before their run: a backend that builds
/// the driver's objects in groups (OpenCL joins the kernels queued together
/// into one clBuildProgram) gets a whole block, not a few cases at a time as
/// the reference frees them. Nothing for a backend that does not compile
/// concurrently.
CompiledAhead compile_cases_ahead(Backend& backend, const std::vector<const SuiteCase*>& cases,
                                  const CaseRunOptions& options, unsigned threads);

}  // namespace vyre::certify
