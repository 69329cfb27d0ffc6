# `--device LIST` end to end on lavapipe: two shards on the one device, each a
# child process, merged into one report that verifies and holds every case
# of the selection once, with the exit status the merged verdict's.
# NEEDS `--shard` and `merge` (branch gate-report): until those are merged
# this test fails at the first shard child ("unknown option `--shard`").
# CTest runs it as: cmake -DCLI=... -DOUT_DIR=... -P this.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

file(REMOVE_RECURSE ${OUT_DIR})
set(filter "L1/spec/binop/*")
run_cli(0 out err --backend vulkan --device 0,0 --level L1 --runs 2 --filter ${filter}
        --seed 5 --out ${OUT_DIR})
expect_contains("${err}" "shard 1/2: " "the first child's command line")
expect_contains("${err}" "--shard 2/2 --out ${OUT_DIR}/shard-2" "the second child's command line")
foreach(i 1 2)
  read_reports(${OUT_DIR}/shard-${i} shard_json)
endforeach()
read_reports(${OUT_DIR} json)
string(JSON cases LENGTH "${json}" cases)
expect_equal("${cases}" "18" "merged cases of ${filter}")
string(JSON seed GET "${json}" seed)
expect_equal("${seed}" "5" "merged seed")
run_cli(1 out err verify ${OUT_DIR}/report.json)
expect_contains("${out}" "not a certificate of L1: a run filtered by" "verify the merged shards")
