# `ctest -L mutation` (vyre_certify_l5_catches): the generator kills bugs
# (issue 17). Each mutant of family `l5` (backends/mutants/mutants.def)
# must come out CERTIFIED at L4, so the hand-written levels L1-L4 miss it, and
# NOT CERTIFIED by L5's random programs alone (--filter 'L5/random/*'), with an L5
# case failing on wrong output (status `fail`: a verdict such as `not
# supported` would blame the device, not the lowering) and its reduced repro
# written.
# The mutants are the binary's own family `l5` (VYRE_MUTANT=list, from the
# one table mutants.def); none listed fails the test.
# The mutants sit in the shared lowering, so BACKEND may be vulkan or opencl.
#   -DCLI=vyre-certify-mutants -DOUT_DIR=dir [-DBACKEND=vulkan] [-DRUNS=2] [-DRUN_TIMEOUT=s]

include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/test_driver_cache.cmake)
cmake_minimum_required(VERSION 3.25)
foreach(var CLI OUT_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "l5_catches_test.cmake needs -D${var}=...")
  endif()
endforeach()
if(NOT DEFINED BACKEND)
  set(BACKEND vulkan)
endif()
include(${CMAKE_CURRENT_LIST_DIR}/mutant_catalogue.cmake)
read_mutant_catalogue(${CLI} ${BACKEND})
set(MUTANTS "")
foreach(m IN LISTS catalogue)
  if(family_${m} STREQUAL "l5")
    list(APPEND MUTANTS ${m})
  endif()
endforeach()
if(MUTANTS STREQUAL "")
  message(FATAL_ERROR "the catalogue lists no mutant of family l5: nothing would be tested")
endif()
if(NOT DEFINED RUNS)
  set(RUNS 2)
endif()
if(NOT DEFINED RUN_TIMEOUT)
  set(RUN_TIMEOUT 900)
endif()

file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})
set(errors "")
foreach(m IN LISTS MUTANTS)
  set(ENV{VYRE_MUTANT} ${m})
  # L1-L4 miss it: certified.
  execute_process(COMMAND ${CLI} --backend ${BACKEND} --level L4 --runs ${RUNS}
                          --out ${OUT_DIR}/${m}/L4 --quiet
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  TIMEOUT ${RUN_TIMEOUT})
  if(NOT rc STREQUAL "0")
    list(APPEND errors "${m}: L4 was not CERTIFIED (exit ${rc}): L1-L4 kill it, so it does "
                       "not show what L5 adds; see ${OUT_DIR}/${m}/L4")
    continue()
  endif()
  # L5 kills it: not certified, by an L5 case with a reduced repro.
  execute_process(COMMAND ${CLI} --backend ${BACKEND} --level L5 --filter "L5/random/*" --runs ${RUNS}
                          --out ${OUT_DIR}/${m}/L5 --quiet
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  TIMEOUT ${RUN_TIMEOUT})
  if(NOT rc STREQUAL "1" OR NOT EXISTS ${OUT_DIR}/${m}/L5/report.json)
    list(APPEND errors "${m}: L5 did not come out NOT CERTIFIED with a report (exit ${rc}): ${err}")
    continue()
  endif()
  file(READ ${OUT_DIR}/${m}/L5/report.json report)
  string(JSON cases LENGTH "${report}" cases)
  if(cases EQUAL 0)
    list(APPEND errors "${m}: L5 ran no case")
    continue()
  endif()
  math(EXPR last "${cases} - 1")
  set(killer "")
  foreach(i RANGE ${last})
    string(JSON status GET "${report}" cases ${i} status)
    string(JSON id GET "${report}" cases ${i} id)
    if(status STREQUAL "fail" AND id MATCHES "^L5/random/")
      string(JSON reduced ERROR_VARIABLE no_reduced GET "${report}" cases ${i} failure reduced_repro)
      if(no_reduced)
        set(reduced "")
      endif()
      set(killer "${id} (${status})")
      break()
    endif()
  endforeach()
  if(killer STREQUAL "")
    list(APPEND errors "${m}: L5 was NOT CERTIFIED but no L5/random case failed on wrong output")
    continue()
  endif()
  if(reduced STREQUAL "" OR NOT EXISTS ${OUT_DIR}/${m}/L5/${reduced})
    list(APPEND errors "${m}: killed by ${killer} without a reduced repro")
    continue()
  endif()
  file(STRINGS ${OUT_DIR}/${m}/L5/${reduced} lines)
  list(LENGTH lines line_count)
  message(STATUS "${m}: certified at L4, killed by ${killer}; reduced repro ${reduced} "
                 "(${line_count} lines)")
endforeach()
unset(ENV{VYRE_MUTANT})
if(errors)
  list(JOIN errors "\n  " text)
  message(FATAL_ERROR "l5_catches test failed:\n  ${text}")
endif()
