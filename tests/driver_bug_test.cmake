# One driver bug of reports/driver-bugs/, replayed as a known failure on the
# driver it was found on: the test passes while the driver still shows the
# bug, and fails (asking for the record to be revisited) when the driver is
# another one or no longer shows it. Expects CLI, CASE (the repro),
# BACKEND, DRIVER (a regex the `device:` line must match) and SYMPTOM (text
# the failing run prints); or HOST (the record's stand-alone C reproducer,
# exit 1 while the bug shows) and SYMPTOM. CTest runs it as:
# cmake -D... -P this.

include(${CMAKE_CURRENT_LIST_DIR}/../certify/cli/cli_test_helpers.cmake)

if(DEFINED HOST)
  execute_process(COMMAND ${HOST} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc STREQUAL "0")
    message(FATAL_ERROR "${HOST} now passes: the driver no longer shows the bug.\n${out}")
  elseif(NOT rc STREQUAL "1")
    message(FATAL_ERROR "${HOST} exited ${rc} (1 expected: the bug; 2 is a setup failure, "
                        "no OpenCL or Vulkan device?)\n${out}${err}")
  endif()
  expect_contains("${out}" "${SYMPTOM}" "the recorded symptom")
  return()
endif()

execute_process(COMMAND ${CLI} run ${CASE} --backend ${BACKEND}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCH "device: [^\n]*" device "${out}")
if(NOT device MATCHES "${DRIVER}")
  message(FATAL_ERROR "${CASE} is recorded for a driver matching `${DRIVER}`; this machine's "
                      "${BACKEND} backend has `${device}` (exit ${rc}). Replay it by hand "
                      "(`vyre-certify run ${CASE} --backend ${BACKEND}`) and record what this "
                      "driver does.\n${out}${err}")
endif()
if(rc STREQUAL "0")
  message(FATAL_ERROR "${CASE} now passes on `${device}`: the driver no longer shows the bug. "
                      "Check the driver's version and its fix, then mark the record fixed.")
endif()
if(NOT rc STREQUAL "1")
  message(FATAL_ERROR "${CASE} exited ${rc} (1 expected: the known wrong bytes)\n${out}${err}")
endif()
expect_contains("${out}" "${SYMPTOM}" "the recorded symptom")
