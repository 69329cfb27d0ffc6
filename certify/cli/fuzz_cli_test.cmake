# `vyre-certify fuzz` end to end, on a conforming backend: bad usage (--jobs
# included) exits 2 before anything runs; the reference hunts for a few
# seconds and exits 0 having run programs, with one worker or two.
# (fuzz_findings_cli_test.cmake and fuzz_workers_cli_test.cmake hunt on a
# misbehaving plugin; three tests, so that CTest runs them side by side.)
# CTest runs it as: cmake -DCLI=... -DOUT_DIR=... -P this.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})

run_cli(2 out err fuzz --seconds 1)
expect_contains("${err}" "usage: vyre-certify fuzz" "no backend")
foreach(bad 0 -1 abc 1x)
  run_cli(2 out err fuzz --backend reference --seconds ${bad} --out ${OUT_DIR}/unused)
  expect_contains("${err}" "--seconds takes a positive number" "--seconds ${bad}")
endforeach()
run_cli(2 out err fuzz --backend no-such-backend --seconds 1 --out ${OUT_DIR}/unused)
expect_contains("${err}" "unknown backend" "an unknown backend")
file(WRITE ${OUT_DIR}/a-file "")
run_cli(2 out err fuzz --backend reference --seconds 1 --out ${OUT_DIR}/a-file/sub)
expect_contains("${err}" "cannot create output folder" "an unwritable --out")
run_cli(2 out err fuzz --backend reference --seconds 1 --seconds 2)
expect_contains("${err}" "given twice" "a repeated option")
# The driver cache's options, as a certification takes them.
run_cli(2 out err fuzz --backend reference --no-cache --cache-dir ${OUT_DIR}/c --out ${OUT_DIR}/unused)
expect_contains("${err}" "--cache-dir and --no-cache contradict each other" "fuzz's cache options")
run_cli(2 out err fuzz --backend reference --no-cache --no-cache --out ${OUT_DIR}/unused)
expect_contains("${err}" "--no-cache given twice" "a repeated --no-cache")
foreach(bad 0 -1 abc 1x 65 99999999999)
  run_cli(2 out err fuzz --backend reference --jobs ${bad} --out ${OUT_DIR}/unused)
  expect_contains("${err}" "--jobs takes a whole number of workers from 1 to 64, not `${bad}`"
                  "--jobs ${bad}")
endforeach()
foreach(bad 0 -1 abc 1x 99999999999999999999)
  run_cli(2 out err fuzz --backend reference --programs ${bad} --out ${OUT_DIR}/unused)
  expect_contains("${err}" "--programs takes a whole number of programs from 1 up, not `${bad}`"
                  "--programs ${bad}")
endforeach()
run_cli(2 out err fuzz --backend reference --jobs 2 --jobs 2 --out ${OUT_DIR}/unused)
expect_contains("${err}" "--jobs given twice" "a repeated --jobs")
run_cli(2 out err fuzz --backend reference --jobs)
expect_contains("${err}" "--jobs needs a value" "--jobs without a value")

run_cli(0 out err fuzz --backend reference --seconds 3 --out ${OUT_DIR}/reference --quiet)
expect_match("${out}" "reference: [1-9][0-9]* programs \\(0 discarded" "programs run")
expect_contains("${out}" "0 distinct" "no failure on the reference")
# The reference runs in this process: one worker unless --jobs says more.
expect_contains("${out}" "), 1 worker\n" "the reference's default workers")
run_cli(0 out err fuzz --backend reference --seconds 3 --jobs 2 --out ${OUT_DIR}/reference2)
expect_contains("${out}" "), 2 workers\n" "--jobs 2 on the reference")
expect_match("${out}" "reference: [1-9][0-9]* programs \\(0 discarded" "two workers' programs")
expect_contains("${err}" ", 2 workers" "the progress line of two workers")
# --programs stops the hunt at the seed's first N programs, however fast it
# runs, one worker or two.
foreach(jobs 1 2)
  run_cli(0 out err fuzz --backend reference --programs 13 --jobs ${jobs} --seconds 600
          --out ${OUT_DIR}/programs${jobs} --quiet)
  expect_contains("${out}" "reference: 13 programs (0 discarded" "--programs 13 --jobs ${jobs}")
endforeach()
