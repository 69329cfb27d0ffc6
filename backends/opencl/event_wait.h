// Waiting for an OpenCL event with a deadline (OpenCL has no timed wait):
// through an event callback and a condition variable, or by polling where
// the driver takes no callback; and the device's own time of a finished
// command (event profiling). Shared by single dispatches and batches.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "backends/backend.h"
#include "backends/opencl/opencl_api.h"

namespace vyre::opencl {

/// How a wait ended.
enum class Wait : uint8_t { Complete, Failed, TimedOut };

/// Waits for `event` until `deadline`; `status` gets its execution status
/// (negative when the command failed). For the first `spin` it asks the
/// event's status over and over (ClQueue::spin_wait), then sleeps.
Wait wait_for(const OpenClApi& api, cl_event event, std::chrono::steady_clock::time_point deadline,
              cl_int& status, std::chrono::microseconds spin = std::chrono::microseconds{0});

/// The device's time from start to end of the finished command of `event`
/// (CL_PROFILING_COMMAND_START/END), in milliseconds; nullopt when the queue
/// does not profile or the driver gives no such times.
std::optional<double> profiled_ms(const OpenClApi& api, cl_event event);

/// The device's time from the start of `first` to the end of `last`, in
/// milliseconds (commands run in order on one queue); nullopt when either is
/// not profiled.
std::optional<double> profiled_span(const OpenClApi& api, cl_event first, cl_event last);

/// How long the device was busy with at least one of the finished commands
/// of `events` (null entries skipped), in milliseconds: the union of their
/// start-to-end intervals, so that commands of several queues running side
/// by side count once and commands of one queue their sum; nullopt when one
/// is not profiled.
std::optional<double> busy_ms(const OpenClApi& api, std::span<const cl_event> events);

/// What a timeout's message adds when the wait allowed `allowance` more
/// for a first run (ClQueue::first_run_allowance): "" when none.
std::string first_run_note(std::chrono::milliseconds allowance);

/// Status of a failed allocation or enqueue: NotSupported when the device
/// lacks memory or resources, Error otherwise.
Status resource_status(cl_int error);

}  // namespace vyre::opencl
