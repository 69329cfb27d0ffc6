# `vyre-certify fuzz` end to end: bad usage (--jobs included) exits 2 before
# anything runs; a conforming backend (the reference) hunts for a few seconds
# and exits 0 having run programs, with one worker or two; a misbehaving
# plugin (every output byte plus one) exits 1 with findings whose reduced case
# replays as a failure on it and a pass on the reference, and with two
# workers lists each finding once, each folder whole; and a certification run at L5 on that plugin
# reports each failure with a reduced repro that replays the same way.
# CTest runs it as: cmake -DCLI=... -DPLUGIN=... -DOUT_DIR=... -P this.

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
foreach(bad 0 -1 abc 1x 65 99999999999)
  run_cli(2 out err fuzz --backend reference --jobs ${bad} --out ${OUT_DIR}/unused)
  expect_contains("${err}" "--jobs takes a whole number of workers from 1 to 64, not `${bad}`"
                  "--jobs ${bad}")
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

set(ENV{VYRE_TEST_PLUGIN_MODE} ok)
run_cli(1 out err fuzz --backend ${PLUGIN} --seconds 3 --out ${OUT_DIR}/plugin --quiet)
expect_contains("${out}" "FAIL ${OUT_DIR}/plugin/" "findings listed")
file(GLOB findings LIST_DIRECTORIES true ${OUT_DIR}/plugin/*)
list(LENGTH findings count)
if(count EQUAL 0)
  message(FATAL_ERROR "no finding folder in ${OUT_DIR}/plugin")
endif()
list(GET findings 0 finding)
foreach(name original.vyre reduced.vyre README.txt)
  if(NOT EXISTS ${finding}/${name})
    message(FATAL_ERROR "${finding}/${name} was not written")
  endif()
endforeach()
file(READ ${finding}/README.txt readme)
expect_contains("${readme}" "verdict: fail" "README's verdict")
expect_contains("${readme}" "vyre-certify run ${finding}/reduced.vyre" "README's replay")
# What the plugin gave (every byte one more), word for word, and the symptom kept.
expect_contains("${readme}" "observed, against expected" "README's observed words")
expect_match("${readme}" "\\[0\\]: expected 0x[0-9A-F]+, observed 0x[0-9A-F]+" "README's word 0")
expect_contains("${readme}" "reduced keeping: fail: buffer" "README's kept symptom")
run_cli(1 out err run ${finding}/reduced.vyre --backend ${PLUGIN})
run_cli(0 out err run ${finding}/reduced.vyre)
run_cli(1 out err run ${finding}/original.vyre --backend ${PLUGIN})

# Two workers, each with the plugin in a child process of its own: the
# findings are listed and each folder is written whole, once.
run_cli(1 out err fuzz --backend ${PLUGIN} --seconds 3 --jobs 2 --out ${OUT_DIR}/plugin2 --quiet)
expect_contains("${out}" "), 2 workers\n" "--jobs 2 on the plugin")
string(REGEX MATCHALL "FAIL ${OUT_DIR}/plugin2/[0-9a-f]+ " listed "${out}")
list(LENGTH listed listed_count)
list(REMOVE_DUPLICATES listed)
list(LENGTH listed distinct_count)
if(listed_count EQUAL 0 OR NOT listed_count EQUAL distinct_count)
  message(FATAL_ERROR "--jobs 2 listed ${listed_count} findings, ${distinct_count} distinct:\n${out}")
endif()
file(GLOB findings2 LIST_DIRECTORIES true ${OUT_DIR}/plugin2/*)
list(LENGTH findings2 folder_count)
if(NOT folder_count EQUAL distinct_count)
  message(FATAL_ERROR "--jobs 2 wrote ${folder_count} folders for ${distinct_count} findings")
endif()
foreach(dir IN LISTS findings2)
  foreach(name original.vyre reduced.vyre README.txt)
    if(NOT EXISTS ${dir}/${name})
      message(FATAL_ERROR "${dir}/${name} was not written")
    endif()
  endforeach()
endforeach()

# The certification run reduces L5 failures too: report.json names both
# repros, and the reduced one replays as a failure on the plugin.
set(l5_out ${OUT_DIR}/certify_l5)
run_cli(1 out err --backend ${PLUGIN} --level L5 --filter L5/random/000000 --runs 2
        --out ${l5_out} --quiet)
read_reports(${l5_out} json)
string(JSON status GET "${json}" cases 0 status)
string(JSON repro GET "${json}" cases 0 failure repro)
string(JSON reduced GET "${json}" cases 0 failure reduced_repro)
expect_equal("${status}" "fail" "L5/random/000000 on the plugin")
run_cli(1 out err run ${l5_out}/${repro} --backend ${PLUGIN})
run_cli(1 out err run ${l5_out}/${reduced} --backend ${PLUGIN})
run_cli(0 out err run ${l5_out}/${reduced})
file(READ ${l5_out}/report.md md)
# (report.md escapes the file name's underscores.)
expect_contains("${md}" "- reduced: vyre-certify run repro/" "report.md's reduced replay")
expect_contains("${md}" "- reduced keeping: fail: buffer" "report.md's kept symptom")
string(JSON kept GET "${json}" cases 0 failure reduced_symptom)
expect_match("${kept}" "^fail: buffers? `" "report.json's kept symptom")
expect_contains("${md}" "## Random programs (L5)" "report.md's coverage table")
run_cli(1 out err verify ${l5_out}/report.json)
expect_contains("${out}" "not a certificate of L5: a run filtered by" "verify the one-case L5 run")
