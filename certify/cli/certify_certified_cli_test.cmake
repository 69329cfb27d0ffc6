# A backend that conforms, certified end to end: `vyre-certify --backend
# BACKEND --level LEVEL --runs RUNS --out OUT_DIR` exits 0 and writes
# report.json, report.md, report.html and junit.xml; report.json says certified at LEVEL,
# every level up to it with every case passed; `vyre-certify verify` accepts
# the report, and rejects it once one case's verdict is edited.
# CTest runs it as: cmake -DCLI=... -DBACKEND=... -DLEVEL=... -DRUNS=... -DOUT_DIR=... -P this.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

file(REMOVE_RECURSE ${OUT_DIR})
set(command --backend ${BACKEND} --level ${LEVEL} --runs ${RUNS} --out ${OUT_DIR} --quiet)
# A sanitized build runs the 128 MiB saturation case several times slower
# than the shipped one; its submissions get the time that takes.
if(TIMEOUT_MS)
  list(APPEND command --timeout-ms ${TIMEOUT_MS})
endif()
execute_process(COMMAND ${CLI} ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
list(JOIN command " " shown)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "`vyre-certify ${shown}` exited ${rc}, expected 0\n"
                      "stdout:\n${out}\nstderr:\n${err}")
endif()
read_reports(${OUT_DIR} json)
string(JSON backend GET "${json}" backend)
string(JSON level GET "${json}" requested_level)
string(JSON runs GET "${json}" runs)
expect_equal("${backend}:${level}:${runs}" "${BACKEND}:${LEVEL}:${RUNS}" "what report.json ran")

string(JSON certified GET "${json}" certified)
expect_equal("${certified}" "ON" "report.json's certified")
# L1..LEVEL, each with cases, all passed.
string(SUBSTRING "${LEVEL}" 1 1 level_count)
string(JSON levels LENGTH "${json}" levels)
expect_equal("${levels}" "${level_count}" "levels judged")
math(EXPR last "${levels} - 1")
foreach(i RANGE ${last})
  string(JSON name GET "${json}" levels ${i} level)
  string(JSON cases GET "${json}" levels ${i} cases)
  string(JSON passed GET "${json}" levels ${i} passed)
  string(JSON level_certified GET "${json}" levels ${i} certified)
  math(EXPR expected_name_index "${i} + 1")
  expect_equal("${name}:${level_certified}" "L${expected_name_index}:ON" "level ${i}")
  expect_equal("${passed}" "${cases}" "${name}: cases passed")
  if(cases EQUAL 0)
    message(FATAL_ERROR "${name} ran no case")
  endif()
endforeach()
expect_contains("${out}" "CERTIFIED at ${LEVEL}" "summary line")
# L5 reports its random programs: none discarded, the whole coverage universe reached.
if(LEVEL STREQUAL "L5")
  string(JSON discarded GET "${json}" random_programs discarded)
  string(JSON programs GET "${json}" random_programs programs)
  string(JSON not_reached LENGTH "${json}" random_programs coverage not_reached)
  expect_equal("${discarded}:${not_reached}" "0:0" "L5 discarded programs and coverage misses")
  if(programs EQUAL 0)
    message(FATAL_ERROR "L5 ran no random program")
  endif()
endif()

# The dispatch phase split into device and host time: a device backend
# measures its device time (Vulkan timestamps, OpenCL event profiling), which
# lies within the dispatch phase and within each slowest case's backend time;
# the reference backend has no device, and a plugin no way to pass device
# time through the C ABI: their reports claim no device time at all.
string(JSON dispatch_us GET "${json}" timing_us phases dispatch)
string(JSON split_type ERROR_VARIABLE no_split TYPE "${json}" timing_us dispatch_split)
if(BACKEND STREQUAL "reference" OR BACKEND MATCHES "\\.so$")
  if(NOT no_split)
    message(FATAL_ERROR "the ${BACKEND} report has a dispatch_split: ${split_type}")
  endif()
  string(JSON case_device ERROR_VARIABLE no_case_device GET "${json}" cases 0 timing_us device)
  string(JSON slowest_type ERROR_VARIABLE no_slowest TYPE "${json}" timing_us slowest)
  if(NOT no_case_device OR NOT no_slowest)
    message(FATAL_ERROR "the ${BACKEND} report claims device time: case 0 "
                        "`${case_device}`, slowest `${slowest_type}`")
  endif()
