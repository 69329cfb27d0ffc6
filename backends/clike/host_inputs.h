// The host ABI check of one dispatch's inputs (pinned spec section 1), made
// by every C-like backend's runtime before it touches the device: the same
// rule and the same words whether the program runs on Vulkan or OpenCL.
#pragma once

#include "backends/clike/entry_interface.h"
#include "spec/ir/host_abi.h"
#include "spec/support/result.h"

namespace vyre::clike {

/// The inputs and grid as the host ABI (S1) demands: every bound buffer given,
/// no unknown name, declared sizes matched, uniform buffers within 64 KiB, a
/// grid of at least 1 workgroup per axis.
Result<Ok> check_host_inputs(const EntryInterface& iface, const BufferSet& inputs,
                             const Grid& grid);

}  // namespace vyre::clike
