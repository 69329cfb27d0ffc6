# A backend with a seeded bug must come out NOT CERTIFIED (exit 1), and the
# report must name a case that did not pass.
#   -DCLI=vyre-certify -DBACKEND=name-or-plugin -DLEVEL=L3 -DRUNS=2 -DOUT_DIR=dir

include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/test_driver_cache.cmake)
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${OUT_DIR})
execute_process(COMMAND ${CLI} --backend ${BACKEND} --level ${LEVEL} --runs ${RUNS}
                        --out ${OUT_DIR} --quiet
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "1")
  message(FATAL_ERROR "expected NOT CERTIFIED (exit 1), got ${rc}:\n${out}\n${err}")
endif()
file(READ ${OUT_DIR}/report.json report)
string(JSON cases LENGTH "${report}" cases)
math(EXPR last "${cases} - 1")
foreach(i RANGE ${last})
  string(JSON status GET "${report}" cases ${i} status)
  if(NOT status STREQUAL "pass")
    string(JSON id GET "${report}" cases ${i} id)
    message(STATUS "NOT CERTIFIED: killed by ${id} (${status})")
    return()
  endif()
endforeach()
message(FATAL_ERROR "not certified, yet every case passed: the verdict names no case")
