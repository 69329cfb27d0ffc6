# One shard of vyre_add_certify_shards (VyreCertifyShards.cmake): runs
# `CLI ARGS --shard SHARD --out OUT [--device GPU]`, where GPU is the one
# CTest allotted from its resource spec (CTEST_RESOURCE_GROUP_0_GPUS =
# "id:GPU,slots:1") when TAKES_DEVICE is on. Passes when the shard wrote its
# report (exit 0 or 1); the merge test gives the verdict.
# CTest runs it as: cmake -DCLI=... -DSHARD=I/N -DOUT=... -DTAKES_DEVICE=ON|OFF
#   "-DARGS=--backend;vulkan;..." -P this.

include(${CMAKE_CURRENT_LIST_DIR}/test_driver_cache.cmake)

set(device "")
if(TAKES_DEVICE AND DEFINED ENV{CTEST_RESOURCE_GROUP_COUNT})
  if(NOT "$ENV{CTEST_RESOURCE_GROUP_0_GPUS}" MATCHES "id:([^,;]+)")
    message(FATAL_ERROR "CTest gave no GPU: CTEST_RESOURCE_GROUP_0_GPUS is "
                        "`$ENV{CTEST_RESOURCE_GROUP_0_GPUS}`")
  endif()
  set(device --device ${CMAKE_MATCH_1})
endif()
file(REMOVE ${OUT}/report.json)
execute_process(COMMAND ${CLI} ${ARGS} --shard ${SHARD} --out ${OUT} ${device} --quiet
                RESULT_VARIABLE rc)
if(NOT rc MATCHES "^[01]$")
  list(JOIN ARGS " " shown)
  message(FATAL_ERROR "shard ${SHARD}: `${CLI} ${shown} --shard ${SHARD} --out ${OUT} ${device}` "
                      "exited ${rc} without a verdict")
endif()
if(NOT EXISTS ${OUT}/report.json)
  message(FATAL_ERROR "shard ${SHARD} exited ${rc} but wrote no ${OUT}/report.json")
endif()
message(STATUS "shard ${SHARD}: exit ${rc}, report in ${OUT}")
