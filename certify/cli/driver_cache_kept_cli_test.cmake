# The driver cache outlives the backend's child process: the child ends
# without destroying its backend (Backend::saved_for_process_exit), so the
# Vulkan pipeline cache, written at closing until then, must be saved before
# it ends, and OpenCL's kernels as they are built. A second run with the same
# --cache-dir then loads what the first one kept.
# Expects CLI, BACKEND and OUT_DIR.
include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

set(cache ${OUT_DIR}/cache)
file(REMOVE_RECURSE ${OUT_DIR})
foreach(run first second)
  run_cli(0 out err --backend ${BACKEND} --level L1 --filter L1/spec/binop/add --runs 2
          --cache-dir ${cache} --quiet --out ${OUT_DIR}/${run})
  file(READ ${OUT_DIR}/${run}/report.json json_${run})
endforeach()

string(JSON first_hits GET "${json_first}" driver_cache hits)
string(JSON first_misses GET "${json_first}" driver_cache misses)
expect_equal("${first_hits}" "0" "driver cache hits of the first run (an empty --cache-dir)")
if(first_misses EQUAL 0)
  message(FATAL_ERROR "the first run's driver cache counts no miss:\n${json_first}")
endif()
string(JSON second_hits GET "${json_second}" driver_cache hits)
string(JSON second_misses GET "${json_second}" driver_cache misses)
if(second_hits EQUAL 0 OR NOT second_misses EQUAL 0)
  message(FATAL_ERROR "the second run did not load what the first one kept (hits "
                      "${second_hits}, misses ${second_misses}): its child process ended "
                      "without saving the driver cache")
endif()
