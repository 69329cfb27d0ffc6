# What the *_cli_test.cmake scripts share: running vyre-certify, checking
# its output, and reading the report.json a certification run wrote.
# Expects CLI, the executable's path; CLI_WORKING_DIRECTORY, when set, is
# where it runs.

include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/test_driver_cache.cmake)

# Runs the CLI with the remaining arguments; fails unless it exits
# `expected_rc` (a process killed by a signal never does: CMake reports it as
# text, not a number); stores stdout and stderr in `out_var` and `err_var`.
function(run_cli expected_rc out_var err_var)
  set(where "")
  if(DEFINED CLI_WORKING_DIRECTORY)
    set(where WORKING_DIRECTORY ${CLI_WORKING_DIRECTORY})
  endif()
  execute_process(COMMAND ${CLI} ${ARGN} ${where}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL expected_rc)
    list(JOIN ARGN " " command)
    message(FATAL_ERROR "`vyre-certify ${command}` exited ${rc}, expected ${expected_rc}\n"
                        "stdout:\n${out}\nstderr:\n${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
  set(${err_var} "${err}" PARENT_SCOPE)
endfunction()

function(expect_contains actual needle what)
  string(FIND "${actual}" "${needle}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${what}: `${needle}` not found in:\n${actual}")
  endif()
endfunction()

function(expect_equal actual expected what)
  if(NOT actual STREQUAL expected)
    message(FATAL_ERROR "${what}:\n--- got ---\n${actual}\n--- expected ---\n${expected}")
  endif()
endfunction()

function(expect_match actual regex what)
  if(NOT actual MATCHES "${regex}")
    message(FATAL_ERROR "${what}: `${actual}` does not match `${regex}`")
  endif()
endfunction()

# Fails unless `dir` holds a non-empty report.json, report.md, report.html and junit.xml;
# stores report.json's text in `json_var`.
function(read_reports dir json_var)
  foreach(name report.json report.md report.html junit.xml)
    if(NOT EXISTS ${dir}/${name})
      message(FATAL_ERROR "${dir}/${name} was not written")
    endif()
    file(SIZE ${dir}/${name} size)
    if(size EQUAL 0)
      message(FATAL_ERROR "${dir}/${name} is empty")
    endif()
  endforeach()
  file(READ ${dir}/report.json json)
  set(${json_var} "${json}" PARENT_SCOPE)
endfunction()

# Stores the number of cases in report.json's text `json` in `count_var`.
function(report_case_count json count_var)
  string(JSON count LENGTH "${json}" cases)
  set(${count_var} ${count} PARENT_SCOPE)
endfunction()

# Stores case `index` of report.json's text `json` in `case_var`, as JSON:
# reading its fields from it parses one case, not the whole report.
function(report_case json index case_var)
  string(JSON one GET "${json}" cases ${index})
  set(${case_var} "${one}" PARENT_SCOPE)
endfunction()
