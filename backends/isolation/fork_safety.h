// What a fork from a process with other threads needs to leave the child
// usable: every lock another thread might hold at the fork must be held by
// the forking thread instead, so that the child finds it free.
#pragma once

namespace vyre::isolation {

/// Makes every later fork() of this process safe for the child's memory
/// allocator. glibc's malloc does this itself; AddressSanitizer's runtime
/// does only from LLVM 18 on (llvm-project pull request 75290), so under an
/// older one a child forked while another thread allocated could hang in its
/// first allocation. There, this registers fork handlers that hold the
/// runtime's thread registry, allocator and stack depot locks across the
/// fork; elsewhere it does nothing. Idempotent and thread-safe.
void make_forks_safe_for_the_allocator();

}  // namespace vyre::isolation
