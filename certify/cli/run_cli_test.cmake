# The `run` command end to end on the case files in testdata/run: exit codes,
# the printed words, the diff of a failed expectation, violations and
# out-of-bounds counts (expected text written by hand from the files).
# CTest runs it as: cmake -DCLI=... -DDATA=... -P this.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)
set(CLI_WORKING_DIRECTORY ${DATA})

run_cli(0 out err run pass.vyre)
expect_contains("${out}${err}" "[   0] 0x00000002 0x00000003 0x00000004 0x00000000 0x00000008 0x00000009" "pass")
expect_contains("${out}${err}" "expectation: PASS" "pass")

run_cli(1 out err run fail.vyre)
expect_contains("${out}${err}" "out[1]: expected 0x00000004, observed 0x00000003" "fail")
expect_contains("${out}${err}" "out[3]: expected 0x00000006, observed 0x00000005" "fail")

run_cli(0 out err run reference.vyre --schedule reversed)
expect_contains("${out}${err}" "[   0] 0x00000000 0x00010001" "expect reference")
expect_contains("${out}${err}" "schedule reversed" "expect reference")

run_cli(1 out err run race.vyre --schedule random:42)
expect_contains("${out}${err}" "data race on `out`[0]" "race")

run_cli(0 out err run oob.vyre)
expect_contains("${out}${err}" "out-of-bounds accesses: 0 loads, 1 stores, 0 atomics" "oob")
run_cli(1 out err run oob.vyre --strict-oob)
expect_contains("${out}${err}" "out-of-bounds write of `out`[2]" "strict oob")

run_cli(1 out err run invalid.vyre)
expect_contains("${out}${err}" "V004" "invalid program")

run_cli(2 out err run unparsable.vyre)
expect_contains("${out}${err}" "unparsable.vyre:1:60:" "unparsable")
run_cli(2 out err run missing_file.vyre)
run_cli(2 out err run pass.vyre --schedule sideways)
# A seed past 2^64-1 was clamped to it, running a schedule nobody asked for.
run_cli(2 out err run pass.vyre --schedule random:18446744073709551616)
expect_contains("${err}" "unknown schedule `random:18446744073709551616`" "seed past 2^64")
run_cli(0 out err run pass.vyre --schedule random:18446744073709551615)
run_cli(2 out err run pass.vyre --backend nonesuch)
run_cli(2 out err run)
# The usage lists every built-in backend of the registry, not vulkan alone.
run_cli(0 out err run --help)
expect_contains("${out}" "another built-in backend (vulkan, opencl, cuda)" "run --help")

# Outputs that depend on the order of atomics: flagged on the reference, and
# on another backend the reference's verdict on the case is shown.
run_cli(1 out err run schedule_dependent.vyre)
expect_contains("${out}${err}" "schedule dependence: the outputs depend on the schedule" "schedule")
expect_contains("${out}${err}" "differ between the canonical and the reversed schedule" "schedule")
run_cli(1 out err run schedule_dependent.vyre --schedule reversed)
expect_contains("${out}${err}" "differ between the reversed and the canonical (workgroups together) schedule" "schedule")
# Two invocations of one workgroup lose an update only in lockstep: the solo
# probe runs them one after the other (reports/driver-bugs/UNTRIAGED.md).
run_cli(1 out err run lost_update_in_workgroup.vyre)
expect_contains("${out}${err}" "differ between the canonical and the canonical (invocations out of step) schedule (c[0] 0x00000001 vs 0x00000002)" "lost update")
run_cli(0 out err run atomic_total_after_barrier.vyre --schedule random:7)
expect_contains("${out}${err}" "violations: none" "order-free atomics")
expect_contains("${out}${err}" "expectation: PASS" "order-free atomics")
