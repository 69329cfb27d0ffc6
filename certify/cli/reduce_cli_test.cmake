# The `reduce` command end to end: a case that fails on the seeded example
# plugin (it drops the grid's z axis) is reduced to fewer statements that
# still fail there, in the same buffers, and pass on the reference; a passing case and bad usage
# are refused. CTest runs it as: cmake -DCLI=... -DPLUGIN=... -DDATA=...
# -DOUT_DIR=... -P this.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)
file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})
set(reduced ${OUT_DIR}/drops_z.reduced.vyre)

run_cli(0 out err reduce ${DATA}/drops_z.vyre --backend ${PLUGIN} --seconds 60 -o ${reduced})
expect_contains("${out}" "verdict on the backend: fail" "the seeded bug shows")
# The second workgroup along z stores to both buffers: both differ, and the
# reduction keeps both differing (it may not drift to a failure of one).
expect_contains("${out}" "symptom: fail: buffers `out`, `scratch` differ" "the symptom shown")
expect_contains("${out}" "keeping fail: buffers `out`, `scratch` differ; written to"
                "the symptom kept")
expect_contains("${out}" "written to ${reduced}" "the reduced case is written")
file(READ ${DATA}/drops_z.vyre original_text)
file(READ ${reduced} reduced_text)
string(REGEX MATCHALL "\n    [a-z]" original_statements "${original_text}")
string(REGEX MATCHALL "\n    [a-z]" reduced_statements "${reduced_text}")
list(LENGTH original_statements before)
list(LENGTH reduced_statements after)
if(NOT after LESS before)
  message(FATAL_ERROR "the reduction kept ${after} of ${before} top-level lines:\n${reduced_text}")
endif()
expect_contains("${reduced_text}" "dispatch(1, 1, 2)" "the failure needs the grid's z")
# The reduced case still fails on the plugin and passes on the reference.
run_cli(1 out err run ${reduced} --backend ${PLUGIN})
expect_contains("${out}" "verdict: fail" "the reduced case fails on the plugin")
run_cli(0 out err run ${reduced})
expect_contains("${out}" "verdict: pass" "the reduced case passes on the reference")

# A case the backend passes has nothing to reduce.
run_cli(1 out err reduce ${reduced} --backend ${PLUGIN_GOOD} -o ${OUT_DIR}/none.vyre)
expect_contains("${out}" "nothing to reduce" "a passing case")
if(EXISTS ${OUT_DIR}/none.vyre)
  message(FATAL_ERROR "a passing case wrote a reduced file")
endif()

run_cli(2 out err reduce ${DATA}/drops_z.vyre)
expect_contains("${err}" "no --backend given" "no backend")
run_cli(2 out err reduce ${DATA}/drops_z.vyre --backend reference)
run_cli(2 out err reduce ${DATA}/drops_z.vyre --backend ${PLUGIN} --checks 0)
expect_contains("${err}" "--checks needs a whole number from 1 to" "zero checks")
run_cli(2 out err reduce ${DATA}/drops_z.vyre --backend ${PLUGIN} --cache-dir /nonexistent/c --no-cache)
expect_contains("${err}" "--cache-dir and --no-cache contradict each other" "reduce's cache options")
run_cli(2 out err reduce ${DATA}/missing.vyre --backend ${PLUGIN})
