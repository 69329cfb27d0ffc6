# vyre-certify-mutants' mutant selection: VYRE_MUTANT=list prints exactly the
# rows of mutants.def; an unknown name exits 2 and lists the names; and
# MUTANTS.md documents every row with its description (one table, checked).
#   -DCLI=vyre-certify-mutants -DDEF=mutants.def -DDOC=MUTANTS.md

include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/test_driver_cache.cmake)
cmake_minimum_required(VERSION 3.25)
file(STRINGS ${DEF} def_rows REGEX "^VYRE_MUTANT\\(")
list(LENGTH def_rows expected)
if(expected EQUAL 0)
  message(FATAL_ERROR "${DEF} has no VYRE_MUTANT rows")
endif()

execute_process(COMMAND ${CMAKE_COMMAND} -E env VYRE_MUTANT=list ${CLI}
                RESULT_VARIABLE rc OUTPUT_VARIABLE listing)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "VYRE_MUTANT=list exited ${rc}")
endif()
string(REGEX MATCHALL "[^\n]+" listed "${listing}")
list(LENGTH listed count)
if(NOT count EQUAL expected)
  message(FATAL_ERROR "VYRE_MUTANT=list prints ${count} rows; mutants.def has ${expected}")
endif()

execute_process(COMMAND ${CMAKE_COMMAND} -E env VYRE_MUTANT=NoSuchMutant ${CLI} --backend vulkan
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "unknown mutant `NoSuchMutant`" OR NOT err MATCHES "ShrArithmetic")
  message(FATAL_ERROR "an unknown mutant must exit 2 listing the names; got ${rc}: ${err}")
endif()

file(READ ${DOC} doc)
foreach(row IN LISTS def_rows)
  if(NOT row MATCHES "^VYRE_MUTANT\\(([A-Za-z0-9]+), ([a-z0-9]+), (true|false), (lowering|vulkan|opencl), \"([^\"]*)\"\\)")
    message(FATAL_ERROR "cannot read the mutants.def row: ${row}")
  endif()
  set(kind deterministic)
  if(CMAKE_MATCH_3 STREQUAL "false")
    set(kind nondeterministic)
  endif()
  set(line "| ${CMAKE_MATCH_1} | ${CMAKE_MATCH_2} | ${CMAKE_MATCH_4} | ${kind} | ${CMAKE_MATCH_5} |")
  string(FIND "${doc}" "${line}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "MUTANTS.md lacks the row `${line}` (regenerate it from mutants.def)")
  endif()
endforeach()
