// Which faults a fault-injecting backend (fault_injecting_backend.h) injects,
// and at which of its dispatch calls: the `--inject-faults SPEC` of
// `vyre-certify`, documented in backends/PLUGINS.md ("Injecting faults").
//
//   SPEC  := ITEM (',' ITEM)*
//   ITEM  := KIND '@' N        once, at dispatch call N (1-based)
//          | KIND '@' N '+'    at call N and every call after it (persistent)
//          | KIND '%' P        at about one call in P, the calls drawn from the seed
//          | 'seed=' S         the seed of the `%` items (default 1)
//   KIND  := device-lost | hang | wrong-bytes | truncate | alloc-fail | crash
//
// A call is one dispatch() or one dispatch_runs() of the wrapped backend,
// counted over the whole run (across the fresh backends a retry opens). Where
// several items fire at one call, the first listed wins.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec/support/result.h"

namespace vyre {

/// A fault the wrapper can inject.
enum class FaultKind : uint8_t {
  DeviceLost,         ///< Status::DeviceLost; the wrapper's device stays lost after it.
  Hang,               ///< The submission never finishes: Status::Timeout after the timeout.
  WrongBytes,         ///< One run of the call (of a batch: one of its runs) returns a flipped byte.
  TruncatedReadback,  ///< The first output buffer of run 0 comes back one byte short.
  AllocationFailure,  ///< Status::Error: out of device memory.
  Crash,              ///< The backend process aborts (only where it runs in a child process).
};

/// "device-lost", "hang", "wrong-bytes", "truncate", "alloc-fail", "crash".
std::string_view name_of(FaultKind kind);

/// One ITEM of a SPEC.
struct FaultItem {
  FaultKind kind = FaultKind::DeviceLost;
  /// First call it fires at (1-based); 0 for a seeded item.
  uint64_t at = 0;
  /// Fires at every call from `at` on, not only at `at`.
  bool persistent = false;
  /// For a seeded item: fires at about one call in `one_in`.
  uint32_t one_in = 0;
};

/// A parsed SPEC.
struct FaultPlan {
  std::vector<FaultItem> items;
  uint64_t seed = 1;
  /// The SPEC as given, for messages.
  std::string spec;

  /// True when some item is a crash (which needs the backend in a child process).
  bool crashes() const;
};

/// Parses SPEC; an Error names the bad item and the grammar.
Result<FaultPlan> parse_fault_plan(std::string_view spec);

/// The fault `plan` injects at dispatch call `call` (1-based), if any.
std::optional<FaultKind> fault_at(const FaultPlan& plan, uint64_t call);

/// A value drawn from (seed, call, salt): which run or byte a fault hits.
uint64_t fault_draw(uint64_t seed, uint64_t call, uint64_t salt);

}  // namespace vyre
