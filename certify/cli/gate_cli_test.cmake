# `vyre-certify --gate FILE` end to end: bad gate files exit 2 naming
# FILE:LINE:COL (positions counted by hand in testdata/gate/), a gate that
# selects no case fails closed, the example nightly gate passes a dry check,
# command-line options override the file, and a small gate on the reference
# records its date seed and time budget in a report that verifies.
# CTest runs it as: cmake -DCLI=... -DDATA=.../testdata/gate
#   -DEXAMPLE=examples/ci/nightly-gate.toml -DOUT_DIR=... -P this.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})

function(expect_refused needle)
  run_cli(2 out err ${ARGN})
  expect_contains("${err}" "${needle}" "refusal of `${ARGN}`")
  if(EXISTS ${OUT_DIR}/refused/report.json)
    message(FATAL_ERROR "`vyre-certify ${ARGN}` exited 2 but wrote a report")
  endif()
endfunction()

set(refused --out ${OUT_DIR}/refused)
expect_refused("gate file ${DATA}/unknown_key.toml:3:1: unknown key 'colour'"
               --gate ${DATA}/unknown_key.toml ${refused})
expect_refused("gate file ${DATA}/wrong_type.toml:2:8: 'runs' must be an integer"
               --gate ${DATA}/wrong_type.toml ${refused})
expect_refused("gate file ${DATA}/bad_level.toml:3:9: unknown level \"L7\""
               --gate ${DATA}/bad_level.toml ${refused})
expect_refused("gate file ${DATA}/no_reason.toml:4:1: 'known_failure[0]' (L1/spec/binop/add) has no 'reason'"
               --gate ${DATA}/no_reason.toml ${refused})
expect_refused("gate file ${DATA}/malformed.toml:1:" --gate ${DATA}/malformed.toml ${refused})
expect_refused("cannot open the file" --gate ${DATA}/no-such-gate.toml ${refused})
# A misspelled or stale known failure was accepted and never judged.
expect_refused("known failure `L1/spec/binop/divv` (from ${DATA}/misspelled_case.toml) names no case of the suite at L1; did you mean `L1/spec/binop/div`?"
               --gate ${DATA}/misspelled_case.toml ${refused})
expect_refused("did you mean `L1/spec/binop/div`?" --gate ${DATA}/misspelled_case.toml --dry-run
               ${refused})
# An id of a level above the run's is no stale id.
run_cli(0 out err --gate ${DATA}/higher_level_case.toml --dry-run ${refused})
# A folder read as an empty gate file, and the run went on without it.
expect_refused("gate file ${DATA}: is a folder, not a gate file" --gate ${DATA} ${refused})
expect_refused("gate file /dev/null: is not a regular file" --gate /dev/null ${refused})
expect_refused("--gate given twice" --gate ${DATA}/small.toml --gate ${DATA}/small.toml ${refused})
# Fail closed: no case selected, by the file or by the command line over it.
expect_refused("matches no case" --gate ${DATA}/selects_nothing.toml ${refused})
expect_refused("matches no case" --gate ${DATA}/small.toml --filter "nothing*" ${refused})
expect_refused("matches no case" --gate ${DATA}/selects_nothing.toml --dry-run ${refused})
# The options the gate adds, on the command line.
expect_refused("--time-budget-s takes a number of seconds from 1 to 604800"
               --backend reference --time-budget-s 0 ${refused})
expect_refused("--seed-policy takes `fixed` or `date`"
               --backend reference --seed-policy weekly ${refused})
expect_refused("backend `reference` has one device"
               --backend reference --device 0,1 --level L1 ${refused})
expect_refused("empty item" --backend vulkan --device 0,,1 --level L1 ${refused})

# The example nightly gate parses and selects cases.
run_cli(0 out err --gate ${EXAMPLE} --dry-run)
expect_contains("${out}" "dry run: " "nightly-gate dry run")
expect_contains("${out}" "on `vulkan`, level L4, 20 runs each" "nightly-gate dry run")
expect_contains("${out}" "(policy date)" "nightly-gate dry run")
# The dry run lists each option (certify/gate/certify_option_table.h) with
# where its value came from.
expect_contains("${out}" "  --backend vulkan (gate file)\n" "nightly-gate dry run's options")
expect_contains("${out}" "  --runs 20 (gate file)\n" "nightly-gate dry run's options")
expect_contains("${out}" "  --seed-policy date (gate file)\n" "nightly-gate dry run's options")
expect_contains("${out}" "  --timeout-ms 10000 (gate file)\n" "nightly-gate dry run's options")
expect_contains("${out}" "  --gate ${EXAMPLE} (command line)\n" "nightly-gate dry run's options")
expect_contains("${out}" "  --dry-run (command line)\n" "nightly-gate dry run's options")
# The command line overrides the file, the seed with its policy.
run_cli(0 out err --gate ${EXAMPLE} --backend reference --level L2 --seed 9 --dry-run)
expect_contains("${out}" "on `reference`, level L2, 20 runs each, seed 9 (policy fixed)"
                "override")
expect_contains("${out}" "  --backend reference (command line)\n" "override's options")
expect_contains("${out}" "  --seed 9 (command line)\n" "override's options")
expect_contains("${out}" "  --seed-policy fixed (default)\n" "override's options")

# A small gate on the reference: `devices = "all"` is one ordinary run on a
# one-device backend; the seed is today's UTC date.
string(TIMESTAMP today "%Y%m%d" UTC)
set(small ${OUT_DIR}/small)
run_cli(0 out err --gate ${DATA}/small.toml --out ${small} --quiet)
read_reports(${small} json)
string(JSON policy GET "${json}" seed_policy)
expect_equal("${policy}" "date" "seed_policy")
string(JSON seed GET "${json}" seed)
string(TIMESTAMP after "%Y%m%d" UTC)  # a run across midnight may draw either day
if(NOT seed STREQUAL today AND NOT seed STREQUAL after)
  message(FATAL_ERROR "date seed ${seed}, expected ${today}")
endif()
string(JSON budget GET "${json}" time_budget_s)
expect_equal("${budget}" "600" "time_budget_s")
string(JSON cases LENGTH "${json}" cases)
expect_equal("${cases}" "18" "cases of L1/spec/binop/*")
run_cli(1 out err verify ${small}/report.json)
expect_contains("${out}" "not a certificate of L1: a run filtered by" "verify the small gate's run")
