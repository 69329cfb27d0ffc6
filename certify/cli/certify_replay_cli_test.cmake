# Every repro a failing run writes replays: the misbehaving plugin (mode "ok":
# every output byte one too high) fails L1-L3, and each of its repro files,
# graph.bfs ones included (compared as canonical findings), passes on the
# reference with `vyre-certify run FILE --backend reference`, and fails on the
# plugin that produced it. With VULKAN=ON, a graph.bfs repro also passes on
# vulkan. Bad backends for `run` exit 2.
# CTest runs it as: cmake -DCLI=... -DPLUGIN=... -DOUT_DIR=... [-DVULKAN=ON] -P this.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

file(REMOVE_RECURSE ${OUT_DIR})
set(ENV{VYRE_TEST_PLUGIN_MODE} ok)
run_cli(1 out err --backend ${PLUGIN} --level L3 --runs 1 --out ${OUT_DIR} --quiet)
file(GLOB repros ${OUT_DIR}/repro/*.vyre)
list(LENGTH repros count)
if(count LESS 10)
  message(FATAL_ERROR "only ${count} repro files in ${OUT_DIR}/repro")
endif()
set(bfs_repros ${repros})
list(FILTER bfs_repros INCLUDE REGEX "graph_bfs")
if(NOT bfs_repros)
  message(FATAL_ERROR "no graph.bfs repro among ${repros}")
endif()
list(GET bfs_repros 0 bfs_repro)

# All in one `run` (one process: each alone cost a process start, minutes
# under the sanitizers), one verdict line each.
run_cli(0 out err run ${repros} --backend reference)
string(REGEX MATCHALL "expectation: PASS" passes "${out}")
list(LENGTH passes pass_count)
expect_equal("${pass_count}" "${count}" "repros passing on the reference")
# A file that cannot be read among them: exit 2, and the others still run.
run_cli(2 out err run ${OUT_DIR}/no-such-case.vyre ${bfs_repro} --backend reference)
expect_contains("${out}" "expectation: PASS" "the readable file after an unreadable one")
run_cli(1 out err run ${bfs_repro} --backend ${PLUGIN})
expect_contains("${out}" "expectation: FAIL as graph.bfs canonical findings" "${bfs_repro} on the plugin")
unset(ENV{VYRE_TEST_PLUGIN_MODE})

if(VULKAN)
  run_cli(0 out err run ${bfs_repro} --backend vulkan)
  expect_contains("${out}" "expectation: PASS" "${bfs_repro} on vulkan")
  # `run` keeps the driver's cache where --cache-dir says, as a
  # certification does (the Vulkan pipeline cache, written at close).
  set(cache ${OUT_DIR}/run-cache)
  file(REMOVE_RECURSE ${cache})
  run_cli(0 out err run ${bfs_repro} --backend vulkan --cache-dir ${cache})
  file(GLOB cache_entries ${cache}/*)
  if(NOT cache_entries)
    message(FATAL_ERROR "`run --cache-dir ${cache}` wrote no cache entry there")
  endif()
  run_cli(0 out err run ${bfs_repro} --backend vulkan --no-cache)
endif()
run_cli(2 out err run ${bfs_repro} --backend vulkan --no-cache --cache-dir ${OUT_DIR}/unused)
expect_contains("${err}" "--cache-dir and --no-cache contradict each other" "run's cache options")

run_cli(2 out err run ${bfs_repro} --backend nonesuch)
expect_contains("${err}" "unknown backend `nonesuch`" "run on an unknown backend")
run_cli(2 out err run ${bfs_repro} --backend ${OUT_DIR}/no-such-plugin.so)
expect_contains("${err}" "cannot load the plugin backend" "run on a missing plugin")
run_cli(2 out err run ${bfs_repro} --backend reference --device 0)
run_cli(2 out err run ${bfs_repro} --backend vulkan --schedule reversed)
message(STATUS "${count} repros replay on the reference")
