#include "backends/isolation/message_fields.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace vyre::isolation {

void put_status(WireWriter& w, Status status) {
  w.u8(static_cast<uint8_t>(status));
}

Status get_status(WireReader& r) {
  uint8_t code = r.u8();
  if (code > static_cast<uint8_t>(kLastStatus)) {
    r.fail("unknown status code " + std::to_string(code));
    return Status::Error;
  }
  return static_cast<Status>(code);
}

void put_axes(WireWriter& w, const std::array<uint32_t, 3>& axes) {
  for (uint32_t v : axes) w.u32(v);
}

std::array<uint32_t, 3> get_axes(WireReader& r) {
  std::array<uint32_t, 3> axes{};
  for (uint32_t& v : axes) v = r.u32();
  return axes;
}

void put_capabilities(WireWriter& w, const Capabilities& c) {
  w.text(c.unavailable);
  w.text(c.device_name);
  w.text(c.driver);
  w.text(c.api);
  w.u32(c.max_workgroup_invocations);
  put_axes(w, c.max_workgroup_size);
  put_axes(w, c.max_workgroup_count);
  w.u64(c.max_dispatch_invocations);
  w.u64(c.max_storage_buffer_bytes);
  w.u64(c.max_uniform_buffer_bytes);
  w.u64(c.max_workgroup_memory_bytes);
  w.u32(c.preferred_workgroup_size);
}

/// Bounds on BatchOptions::scratch as a frame carries it: a program names
/// no more buffers than this, none longer.
constexpr uint32_t kMaxScratchBuffers = 4096;
constexpr size_t kMaxScratchNameBytes = 1024;

/// The counts, then the scratch names: a count (u32), then each name.
void put_batch_options(WireWriter& w, const BatchOptions& o) {
  w.u32(o.runs);
  w.u32(o.submissions);
  w.u32(o.reported_differing);
  w.u32(static_cast<uint32_t>(o.scratch.size()));
  for (const std::string& name : o.scratch) w.text(name);
}

/// Rejects more than kMaxScratchBuffers scratch names, and an empty, overlong
/// or repeated name.
BatchOptions get_batch_options(WireReader& r) {
  BatchOptions o;
  o.runs = r.u32();
  o.submissions = r.u32();
  o.reported_differing = r.u32();
  const uint32_t scratch = r.u32();
  if (scratch > kMaxScratchBuffers) {
    r.fail("a batch names " + std::to_string(scratch) + " scratch buffers, more than " +
           std::to_string(kMaxScratchBuffers));
    return o;
  }
  for (uint32_t i = 0; i < scratch && !r.failed(); ++i) {
    std::string name = r.text();
    if (r.failed()) break;
    if (name.empty() || name.size() > kMaxScratchNameBytes) {
      r.fail("a scratch buffer name of " + std::to_string(name.size()) + " bytes (1 to " +
             std::to_string(kMaxScratchNameBytes) + ")");
    } else if (std::find(o.scratch.begin(), o.scratch.end(), name) != o.scratch.end()) {
      r.fail("scratch buffer '" + name + "' is named twice");
    } else {
      o.scratch.push_back(std::move(name));
    }
  }
  return o;
}

/// A device time: a presence byte, then the milliseconds when present.
void put_device_ms(WireWriter& w, const std::optional<double>& ms) {
  w.u8(ms ? 1 : 0);
  if (ms) w.f64(*ms);
}

/// Rejects a presence byte other than 0 or 1 and a time that is negative,
/// not finite or NaN: the child's measurement passes on only as one.
std::optional<double> get_device_ms(WireReader& r) {
  const uint8_t present = r.u8();
  if (present > 1) {
    r.fail("a device time's presence byte is " + std::to_string(present) + ", not 0 or 1");
    return std::nullopt;
  }
  if (present == 0) return std::nullopt;
  const double ms = r.f64();
  if (!std::isfinite(ms) || ms < 0) {
    r.fail("a device time is negative or not a finite number");
    return std::nullopt;
  }
  return ms;
}

void put_batch_outcome(WireWriter& w, const BatchOutcome& b) {
  put_status(w, b.status);
  w.text(b.message);
  w.u32(b.failed_run);
  w.buffers(b.first_outputs);
  w.u32(static_cast<uint32_t>(b.differing.size()));
  for (const DifferingRun& run : b.differing) {
    w.u32(run.run);
    w.buffers(run.outputs);
  }
  w.u32(b.differing_runs);
  w.u32(b.dispatches);
  w.u32(b.submissions);
  w.f64(b.timing.total_ms);
  w.f64(b.timing.setup_ms);
  w.f64(b.timing.per_dispatch_us);
  put_device_ms(w, b.timing.device_ms);
}

BatchOutcome get_batch_outcome(WireReader& r) {
  BatchOutcome b;
  b.status = get_status(r);
  b.message = r.text();
  b.failed_run = r.u32();
  b.first_outputs = r.buffers();
  uint32_t differing = r.u32();
  for (uint32_t i = 0; i < differing && !r.failed(); ++i) {
    DifferingRun run;
    run.run = r.u32();
    run.outputs = r.buffers();
    b.differing.push_back(std::move(run));
  }
  b.differing_runs = r.u32();
  b.dispatches = r.u32();
  b.submissions = r.u32();
  b.timing.total_ms = r.f64();
  b.timing.setup_ms = r.f64();
  b.timing.per_dispatch_us = r.f64();
  b.timing.device_ms = get_device_ms(r);
  return b;
}

