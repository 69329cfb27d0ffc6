#include "backends/isolation/isolate.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "backends/isolation/isolated_backend.h"
#include "backends/isolation/spread_backend.h"

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

Result<std::unique_ptr<Backend>> start_isolated_spread(BackendFactory factory,
                                                       IsolationOptions options,
                                                       uint32_t max_processes,
                                                       std::string* shortfall) {
  auto first = start_isolated(factory, options);
  if (!first) return first;
  const uint32_t wanted = std::min((*first)->useful_processes(), max_processes);
  if (wanted <= 1) return first;
  std::vector<std::unique_ptr<Backend>> members;
  members.push_back(std::move(first).value());
  while (members.size() < wanted) {
    auto more = start_isolated(factory, options);
    if (!more) {
      if (shortfall) {
        *shortfall = std::to_string(members.size()) + " of " + std::to_string(wanted) +
                     " backend processes started; the next: " + more.error().message;
      }
      break;
    }
    members.push_back(std::move(more).value());
  }
  if (members.size() == 1) return std::move(members.front());
  return std::unique_ptr<Backend>(std::make_unique<isolation::SpreadBackend>(std::move(members)));
}

}  // namespace vyre
