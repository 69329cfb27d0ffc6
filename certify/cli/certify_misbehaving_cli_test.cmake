# A plugin that misbehaves in every call fails its cases, never the run: for
# each mode of examples/plugin_backend/misbehaving_plugin.cc that breaks a
# compile or dispatch (the modes that break loading are in
# certify_usage_cli_test.cmake), `vyre-certify --backend PLUGIN --level L1
# --runs 1` exits 1 (not certified: not 2, not killed by a signal), report.json
# lists every case the run selected, each with the verdict of that
# misbehaviour, a message naming its cause and a repro file.
# CTest runs it as: cmake -DCLI=... -DPLUGIN=... -DOUT_DIR=... [-DSANITIZED=ON] -P this.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

# mode | verdict | what every case's message says. Causes as the
# plugin host (backends/PLUGINS.md, "What the host checks"), process isolation
# (backends/isolation/isolate.h) and the plugin itself word them. Each mode runs the
# seven unop cases only: a hang costs --timeout-ms a case and a crash two fresh
# (sanitized: slow to start) children a case, one retry. "ok" returns every
# byte one too high, which only the comparison with the reference can tell.
set(filter "L1/spec/unop/*")
set(misbehaviours
    "ok|fail|"
    "short|bad output|dispatch: plugin output: buffer '"
    "missing|bad output|dispatch: plugin output: missing read_write buffer"
    "unknown_buffer|bad output|output buffers returned, but the program has"
    "null_data|bad output|bytes but a NULL data pointer"
    "compile_null_handle|bad output|compile: compile() returned VYRE_STATUS_OK but a NULL"
    "not_supported|not supported|compile: no such feature"
    "garbage_status|error|dispatch: dispatch() returned the unknown status code 42"
    "error|error|dispatch: deliberate failure"
    "crash|crashed|dispatch: backend process crashed (signal 11: SIGSEGV)"
    "hang|timeout|dispatch: backend process did not answer within 400 ms"
    "bad_text|error|dispatch: bad �� text")

foreach(row IN LISTS misbehaviours)
  if(NOT row MATCHES "^([^|]+)\\|([^|]+)\\|(.*)$")
    message(FATAL_ERROR "malformed row `${row}`")
  endif()
  set(mode ${CMAKE_MATCH_1})
  set(verdict ${CMAKE_MATCH_2})
  set(cause "${CMAKE_MATCH_3}")
  # Sanitized, the plugin's null write meets UBSan or ASan first, which
  # reports it and ends the child by exit status 1 or abort: a crash still,
  # named by how the child ended.
  if(SANITIZED AND mode STREQUAL "crash")
    set(cause "dispatch: backend process crashed (")
  endif()
  # A hang costs --timeout-ms per case, so only the hang mode gets a short
  # one; the others get enough for a slow (sanitized) child to answer.
  set(timeout_ms 30000)
  if(mode STREQUAL "hang")
    set(timeout_ms 200)
  endif()

  set(dir ${OUT_DIR}/${mode})
  file(REMOVE_RECURSE ${dir})
  set(ENV{VYRE_TEST_PLUGIN_MODE} ${mode})
  run_cli(1 out err --backend ${PLUGIN} --level L1 --runs 1 --timeout-ms ${timeout_ms} --filter ${filter}
          --out ${dir} --quiet)
  unset(ENV{VYRE_TEST_PLUGIN_MODE})
  expect_contains("${out}" "NOT CERTIFIED at L1" "${mode}: summary line")

  # Every case the run announced is in the report: none ended it.
  if(NOT err MATCHES "vyre-certify: ([0-9]+) cases on ")
    message(FATAL_ERROR "${mode}: no case count on stderr:\n${err}")
  endif()
  set(selected ${CMAKE_MATCH_1})
  if(selected LESS 3)
    message(FATAL_ERROR "${mode}: only ${selected} case(s) ran; the filter is too narrow")
  endif()
  read_reports(${dir} json)
  report_case_count("${json}" count)
  expect_equal("${count}" "${selected}" "${mode}: cases in report.json")

  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    report_case("${json}" ${i} one)
    string(JSON id GET "${one}" id)
    string(JSON status GET "${one}" status)
    string(JSON case_message GET "${one}" message)
    expect_equal("${status}" "${verdict}" "${mode}: ${id} (${case_message})")
    if(NOT cause STREQUAL "")
      expect_contains("${case_message}" "${cause}" "${mode}: ${id}")
    endif()
    if(verdict STREQUAL "fail")
      string(JSON differs ERROR_VARIABLE no_difference GET "${one}" failure first_difference
             buffer)
      if(NOT no_difference STREQUAL "NOTFOUND" OR differs STREQUAL "")
        message(FATAL_ERROR "${mode}: ${id} fails without naming where")
      endif()
    endif()
    string(JSON repro GET "${one}" failure repro)
    if(repro STREQUAL "" OR NOT EXISTS ${dir}/${repro})
      message(FATAL_ERROR "${mode}: ${id} has no repro file (`${repro}`)")
    endif()
  endforeach()
  message(STATUS "${mode}: ${count} cases, each `${verdict}`")
endforeach()

# Text that is not UTF-8 (the bad_text mode's device name and messages) is
# replaced where it enters: the run wrote its reports and they pass every
# check but the one a filtered run cannot (it certifies no level).
run_cli(1 out err verify ${OUT_DIR}/bad_text/report.json)
expect_contains("${out}" "not a certificate of L1: a run filtered by" "verify the bad_text run")
