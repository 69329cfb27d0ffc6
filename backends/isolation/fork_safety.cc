#include "backends/isolation/fork_safety.h"

#include <pthread.h>

#include <mutex>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) && defined(__clang_major__) && __clang_major__ < 18
#define VYRE_SANITIZER_WITHOUT_FORK_HANDLERS 1
#endif
#endif

#if VYRE_SANITIZER_WITHOUT_FORK_HANDLERS
// The runtime's own lock functions, the ones LLVM 18's fork handlers call.
// Weak: a runtime built without one leaves it null, and it is skipped.
namespace __lsan {
__attribute__((weak)) void LockThreadRegistry();
__attribute__((weak)) void UnlockThreadRegistry();
__attribute__((weak)) void LockAllocator();
__attribute__((weak)) void UnlockAllocator();
}  // namespace __lsan
namespace __sanitizer {
__attribute__((weak)) void StackDepotLockAll();
__attribute__((weak)) void StackDepotUnlockAll();
}  // namespace __sanitizer
#endif

namespace vyre::isolation {

#if VYRE_SANITIZER_WITHOUT_FORK_HANDLERS
namespace {

// In LLVM 18's order: a thread being created holds the registry, then
// allocates; an allocation records its stack in the depot.
void lock_before_fork() {
  if (__lsan::LockThreadRegistry) __lsan::LockThreadRegistry();
  if (__lsan::LockAllocator) __lsan::LockAllocator();
  if (__sanitizer::StackDepotLockAll) __sanitizer::StackDepotLockAll();
}

void unlock_after_fork() {
  if (__sanitizer::StackDepotUnlockAll) __sanitizer::StackDepotUnlockAll();
  if (__lsan::UnlockAllocator) __lsan::UnlockAllocator();
  if (__lsan::UnlockThreadRegistry) __lsan::UnlockThreadRegistry();
}

}  // namespace

void make_forks_safe_for_the_allocator() {
  static std::once_flag registered;
  std::call_once(registered,
                 [] { ::pthread_atfork(lock_before_fork, unlock_after_fork, unlock_after_fork); });
}
#else
void make_forks_safe_for_the_allocator() {}
#endif

}  // namespace vyre::isolation
