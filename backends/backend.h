// The backend interface every backend implements, in this repo or outside it
// (through the C ABI in backends/plugin_abi.h). Lifecycle:
//   probe()    what the device can do; no program involved.
//   compile()  pure translation of a validated Program; touches no device.
//   dispatch() runs a compiled program on one input set and grid; a backend may
//              cache device objects (pipelines) per compiled program.
// A backend reports a Status; the certifier, not the backend, turns statuses
// and bytes into verdicts.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "spec/ir/host_abi.h"
#include "spec/ir/program.h"

namespace vyre {

/// Closed set of outcomes of compile and dispatch.
enum class Status : uint8_t {
  Ok,
  NotSupported,  ///< The program needs more than the device offers.
  CompileError,  ///< Lowering or the driver rejected the program.
  DeviceLost,    ///< The device was lost; the backend recreates it.
  Timeout,       ///< The dispatch did not finish in time.
  BadOutput,     ///< The backend returned malformed output (short, missing buffers).
  Error,         ///< Any other failure, with a message.
};

/// "ok", "not supported", ...
std::string_view name_of(Status s);

/// What a device offers, as probed.
struct Capabilities {
  /// Empty when the backend can run programs; otherwise why it cannot (no
  /// Vulkan loader, no device, ...). The certifier exits 2 on it.
  std::string unavailable;
  std::string device_name;
  std::string driver;  ///< Driver name and version.
  std::string api;     ///< e.g. "Vulkan 1.3.230".
  uint32_t max_workgroup_invocations = 0;
  std::array<uint32_t, 3> max_workgroup_size = {0, 0, 0};
  std::array<uint32_t, 3> max_workgroup_count = {0, 0, 0};
  /// Most invocations (workgroup size x grid, all axes) one dispatch may run; 0
  /// if the backend sets no such limit.
  uint64_t max_dispatch_invocations = 0;
  uint64_t max_storage_buffer_bytes = 0;
  uint64_t max_uniform_buffer_bytes = 0;
  uint64_t max_workgroup_memory_bytes = 0;
  /// Preferred workgroup size in invocations (subgraph width, 64 if unknown).
  uint32_t preferred_workgroup_size = 64;
};

/// A backend's compiled form of one program; opaque to callers.
class CompiledProgram {
 public:
  virtual ~CompiledProgram() = default;
};

/// Result of compile().
struct CompileOutcome {
  Status status = Status::Error;
  std::string message;
  std::shared_ptr<const CompiledProgram> program;
};

/// Wall times of one dispatch's phases, in milliseconds.
struct DispatchTiming {
  double setup_ms = 0;     ///< Pipeline and descriptor creation (0 when cached).
  double upload_ms = 0;    ///< Host to device copies.
  double execute_ms = 0;   ///< Submit to fence signalled.
  double readback_ms = 0;  ///< Device to host copies.
};

/// Result of dispatch().
struct DispatchOutcome {
  Status status = Status::Error;
  std::string message;
  /// Bytes of every ReadWrite buffer, when status is Ok.
  BufferSet outputs;
  DispatchTiming timing;
};

/// A compute backend.
class Backend {
 public:
  virtual ~Backend() = default;
  /// Registry name, e.g. "vulkan".
  virtual std::string name() const = 0;
  /// Device capabilities; the same every call.
  virtual Capabilities probe() = 0;
  /// Translates a validated program; must not touch a device.
  virtual CompileOutcome compile(const Program& program) = 0;
  /// Runs a program from compile() of this backend.
  virtual DispatchOutcome dispatch(const CompiledProgram& program, const BufferSet& inputs,
                                   const Grid& grid) = 0;
};

}  // namespace vyre
