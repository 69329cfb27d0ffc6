# `vyre-certify verify` end to end: the committed samples verify; a forged
# report with a correct digest, a file with a repeated key and a file that is
# not JSON do not.
# CTest runs it as: cmake -DCLI=... -DSAMPLES=reports/samples -DOUT_DIR=... -P this.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})

file(GLOB samples ${SAMPLES}/*/report.json)
list(LENGTH samples sample_count)
if(sample_count EQUAL 0)
  message(FATAL_ERROR "no report.json under ${SAMPLES}")
endif()
foreach(sample ${samples})
  run_cli(0 out err verify ${sample})
  expect_contains("${out}" "verified (sha256 " "verify ${sample}")
endforeach()

# Hand-made, sealed with the right digest (sha256 of the canonical text,
# computed here by CMake, not by vyre-certify).
set(body [[{"backend":"vulkan","cases":[],"certified":true,"levels":[],"schema_version":1}]])
string(SHA256 digest "${body}")
string(REPLACE "}" "" head "${body}")
file(WRITE ${OUT_DIR}/forged.json "${head},\"certificate\":{\"algorithm\":\"sha256\",\"canonicalization\":\"json: sorted keys, no whitespace, UTF-8\",\"digest\":\"${digest}\"}}")
run_cli(1 out err verify ${OUT_DIR}/forged.json)
expect_contains("${out}" "NOT VERIFIED: /spec_snapshot: missing" "verify a forged report")

file(WRITE ${OUT_DIR}/repeated.json [[{"certified": false, "certified": true}]])
run_cli(1 out err verify ${OUT_DIR}/repeated.json)
expect_contains("${out}" "NOT VERIFIED: the key `certified` appears twice" "verify a repeated key")

file(WRITE ${OUT_DIR}/broken.json [[{"certified": ]])
run_cli(2 out err verify ${OUT_DIR}/broken.json)
expect_contains("${err}" "not valid JSON" "verify a file that is not JSON")
