# The `run` command end to end on the case files in testdata/run: exit codes,
# the printed words, the diff of a failed expectation, violations and
# out-of-bounds counts (expected text written by hand from the files).
# CTest runs it as: cmake -DCLI=... -DDATA=... -P this.

# Runs the CLI in DATA with the remaining arguments; fails unless it exits
# `expected_rc`; stores stdout and stderr together in `out_var`.
function(run_cli expected_rc out_var)
  execute_process(COMMAND ${CLI} ${ARGN} WORKING_DIRECTORY ${DATA}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL expected_rc)
    list(JOIN ARGN " " command)
    message(FATAL_ERROR "`vyre-certify ${command}` exited ${rc}, expected ${expected_rc}\n"
                        "stdout:\n${out}\nstderr:\n${err}")
  endif()
  set(${out_var} "${out}${err}" PARENT_SCOPE)
endfunction()

function(expect_contains actual needle what)
  string(FIND "${actual}" "${needle}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${what}: output lacks `${needle}`:\n${actual}")
  endif()
endfunction()

run_cli(0 out run pass.vyre)
expect_contains("${out}" "[   0] 0x00000002 0x00000003 0x00000004 0x00000000 0x00000008 0x00000009" "pass")
expect_contains("${out}" "expectation: PASS" "pass")

run_cli(1 out run fail.vyre)
expect_contains("${out}" "out[1]: expected 0x00000004, observed 0x00000003" "fail")
expect_contains("${out}" "out[3]: expected 0x00000006, observed 0x00000005" "fail")

run_cli(0 out run reference.vyre --schedule reversed)
expect_contains("${out}" "[   0] 0x00000000 0x00010001" "expect reference")
expect_contains("${out}" "schedule reversed" "expect reference")

run_cli(1 out run race.vyre --schedule random:42)
expect_contains("${out}" "data race on `out`[0]" "race")

run_cli(0 out run oob.vyre)
expect_contains("${out}" "out-of-bounds accesses: 0 loads, 1 stores, 0 atomics" "oob")
run_cli(1 out run oob.vyre --strict-oob)
expect_contains("${out}" "out-of-bounds write of `out`[2]" "strict oob")

run_cli(1 out run invalid.vyre)
expect_contains("${out}" "V004" "invalid program")

run_cli(2 out run unparsable.vyre)
expect_contains("${out}" "unparsable.vyre:1:60:" "unparsable")
run_cli(2 out run missing_file.vyre)
run_cli(2 out run pass.vyre --schedule sideways)
run_cli(2 out run pass.vyre --backend nonesuch)
run_cli(2 out run)
