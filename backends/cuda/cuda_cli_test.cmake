# The CLI's cuda paths that need no device: `lower --backend cuda` writes the
# CUDA C kernel; without NVIDIA's driver, `vyre-certify --backend cuda`,
# `fuzz` and `run` exit 2 and say that libcuda.so.1 could not be loaded
# (where the driver is present, the tests of label cuda cover the device); a
# bad --device is refused the same way as any unusable backend, and cuda
# takes --device.
# CTest runs it as: cmake -DCLI=... -DRUN_DATA=... -DEXAMPLES=... -DOUT_DIR=... -P this.

include(${CMAKE_CURRENT_LIST_DIR}/../../certify/cli/cli_test_helpers.cmake)

file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})

# Whether the dynamic loader can find libcuda.so.1 on this machine.
execute_process(COMMAND ldconfig -p OUTPUT_VARIABLE libraries RESULT_VARIABLE ldconfig_rc)
string(FIND "${libraries}" "libcuda.so.1 " at)
set(driver_present OFF)
if(ldconfig_rc EQUAL 0 AND NOT at EQUAL -1)
  set(driver_present ON)
endif()

run_cli(0 source err lower ${EXAMPLES}/workgroup_sum.vyre --backend cuda --emit cuda-c)
expect_contains("${source}" "extern \"C\" __global__ void __launch_bounds__(64) vyre_main(" "kernel")
expect_contains("${source}" "__shared__ unsigned int w0[64];" "shared memory")
expect_contains("${source}" "__syncthreads();" "barrier")
run_cli(0 default_form err lower ${EXAMPLES}/workgroup_sum.vyre --backend cuda)
expect_equal("${default_form}" "${source}" "cuda-c is --backend cuda's default form")
run_cli(2 out err lower ${EXAMPLES}/workgroup_sum.vyre --backend cuda --emit opencl-c)
expect_contains("${err}" "--backend cuda emits only cuda-c" "OpenCL C for cuda")
run_cli(2 out err lower ${EXAMPLES}/workgroup_sum.vyre --emit cuda-c)
expect_contains("${err}" "--emit cuda-c needs --backend cuda" "cuda-c for vulkan")

set(no_driver "no CUDA driver (libcuda.so.1 could not be loaded: ")
if(NOT driver_present)
  run_cli(2 out err --backend cuda --level L1 --out ${OUT_DIR}/reports)
  expect_contains("${err}" "vyre-certify: backend `cuda` is not usable: " "certify")
  expect_contains("${err}" "${no_driver}" "certify without a driver")
  run_cli(2 out err fuzz --backend cuda --seconds 1 --out ${OUT_DIR}/fuzz)
  expect_contains("${err}" "backend `cuda` is not usable: ${no_driver}" "fuzz without a driver")
  run_cli(2 out err run ${RUN_DATA}/pass.vyre --backend cuda)
  expect_contains("${err}" "backend `cuda` is not usable: ${no_driver}" "run without a driver")
  # --device is the cuda backend's to judge: accepted by the CLI, then unusable.
  run_cli(2 out err --backend cuda --device 1 --level L1 --out ${OUT_DIR}/reports)
  expect_contains("${err}" "${no_driver}" "--device without a driver")
endif()
if(EXISTS ${OUT_DIR}/reports/report.json)
  message(FATAL_ERROR "an unusable backend wrote a report: ${OUT_DIR}/reports/report.json")
endif()
