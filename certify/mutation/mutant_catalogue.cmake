# Included by the mutation scripts: the mutant catalogue, read from the
# binary itself (`VYRE_MUTANT=list`, one table: backends/mutants/mutants.def).
#   read_mutant_catalogue(CLI BACKEND) sets `catalogue` (the names, in table
#   order, of the mutants BACKEND carries: those of the shared lowering,
#   `lowering`, and its own) and `family_<NAME>` for each; an empty catalogue
#   or a failing binary is a fatal error, so no script tests nothing.
function(read_mutant_catalogue cli backend)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env VYRE_MUTANT=list ${cli}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE listing ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR listing STREQUAL "")
    message(FATAL_ERROR "VYRE_MUTANT=list ${cli} failed (${rc}): ${err}")
  endif()
  string(REPLACE "\n" ";" rows "${listing}")
  set(names "")
  foreach(row IN LISTS rows)
    # Two ifs: within one, CMAKE_MATCH_3 would still be the previous row's.
    if(row MATCHES "^([A-Za-z0-9]+)\t([a-z0-9]+)\t[a-z]+\t([a-z]+)\t")
      if(CMAKE_MATCH_3 STREQUAL "lowering" OR CMAKE_MATCH_3 STREQUAL backend)
        list(APPEND names ${CMAKE_MATCH_1})
        set(family_${CMAKE_MATCH_1} ${CMAKE_MATCH_2} PARENT_SCOPE)
      endif()
    endif()
  endforeach()
  if(names STREQUAL "")
    message(FATAL_ERROR "the mutant catalogue lists no mutant of `${backend}`: nothing would be tested")
  endif()
  set(catalogue ${names} PARENT_SCOPE)
endfunction()
