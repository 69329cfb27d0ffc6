// The child side of isolation: create the backend, say hello with its name and
// probe, then answer requests until the parent closes the pipe.
#pragma once

#include <cstdint>

#include "backends/isolation/backend_factory.h"

namespace vyre::isolation {

/// Serves requests from `requests_fd`, replying on `replies_fd`; returns the
/// child's exit status: 0 when the parent closed the pipe or the factory
/// failed (the hello says why), 2 for a broken request, 3 when a reply could
/// not be written.
int serve_backend(const BackendFactory& factory, int requests_fd, int replies_fd,
                  uint64_t max_message_bytes);

}  // namespace vyre::isolation
