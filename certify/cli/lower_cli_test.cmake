# The `lower` command end to end: every spec/examples program lowers to a
# SPIR-V module (magic number first), its disassembly and SPIRV-Cross GLSL;
# invalid, unparsable and unreadable input and bad usage get their exit codes.
# CTest runs it as: cmake -DCLI=... -DDATA=... -DEXAMPLES=... -DOUT_DIR=... -P this.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

file(MAKE_DIRECTORY ${OUT_DIR})
file(GLOB examples ${EXAMPLES}/*.vyre)
list(LENGTH examples count)
if(count EQUAL 0)
  message(FATAL_ERROR "no example programs in ${EXAMPLES}")
endif()
foreach(example IN LISTS examples)
  get_filename_component(name ${example} NAME_WE)
  set(spv ${OUT_DIR}/${name}.spv)
  file(REMOVE ${spv})
  run_cli(0 out err lower ${example} --backend vulkan -o ${spv})
  file(SIZE ${spv} size)
  math(EXPR rest "${size} % 4")
  if(size LESS 20 OR NOT rest EQUAL 0)
    message(FATAL_ERROR "${spv}: ${size} bytes is not a SPIR-V module")
  endif()
  # The SPIR-V magic number 0x07230203, little-endian.
  file(READ ${spv} magic LIMIT 4 HEX)
  expect_match("${magic}" "^03022307$" "magic number of ${name}.spv")
  run_cli(0 asm err lower ${example} --emit spirv-asm)
  expect_match("${asm}" "OpEntryPoint GLCompute %main \"main\"" "disassembly of ${name}")
  run_cli(0 glsl err lower --emit glsl ${example})
  expect_match("${glsl}" "^#version 450\n.*layout\\(local_size_x = [0-9]+" "GLSL of ${name}")
endforeach()

# An invalid program: exit 1 with the validator's diagnostics.
run_cli(1 out err lower ${DATA}/validate/invalid.vyre)
expect_match("${err}" "invalid\\.vyre:7:3: V005: vyre IR validation: " "invalid program")
# Unparsable or unreadable input, bad usage: exit 2.
run_cli(2 out err lower ${DATA}/validate/unparsable.vyre)
expect_match("${err}" "unparsable\\.vyre:[0-9]+:[0-9]+: error: " "unparsable program")
run_cli(2 out err lower ${OUT_DIR}/no-such-file.vyre)
expect_match("${err}" "cannot open the file" "missing file")
list(GET examples 0 example)
run_cli(2 out err lower ${example} --backend reference)
expect_match("${err}" "backend `reference` has no lowering" "reference backend")
run_cli(2 out err lower ${example} --emit hlsl)
expect_match("${err}" "unknown --emit `hlsl`" "unknown output form")
run_cli(2 out err lower)
expect_match("${err}" "no FILE given" "no file")
run_cli(2 out err lower ${example} -o ${OUT_DIR}/no-such-dir/out.spv)
expect_match("${err}" "cannot write the output" "unwritable output")
