# The CLI's opencl paths that need no certification run: `lower --backend
# opencl` writes the kernel source (no device needed), and without a usable
# OpenCL device `vyre-certify --backend opencl` exits 2 with the reason: no
# platform (the ICD loader pointed at an empty vendor list), or a --device
# that matches none of the devices (the message lists them).
# CTest runs it as: cmake -DCLI=... -DEXAMPLES=... -DOUT_DIR=... -P this.

include(${CMAKE_CURRENT_LIST_DIR}/../../certify/cli/cli_test_helpers.cmake)

file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR}/no-vendors)

run_cli(0 source err lower ${EXAMPLES}/workgroup_sum.vyre --backend opencl --emit opencl-c)
expect_contains("${source}" "__kernel __attribute__((reqd_work_group_size(" "kernel")
expect_contains("${source}" "barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);" "barrier")
run_cli(0 default_form err lower ${EXAMPLES}/workgroup_sum.vyre --backend opencl)
expect_equal("${default_form}" "${source}" "opencl-c is --backend opencl's default form")
run_cli(2 out err lower ${EXAMPLES}/workgroup_sum.vyre --backend opencl --emit glsl)
expect_contains("${err}" "--backend opencl emits only opencl-c" "SPIR-V form for opencl")
run_cli(2 out err lower ${EXAMPLES}/workgroup_sum.vyre --emit opencl-c)
expect_contains("${err}" "--emit opencl-c needs --backend opencl" "opencl-c for vulkan")

set(ENV{OCL_ICD_VENDORS} ${OUT_DIR}/no-vendors)
run_cli(2 out err --backend opencl --level L1 --out ${OUT_DIR}/reports)
expect_contains("${err}" "backend `opencl` is not usable: no OpenCL platform" "no platform")
unset(ENV{OCL_ICD_VENDORS})

run_cli(2 out err --backend opencl --device "no such device" --level L1 --out ${OUT_DIR}/reports)
expect_contains("${err}" "no OpenCL device matches `no such device`; devices:" "bad --device")
