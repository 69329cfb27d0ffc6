# `vyre-certify fuzz` on a misbehaving plugin (every output byte plus one):
# it exits 1 with findings whose reduced case replays as a failure on the
# plugin and a pass on the reference; and a certification run at L5 on that
# plugin reports each failure with a reduced repro that replays the same way.
# CTest runs it as: cmake -DCLI=... -DPLUGIN=... -DOUT_DIR=... -P this.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})

set(ENV{VYRE_TEST_PLUGIN_MODE} ok)
# Two programs, not a time: each of the plugin's failures is reduced, which
# takes the time of a hundred runs or so.
run_cli(1 out err fuzz --backend ${PLUGIN} --programs 2 --out ${OUT_DIR}/plugin --quiet)
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
