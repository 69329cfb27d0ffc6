#include "backends/isolation/isolate.h"

#include <utility>

#include "backends/isolation/isolated_backend.h"

namespace vyre {

std::unique_ptr<Backend> isolate(BackendFactory factory, IsolationOptions options) {
  auto backend = std::make_unique<isolation::IsolatedBackend>(std::move(factory), options);
  // A failed start is remembered and retried by the next call; see isolate.h.
  (void)backend->start();
  return backend;
}

Result<std::unique_ptr<Backend>> start_isolated(BackendFactory factory, IsolationOptions options) {
  auto backend = std::make_unique<isolation::IsolatedBackend>(std::move(factory), options);
  if (auto failure = backend->start()) return Error{failure->message};
  return std::unique_ptr<Backend>(std::move(backend));
}

}  // namespace vyre
