// Turning the output buffers a plugin hands back into a BufferSet, checking
// every pointer, name and size against the program before copying a byte.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/plugin_abi.h"
#include "spec/ir/host_abi.h"
#include "spec/support/result.h"

namespace vyre::plugin {

/// Longest buffer name accepted from a plugin (longer means garbage).
inline constexpr size_t kMaxOutputNameLength = 1024;

/// Copies `count` plugin outputs, which must be exactly the `read_write`
/// buffers each as long as its input. An Error (reported as BadOutput) names
/// the offending buffer and both sizes.
Result<BufferSet> copy_plugin_outputs(const vyre_buffer* outputs, uint32_t count,
                                      const std::vector<std::string>& read_write,
                                      const BufferSet& inputs);

}  // namespace vyre::plugin