else()
  if(no_split)
    message(FATAL_ERROR "no timing_us/dispatch_split in the ${BACKEND} report: ${no_split}")
  endif()
  string(JSON device_us GET "${json}" timing_us dispatch_split device)
  string(JSON host_us GET "${json}" timing_us dispatch_split host)
  string(JSON measured GET "${json}" timing_us dispatch_split measured_cases)
  math(EXPR split_sum "${device_us} + ${host_us}")
  expect_equal("${split_sum}" "${dispatch_us}" "device + host time of the dispatch phase")
  if(measured EQUAL 0)
    message(FATAL_ERROR "no case of the ${BACKEND} run measured device time")
  endif()
  # The driver's on-disk cache (the default folder) served or missed every
  # compile; the run is isolated, so the counts come from the child process.
  if(BACKEND STREQUAL "vulkan" OR BACKEND STREQUAL "opencl")
    string(JSON cache_hits ERROR_VARIABLE no_cache GET "${json}" driver_cache hits)
    if(no_cache)
      message(FATAL_ERROR "no driver_cache in the ${BACKEND} report: ${no_cache}")
    endif()
    string(JSON cache_misses GET "${json}" driver_cache misses)
    math(EXPR cache_uses "${cache_hits} + ${cache_misses}")
    if(cache_uses EQUAL 0)
      message(FATAL_ERROR "the ${BACKEND} report's driver_cache counts no compile")
    endif()
  endif()
  string(JSON slowest LENGTH "${json}" timing_us slowest)
  if(slowest EQUAL 0)
    message(FATAL_ERROR "the ${BACKEND} report lists no slowest case")
  endif()
  math(EXPR last_slow "${slowest} - 1")
  foreach(i RANGE ${last_slow})
    string(JSON backend_us GET "${json}" timing_us slowest ${i} backend)
    string(JSON slow_device ERROR_VARIABLE unmeasured GET "${json}" timing_us slowest ${i} device)
    if(unmeasured)
      continue()
    endif()
    string(JSON slow_host GET "${json}" timing_us slowest ${i} host)
    math(EXPR slow_sum "${slow_device} + ${slow_host}")
    expect_equal("${slow_sum}" "${backend_us}" "slowest case ${i}: device + host time")
  endforeach()
endif()

# The certificate verifies as written...
run_cli(0 out err verify ${OUT_DIR}/report.json)
expect_contains("${out}" "verified (sha256 " "verify report.json")

# ...and not once the first case's verdict says "fail" instead of "pass".
file(READ ${OUT_DIR}/report.json text)
set(verdict "\"status\": \"pass\"")
string(FIND "${text}" "${verdict}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "no `${verdict}` in ${OUT_DIR}/report.json")
endif()
string(LENGTH "${verdict}" length)
math(EXPR after "${at} + ${length}")
string(SUBSTRING "${text}" 0 ${at} head)
string(SUBSTRING "${text}" ${after} -1 tail)
file(WRITE ${OUT_DIR}/report-tampered.json "${head}\"status\": \"fail\"${tail}")
run_cli(1 out err verify ${OUT_DIR}/report-tampered.json)
expect_contains("${out}" "NOT VERIFIED: certificate digest mismatch" "verify a tampered report")

# The timings are sealed too: a report whose dispatch phase says other
# microseconds no longer verifies.
string(JSON forged SET "${text}" timing_us phases dispatch "${dispatch_us}1")
file(WRITE ${OUT_DIR}/report-forged-timing.json "${forged}")
run_cli(1 out err verify ${OUT_DIR}/report-forged-timing.json)
expect_contains("${out}" "NOT VERIFIED: certificate digest mismatch" "verify forged timings")
