# Where the CLI tests' vyre-certify keeps its driver cache, and PoCL its own;
# included by every CTest script that runs the CLI.
#
# vyre-certify's cache (--cache-dir's default, under $XDG_CACHE_HOME) is in
# the build tree, never in the user's home; or, where VYRE_TEST_CACHE_HOME is
# set, there. CI sets it for both of its builds, so that the sanitized tests
# find every kernel and pipeline the default build's tests compiled (the
# cache is keyed by source, device and driver, which no build of ours
# changes) and read them back through the cache's code under the sanitizers,
# instead of having PoCL's LLVM and lavapipe compile them again under ASan's
# allocator: the OpenCL certification test took 4.5 s in the default build
# and 175 s sanitized with the cache cold. Compiling cold stays tested in the
# default build's run and in the backends' own tests.
if(DEFINED ENV{VYRE_TEST_CACHE_HOME})
  set(ENV{XDG_CACHE_HOME} "$ENV{VYRE_TEST_CACHE_HOME}")
else()
  set(ENV{XDG_CACHE_HOME} "${CMAKE_CURRENT_BINARY_DIR}/vyre-test-xdg-cache")
endif()

# PoCL's own kernel cache, which it keys by the kernel's source, build options
# and device, is the one the unit tests use (PoCL's default under $HOME), not
# the build tree's: every build of vyre-certify asks PoCL for the same kernels,
# and what one build's tests compiled the next build's reuse, as the unit
# tests do. Our calls into PoCL are the same either way. CI's sanitized
# OpenCL certification test took 148 s with PoCL's cache cold, 78 s warm.
# Only a folder PoCL already made is used (a home that is not writable keeps
# the build tree's).
if(NOT DEFINED ENV{POCL_CACHE_DIR} AND IS_DIRECTORY "$ENV{HOME}/.cache/pocl/kcache")
  set(ENV{POCL_CACHE_DIR} "$ENV{HOME}/.cache/pocl/kcache")
endif()
