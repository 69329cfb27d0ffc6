// How an isolated backend is made: a function run inside the child process,
// after the fork, so that the real backend (and any library it loads) only
// ever exists there.
#pragma once

#include <functional>
#include <memory>

#include "backends/backend.h"
#include "spec/support/result.h"

namespace vyre {

/// Creates the real backend; runs in the child process.
using BackendFactory = std::function<Result<std::unique_ptr<Backend>>()>;

}  // namespace vyre
