# `ctest -L mutation` (vyre_certify_repro_replays): a repro reproduces. For
# one mutant of each kind of failure the catalogue produces (a lowering bug
# wrong on every run, the batch path's own bugs, which only a second run of a
# batch shows, a flaky byte, a read-back of the wrong length), a
# certification on Vulkan fails, and every failing case's repro, replayed with
# `vyre-certify run` on the same mutant, fails with the verdict the report
# gave the case (`verdict: STATUS`) and passes on the reference. A repro of a
# failure in a batch carries the batch clause. At L5 the reduced repro of a
# batch-path failure replays to the same verdict too.
#   -DCLI=vyre-certify-mutants -DOUT_DIR=dir
cmake_minimum_required(VERSION 3.25)
foreach(var CLI OUT_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "repro_replays_test.cmake needs -D${var}=...")
  endif()
endforeach()

# mutant | level | --filter | --runs | the failing cases' status | batch clause expected
set(rows
    "ShrArithmetic|L1|L1/spec/binop/shr|2|fail|ON"
    "BatchFreshOutputsRunZeroOnly|L1|L1/spec/atomic/atomic_[ax]*|10|fail|ON"
    "BatchSlotsAliased|L1|L1/spec/unop/*|10|fail|ON"
    "FlakyOutputByte|L1|L1/spec/binop/add|20|fail|ON"
    "ReadbackBoundBytes|L2|L2/exec/call_arguments_once_left_to_right|2|bad output|ON"
    "BatchSlotsAliased|L5|L5/random/000000|10|fail|ON")

file(REMOVE_RECURSE ${OUT_DIR})
set(index 0)
foreach(row IN LISTS rows)
  if(NOT row MATCHES "^([^|]+)\\|([^|]+)\\|([^|]+)\\|([^|]+)\\|([^|]+)\\|([^|]+)$")
    message(FATAL_ERROR "malformed row `${row}`")
  endif()
  set(mutant ${CMAKE_MATCH_1})
  set(level ${CMAKE_MATCH_2})
  set(filter ${CMAKE_MATCH_3})
  set(runs ${CMAKE_MATCH_4})
  set(expected_status ${CMAKE_MATCH_5})
  set(batch_clause ${CMAKE_MATCH_6})
  math(EXPR index "${index} + 1")
  set(dir ${OUT_DIR}/${index}-${mutant})

  set(ENV{VYRE_MUTANT} ${mutant})
  execute_process(COMMAND ${CLI} --backend vulkan --level ${level} --filter ${filter}
                          --runs ${runs} --out ${dir} --quiet
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "1")
    message(FATAL_ERROR "${row}: the certification exited ${rc}, expected 1 (NOT CERTIFIED)\n"
                        "${out}\n${err}")
  endif()
  file(READ ${dir}/report.json json)
  string(JSON count LENGTH "${json}" cases)
  math(EXPR last "${count} - 1")
  set(replayed 0)
  set(reduced_replayed 0)
  foreach(i RANGE ${last})
    string(JSON one GET "${json}" cases ${i})
    string(JSON id GET "${one}" id)
    string(JSON status GET "${one}" status)
    if(status STREQUAL "pass")
      continue()
    endif()
    if(NOT status STREQUAL expected_status)
      message(FATAL_ERROR "${row}: ${id} is `${status}`, expected `${expected_status}`")
    endif()
    string(JSON repro GET "${one}" failure repro)
    string(JSON reduced ERROR_VARIABLE no_reduced GET "${one}" failure reduced_repro)
    set(files ${repro})
    if(level STREQUAL "L5")
      if(reduced STREQUAL "")
        string(JSON message GET "${one}" message)
        message(FATAL_ERROR "${row}: ${id} has no reduced repro: ${message}")
      endif()
      list(APPEND files ${reduced})
    endif()
    foreach(file IN LISTS files)
      if(file STREQUAL "" OR NOT EXISTS ${dir}/${file})
        message(FATAL_ERROR "${row}: ${id} has no repro file (`${file}`)")
      endif()
      file(READ ${dir}/${file} text)
      if(batch_clause AND NOT text MATCHES "\n  batch\\([0-9]+, [0-9]+, [0-9]+\\)")
        message(FATAL_ERROR "${row}: ${file} records no batch:\n${text}")
      endif()
      set(ENV{VYRE_MUTANT} ${mutant})
      execute_process(COMMAND ${CLI} run ${dir}/${file} --backend vulkan
                      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
      if(NOT rc STREQUAL "1" OR NOT out MATCHES "\nverdict: ${expected_status}\n")
        message(FATAL_ERROR "${row}: ${file} replayed on the mutant exited ${rc} without "
                            "`verdict: ${expected_status}`:\n${out}\n${err}")
      endif()
      unset(ENV{VYRE_MUTANT})
      execute_process(COMMAND ${CLI} run ${dir}/${file} --backend reference
                      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
      if(NOT rc STREQUAL "0" OR NOT out MATCHES "\nverdict: pass\n")
        message(FATAL_ERROR "${row}: ${file} fails on the reference (exit ${rc}):\n${out}\n${err}")
      endif()
      if(file STREQUAL reduced)
        math(EXPR reduced_replayed "${reduced_replayed} + 1")
      else()
        math(EXPR replayed "${replayed} + 1")
      endif()
    endforeach()
  endforeach()
  unset(ENV{VYRE_MUTANT})
  if(replayed EQUAL 0)
    message(FATAL_ERROR "${row}: no failing case with a repro: nothing was replayed")
  endif()
  message(STATUS "${row}: ${replayed} repro(s) and ${reduced_replayed} reduced repro(s) replay")
endforeach()
