# Whole certifications under injected faults (--inject-faults,
# backends/fault_injection/): each row certifies a few L1 cases with one
# fault plan and checks that the verdict follows the fault (a transient
# lost device or hang is retried once on a fresh backend and passes; a
# persistent one, wrong bytes, a truncated read-back, a failed allocation or
# a crash fails the case it hit with its status), that every selected case is
# in a report that verifies, and that no case passes that a fault hit: each
# fault the injector reports on stderr that corrupts bytes or fails an
# allocation is one failing case (a case stops at its first failure), and
# each transient one retries at least one case.
# CTest runs it as: cmake -DCLI=... -DPLUGIN=... -DOUT_DIR=... -P this.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

# backend | spec | --timeout-ms | exit | failing cases' status ("" = none
# fails; "all" prefix = every case fails) | retried cases' first status
set(rows
    "reference|device-lost@3|10000|0||device lost"
    "reference|hang@3|300|0||timeout"
    "reference|device-lost@1+|10000|1|all:device lost|device lost"
    "reference|hang@1+|300|1|all:timeout|timeout"
    "reference|alloc-fail@1+|10000|1|all:error|"
    "reference|wrong-bytes@3|10000|1|fail|"
    "reference|truncate@3|10000|1|bad output|"
    "reference|alloc-fail@3|10000|1|error|"
    "reference|wrong-bytes%10,seed=11|10000|1|fail|"
    "plugin|crash@3|30000|0||crashed"
    "plugin|hang@3|500|0||timeout"
    "plugin|device-lost@3|30000|0||device lost"
    "plugin|wrong-bytes@5|30000|1|fail|")

set(row_index 0)
foreach(row IN LISTS rows)
  if(NOT row MATCHES "^([^|]+)\\|([^|]+)\\|([^|]+)\\|([^|]+)\\|([^|]*)\\|([^|]*)$")
    message(FATAL_ERROR "malformed row `${row}`")
  endif()
  set(backend ${CMAKE_MATCH_1})
  set(spec ${CMAKE_MATCH_2})
  set(timeout_ms ${CMAKE_MATCH_3})
  set(rc ${CMAKE_MATCH_4})
  set(failing "${CMAKE_MATCH_5}")
  set(retried "${CMAKE_MATCH_6}")
  set(every_case_fails OFF)
  if(failing MATCHES "^all:(.*)$")
    set(every_case_fails ON)
    set(failing "${CMAKE_MATCH_1}")
  endif()
  if(backend STREQUAL "plugin")
    set(backend ${PLUGIN})
  endif()
  set(what "${row}")
  math(EXPR row_index "${row_index} + 1")
  set(dir ${OUT_DIR}/${row_index})
  file(REMOVE_RECURSE ${dir})
  run_cli(${rc} out err --backend ${backend} --level L1 --filter "L1/spec/unop/*" --runs 20
          --timeout-ms ${timeout_ms} --inject-faults ${spec} --out ${dir} --quiet)

  # Every case the run announced is in the report, and the report verifies.
  if(NOT err MATCHES "vyre-certify: ([0-9]+) cases on ")
    message(FATAL_ERROR "${what}: no case count on stderr:\n${err}")
  endif()
  set(selected ${CMAKE_MATCH_1})
  read_reports(${dir} json)
  report_case_count("${json}" count)
  expect_equal("${count}" "${selected}" "${what}: cases in report.json")
  # Sealed and complete for its selection; a filtered run is no certificate
  # of the level, which is the only thing verify may hold against it.
  run_cli(1 vout verr verify ${dir}/report.json)
  expect_contains("${vout}" "not a certificate of L1: a run filtered by" "${what}: verify")

  string(REGEX MATCHALL "--inject-faults: [a-z-]+ at dispatch call [0-9]+\n" injected "${err}")
  list(LENGTH injected faults)
  if(faults EQUAL 0)
    message(FATAL_ERROR "${what}: no fault was injected:\n${err}")
  endif()
  set(failed 0)
  set(retries 0)
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    report_case("${json}" ${i} one)
    string(JSON id GET "${one}" id)
    string(JSON status GET "${one}" status)
    string(JSON message GET "${one}" message)
    string(JSON first ERROR_VARIABLE not_retried GET "${one}" retried)
    if(not_retried STREQUAL "NOTFOUND")
      math(EXPR retries "${retries} + 1")
      expect_equal("${first}" "${retried}" "${what}: ${id}'s first attempt")
      expect_contains("${message}" "retried once on a freshly opened backend" "${what}: ${id}")
    endif()
    if(status STREQUAL "pass")
      if(every_case_fails)
        message(FATAL_ERROR "${what}: ${id} passes under a persistent fault")
      endif()
      continue()
    endif()
    math(EXPR failed "${failed} + 1")
    expect_equal("${status}" "${failing}" "${what}: ${id} (${message})")
    if(backend STREQUAL "${PLUGIN}" AND spec MATCHES "^crash")
      expect_contains("${message}" "backend process crashed" "${what}: ${id}")
    endif()
  endforeach()

  if(every_case_fails)
    expect_equal("${failed}" "${count}" "${what}: failing cases")
  elseif(failing STREQUAL "")
    expect_equal("${failed}" "0" "${what}: failing cases")
    # A lost device stays lost for every case running on it at the time
    # (cases run side by side), so one loss may retry more than one case.
    if(retries LESS faults)
      message(FATAL_ERROR "${what}: ${retries} retried case(s) for ${faults} fault(s)")
    endif()
  else()
    # No case a fault hit passes, and no case fails without one.
    expect_equal("${failed}" "${faults}" "${what}: failing cases, one per fault")
  endif()
  message(STATUS "${what}: ${count} cases, ${faults} fault(s), ${failed} failing, ${retries} retried")
endforeach()

# A crash fault needs a backend in a child process: on a built-in one it is bad usage.
run_cli(2 out err --backend reference --level L1 --inject-faults crash@1 --out ${OUT_DIR}/crash)
expect_contains("${err}" "a `crash` fault needs a backend in a child process" "crash in process")
run_cli(2 out err --backend reference --level L1 --inject-faults melt@1 --out ${OUT_DIR}/melt)
expect_contains("${err}" "unknown fault kind `melt`" "unknown fault")