Capabilities get_capabilities(WireReader& r) {
  Capabilities c;
  c.unavailable = r.text();
  c.device_name = r.text();
  c.driver = r.text();
  c.api = r.text();
  c.max_workgroup_invocations = r.u32();
  c.max_workgroup_size = get_axes(r);
  c.max_workgroup_count = get_axes(r);
  c.max_dispatch_invocations = r.u64();
  c.max_storage_buffer_bytes = r.u64();
  c.max_uniform_buffer_bytes = r.u64();
  c.max_workgroup_memory_bytes = r.u64();
  c.preferred_workgroup_size = r.u32();
  return c;
}

void put_encoding(WireWriter& w, Encoding e) {
  w.u8(static_cast<uint8_t>(e));
}

Encoding get_encoding(WireReader& r) {
  const uint8_t code = r.u8();
  if (code >= kEncodingCount) {
    r.fail("unknown encoding code " + std::to_string(code));
    return Encoding::AsEmitted;
  }
  return static_cast<Encoding>(code);
}

namespace {

void put_hosted_run(WireWriter& w, const HostedRun& run) {
  put_status(w, run.status);
  w.text(run.message);
}

}  // namespace

/// Each run: a presence byte; for a started run its status, message and
/// either 0 and its outputs, or 1 + the index of an earlier run with the same
/// outputs (the runs of a passing case mostly agree: their bytes go once).
void put_hosted_outcome(WireWriter& w, const HostedRunsOutcome& o) {
  put_status(w, o.status);
  w.text(o.message);
  put_status(w, o.prepare_status);
  w.text(o.prepare_message);
  w.u64(o.prepare_us);
  w.u64(o.runs_us);
  put_device_ms(w, o.device_ms);
  w.u32(static_cast<uint32_t>(o.runs.size()));
  std::vector<uint32_t> distinct;  // Runs whose outputs went on the wire.
  for (uint32_t i = 0; i < o.runs.size(); ++i) {
    const std::optional<HostedRun>& run = o.runs[i];
    w.u8(run ? 1 : 0);
    if (!run) continue;
    put_hosted_run(w, *run);
    auto same = std::find_if(distinct.begin(), distinct.end(),
                             [&](uint32_t d) { return o.runs[d]->outputs == run->outputs; });
    if (same != distinct.end()) {
      w.u32(*same + 1);
      continue;
    }
    w.u32(0);
    w.buffers(run->outputs);
    distinct.push_back(i);
  }
}

HostedRunsOutcome get_hosted_outcome(WireReader& r) {
  HostedRunsOutcome o;
  o.status = get_status(r);
  o.message = r.text();
  o.prepare_status = get_status(r);
  o.prepare_message = r.text();
  o.prepare_us = r.u64();
  o.runs_us = r.u64();
  o.device_ms = get_device_ms(r);
  const uint32_t runs = r.u32();
  for (uint32_t i = 0; i < runs && !r.failed(); ++i) {
    const uint8_t present = r.u8();
    if (present > 1) r.fail("a run's presence byte is " + std::to_string(present));
    if (present != 1) {
      o.runs.emplace_back();
      continue;
    }
    HostedRun run;
    run.status = get_status(r);
    run.message = r.text();
    const uint32_t same = r.u32();
    if (same == 0) {
      run.outputs = r.buffers();
    } else if (same > i || !o.runs[same - 1]) {
      r.fail("run " + std::to_string(i) + " names run " + std::to_string(same - 1) +
             ", which is not an earlier started run");
    } else {
      run.outputs = o.runs[same - 1]->outputs;
    }
    o.runs.emplace_back(std::move(run));
  }
  return o;
}

/// A driver cache's use: a presence byte, then its dir, what and counts.
void put_driver_cache(WireWriter& w, const std::optional<DriverCacheUse>& cache) {
  w.u8(cache ? 1 : 0);
  if (!cache) return;
  w.text(cache->dir);
  w.text(cache->what);
  w.u64(cache->hits);
  w.u64(cache->misses);
  w.u64(cache->rejected);
  w.u64(cache->stored);
}

/// Rejects a presence byte other than 0 or 1.
std::optional<DriverCacheUse> get_driver_cache(WireReader& r) {
  const uint8_t present = r.u8();
  if (present > 1) {
    r.fail("a driver cache's presence byte is " + std::to_string(present) + ", not 0 or 1");
    return std::nullopt;
  }
  if (present == 0) return std::nullopt;
  DriverCacheUse cache;
  cache.dir = r.text();
  cache.what = r.text();
  cache.hits = r.u64();
  cache.misses = r.u64();
  cache.rejected = r.u64();
  cache.stored = r.u64();
  return cache;
}

}  // namespace vyre::isolation
