// How the compound fields of the isolation messages (messages.h) go on the
// wire: each put_X writes one, and its get_X reads it back, refusing on the
// reader (WireReader::fail) what a well-behaved peer never sends. The
// messages' own layouts are in messages.cc; the bounds and the layout of
// each field are beside its functions in message_fields.cc.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "backends/backend.h"
#include "backends/hosted_work.h"
#include "backends/isolation/wire_format.h"

namespace vyre::isolation {

void put_status(WireWriter& w, Status status);
Status get_status(WireReader& r);

void put_axes(WireWriter& w, const std::array<uint32_t, 3>& axes);
std::array<uint32_t, 3> get_axes(WireReader& r);

void put_capabilities(WireWriter& w, const Capabilities& c);
Capabilities get_capabilities(WireReader& r);

void put_batch_options(WireWriter& w, const BatchOptions& o);
BatchOptions get_batch_options(WireReader& r);

void put_device_ms(WireWriter& w, const std::optional<double>& ms);
std::optional<double> get_device_ms(WireReader& r);

void put_batch_outcome(WireWriter& w, const BatchOutcome& b);
BatchOutcome get_batch_outcome(WireReader& r);

/// Number of Encoding values; codes at or past it are malformed.
inline constexpr uint32_t kEncodingCount = static_cast<uint32_t>(Encoding::ClOptDisable) + 1;
void put_encoding(WireWriter& w, Encoding e);
Encoding get_encoding(WireReader& r);

void put_hosted_outcome(WireWriter& w, const HostedRunsOutcome& o);
HostedRunsOutcome get_hosted_outcome(WireReader& r);

void put_driver_cache(WireWriter& w, const std::optional<DriverCacheUse>& cache);
std::optional<DriverCacheUse> get_driver_cache(WireReader& r);

}  // namespace vyre::isolation
