# vyre_add_certify_shards(): a certification split into shards that CTest
# runs as separate tests, one GPU each, then merges.
#
#   vyre_add_certify_shards(NAME nightly CLI $<TARGET_FILE:vyre-certify>
#     SHARDS 4 OUT ${CMAKE_BINARY_DIR}/nightly [TAKES_DEVICE] [TIMEOUT 3600]
#     ARGS --backend vulkan --level L4 --runs 20)
#
# adds tests NAME_shard_1 .. NAME_shard_N (`CLI ARGS --shard I/N --out
# OUT/shard-I`), each with RESOURCE_GROUPS "gpus:1", so that
# `ctest --resource-spec-file examples/ci/ctest-resources.json -j N` runs
# them at once on different GPUs (TAKES_DEVICE passes the GPU CTest gave the
# test as --device; without a resource spec, or without TAKES_DEVICE, the
# backend picks its device). NAME_merge (`CLI merge --out OUT OUT/shard-*`)
# needs them all (a fixture) and gives the verdict. A shard test passes
# when its shard wrote a report, certified or not: the merged verdict is the
# gate's, and a failing fixture would keep the merge from running.
set(VYRE_CERTIFY_SHARD_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/certify_shard_test.cmake)

function(vyre_add_certify_shards)
  cmake_parse_arguments(ARG "TAKES_DEVICE" "NAME;CLI;SHARDS;OUT;TIMEOUT" "ARGS;LABELS" ${ARGN})
  foreach(required NAME CLI SHARDS OUT ARGS)
    if(NOT ARG_${required})
      message(FATAL_ERROR "vyre_add_certify_shards: ${required} is required")
    endif()
  endforeach()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 600)
  endif()
  set(takes_device OFF)
  if(ARG_TAKES_DEVICE)
    set(takes_device ON)
  endif()
  set(shard_dirs "")
  foreach(i RANGE 1 ${ARG_SHARDS})
    set(test ${ARG_NAME}_shard_${i})
    add_test(NAME ${test}
      COMMAND ${CMAKE_COMMAND} -DCLI=${ARG_CLI} -DSHARD=${i}/${ARG_SHARDS}
              -DOUT=${ARG_OUT}/shard-${i} -DTAKES_DEVICE=${takes_device} "-DARGS=${ARG_ARGS}"
              -P ${VYRE_CERTIFY_SHARD_SCRIPT})
    set_tests_properties(${test} PROPERTIES RESOURCE_GROUPS "gpus:1" FIXTURES_SETUP
                         ${ARG_NAME}_shards TIMEOUT ${ARG_TIMEOUT} LABELS "${ARG_LABELS}")
    list(APPEND shard_dirs ${ARG_OUT}/shard-${i})
  endforeach()
  add_test(NAME ${ARG_NAME}_merge COMMAND ${ARG_CLI} merge --out ${ARG_OUT} ${shard_dirs})
  set_tests_properties(${ARG_NAME}_merge PROPERTIES FIXTURES_REQUIRED ${ARG_NAME}_shards
                       TIMEOUT 120 LABELS "${ARG_LABELS}")
endfunction()
