# `ctest -L mutation`: certifies BACKEND (vulkan or opencl) with each seeded
# bug it carries of backends/mutants/mutants.def (the shared lowering's and its
# own runtime's; the test-only vyre-certify-mutants, VYRE_MUTANT=NAME) and
# requires NOT CERTIFIED, naming the case that killed it;
# a crash or hang of the run kills the mutant too, reported as such. A
# survivor fails the test unless the backend's record (RECORD:
# certify/report/mutation_record.h for vulkan, mutation_record_opencl.h for
# opencl) lists it with its reason; a listed survivor that is now killed fails
# it too (stale record). With the whole catalogue at the record's level and
# runs, the measured score must equal the record's, and the record must name
# BACKEND (kMutationBackend).
#   -DCLI=vyre-certify-mutants -DBACKEND=vulkan -DRECORD=mutation_record.h
#   -DOUT_DIR=dir -DLEVEL=L4 -DRUNS=2 [-DMUTANTS=A;B;...] [-DRUN_TIMEOUT=seconds]

include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/test_driver_cache.cmake)
cmake_minimum_required(VERSION 3.25)
foreach(var CLI BACKEND RECORD OUT_DIR LEVEL RUNS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "mutation_test.cmake needs -D${var}=...")
  endif()
endforeach()
if(NOT DEFINED RUN_TIMEOUT)
  set(RUN_TIMEOUT 600)
endif()

include(${CMAKE_CURRENT_LIST_DIR}/mutant_catalogue.cmake)
read_mutant_catalogue(${CLI} ${BACKEND})

# The committed record.
file(READ ${RECORD} record)
foreach(key Total Killed)
  if(NOT record MATCHES "kMutants${key} = ([0-9]+);")
    message(FATAL_ERROR "${RECORD} has no kMutants${key}")
  endif()
  set(record_${key} ${CMAKE_MATCH_1})
endforeach()
if(NOT record MATCHES "kMutationBackend = \"${BACKEND}\";")
  message(FATAL_ERROR "${RECORD} is not the record of `${BACKEND}` (kMutationBackend)")
endif()
string(REGEX MATCH "kMutationLevel = \"(L[0-9])\"" _ "${record}")
set(record_level ${CMAKE_MATCH_1})
string(REGEX MATCH "kMutationRuns = ([0-9]+);" _ "${record}")
set(record_runs ${CMAKE_MATCH_1})
# The rows of kSurvivingMutants, with C++'s adjacent string literals joined.
string(REGEX MATCH "kSurvivingMutants\\[\\] = {(.*)\n};" _ "${record}")
string(REGEX REPLACE "\"[ \n]+\"" "" survivors "${CMAKE_MATCH_1}")
string(REPLACE ";" "," survivors "${survivors}")  # A `;` would split CMake's list of rows.
string(REGEX MATCHALL "{\"[A-Za-z0-9]+\",[ \n]+\"[^\"]*\"}" survivor_rows "${survivors}")
set(listed_survivors "")
foreach(row IN LISTS survivor_rows)
  string(REGEX MATCH "{\"([A-Za-z0-9]+)\",[ \n]+\"([^\"]*)\"}" _ "${row}")
  list(APPEND listed_survivors ${CMAKE_MATCH_1})
  set(reason_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
endforeach()

set(whole_catalogue ON)
if(DEFINED MUTANTS AND NOT MUTANTS STREQUAL "")
  set(whole_catalogue OFF)
  foreach(m IN LISTS MUTANTS)
    if(NOT m IN_LIST catalogue)
      message(FATAL_ERROR "-DMUTANTS names `${m}`, which is not in the catalogue")
    endif()
  endforeach()
  set(catalogue ${MUTANTS})
endif()

file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})
set(killed 0)
set(errors "")
set(table "| mutant | family | result |\n|---|---|---|\n")
foreach(m IN LISTS catalogue)
  string(TIMESTAMP start "%s")
  # Set here, not through `cmake -E env`, which reports a child's crash as exit 1.
  set(ENV{VYRE_MUTANT} ${m})
  execute_process(COMMAND ${CLI} --backend ${BACKEND} --level ${LEVEL} --runs ${RUNS}
                          --out ${OUT_DIR}/${m} --quiet
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  TIMEOUT ${RUN_TIMEOUT})
  string(TIMESTAMP end "%s")
  math(EXPR seconds "${end} - ${start}")
  set(result "")
  if(rc STREQUAL "1" AND NOT EXISTS ${OUT_DIR}/${m}/report.json)
    set(result "killed: exit 1 without a report (${err})")
  elseif(rc STREQUAL "1")
    # Not certified: name the first case that did not pass.
    file(READ ${OUT_DIR}/${m}/report.json report)
    string(JSON cases LENGTH "${report}" cases)
    math(EXPR last "${cases} - 1")
    foreach(i RANGE ${last})
      string(JSON status GET "${report}" cases ${i} status)
      if(NOT status STREQUAL "pass")
        string(JSON id GET "${report}" cases ${i} id)
        set(result "killed by ${id} (${status})")
        break()
      endif()
    endforeach()
    if(result STREQUAL "")
      set(result "killed (not certified: no failing case named)")
    endif()
  elseif(rc STREQUAL "0")
    set(result "SURVIVED")
  elseif(rc MATCHES "^[0-9]+$")
    list(APPEND errors "${m}: vyre-certify-mutants exited ${rc}: ${err}")
    set(result "ERROR (exit ${rc})")
  elseif(rc MATCHES "timeout")
    set(result "killed by a hang (no verdict within ${RUN_TIMEOUT} s)")
  else()
    set(result "killed by a crash (${rc})")
  endif()
  if(result MATCHES "^killed")
    math(EXPR killed "${killed} + 1")
    if(m IN_LIST listed_survivors)
      list(APPEND errors "${m} is now ${result}: remove it from kSurvivingMutants in ${RECORD}")
    endif()
  elseif(result STREQUAL "SURVIVED")
    if(m IN_LIST listed_survivors)
      set(result "survived: ${reason_${m}}")
    else()
      list(APPEND errors "${m} SURVIVED: add the case that kills it, or list it in ${RECORD} "
                         "with the reason it is equivalent on this device")
    endif()
  endif()
  message(STATUS "${m} (${family_${m}}): ${result} [${seconds} s]")
  string(APPEND table "| ${m} | ${family_${m}} | ${result} |\n")
endforeach()

unset(ENV{VYRE_MUTANT})
list(LENGTH catalogue tested)
set(score "mutation score of ${BACKEND}: ${killed}/${tested} killed at ${LEVEL} --runs ${RUNS}")
message(STATUS "${score}")
string(APPEND table "\n${score}\n")
file(WRITE ${OUT_DIR}/mutation_table.md "${table}")
if(whole_catalogue AND LEVEL STREQUAL record_level AND RUNS STREQUAL record_runs)
  if(NOT tested EQUAL record_Total OR NOT killed EQUAL record_Killed)
    list(APPEND errors "measured ${killed}/${tested} killed but ${RECORD} records "
                       "${record_Killed}/${record_Total}: update the record")
  endif()
endif()
if(errors)
  list(JOIN errors "\n  " text)
  message(FATAL_ERROR "mutation test failed:\n  ${text}")
endif()
