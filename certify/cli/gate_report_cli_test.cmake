# The gate's report commands end to end: `--shard I/N` runs merged by `merge`
# into the unsharded run's report (which `verify` accepts), bad shard specs,
# `--baseline` (known failures pass the gate, another backend exits 2) and
# `diff` (exit 1 on a newly failing case).
# CTest runs it as: cmake -DCLI=vyre-certify -DSEEDED_PLUGIN=libvyre_example_plugin_seeded.so
#   -DOUT_DIR=dir -P this.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})
set(small --backend reference --level L1 --filter "L1/spec/binop/*" --runs 2 --quiet)

# Stores the case ids of the report.json in `dir`, in report order, in `ids_var`.
function(case_ids dir ids_var)
  read_reports(${dir} json)
  report_case_count("${json}" count)
  math(EXPR last "${count} - 1")
  set(ids "")
  foreach(i RANGE ${last})
    string(JSON id GET "${json}" cases ${i} id)
    list(APPEND ids ${id})
  endforeach()
  set(${ids_var} "${ids}" PARENT_SCOPE)
endfunction()

# The unsharded run, then the same selection in 3 shards split by count.
run_cli(0 out err ${small} --out ${OUT_DIR}/whole)
case_ids(${OUT_DIR}/whole whole_ids)
list(LENGTH whole_ids whole_count)
if(whole_count LESS 3)
  message(FATAL_ERROR "the filter selects ${whole_count} cases; the test needs 3 or more")
endif()
set(shard_dirs "")
set(shard_ids "")
foreach(i 1 2 3)
  run_cli(0 out err ${small} --shard ${i}/3 --out ${OUT_DIR}/shard${i})
  read_reports(${OUT_DIR}/shard${i} json)
  string(JSON index GET "${json}" shard index)
  string(JSON selected GET "${json}" shard selected)
  expect_equal("${index}/${selected}" "${i}/${whole_count}" "shard ${i}'s shard member")
  case_ids(${OUT_DIR}/shard${i} ids)
  list(APPEND shard_ids ${ids})
  list(APPEND shard_dirs ${OUT_DIR}/shard${i})
endforeach()
list(LENGTH shard_ids shard_count)
expect_equal("${shard_count}" "${whole_count}" "cases of the 3 shards together")

run_cli(0 out err merge --out ${OUT_DIR}/merged ${shard_dirs})
expect_contains("${out}" "CERTIFIED at L1; ${whole_count} cases from 3 shards" "merge")
# A filtered selection, merged: every case of it, but no certificate of L1.
run_cli(1 out err verify ${OUT_DIR}/merged/report.json)
expect_contains("${out}" "not a certificate of L1: a run filtered by `L1/spec/binop/*`"
                "verify the merged report")
case_ids(${OUT_DIR}/merged merged_ids)
expect_equal("${merged_ids}" "${whole_ids}" "merged case ids against the unsharded run's")
read_reports(${OUT_DIR}/merged json)
string(JSON digests LENGTH "${json}" shards)
expect_equal("${digests}" "3" "the merged report's shard digests")

# Balanced by the unsharded run's case times: the same cases again.
foreach(i 1 2)
  run_cli(0 out err ${small} --shard ${i}/2 --shard-times ${OUT_DIR}/whole/report.json
          --out ${OUT_DIR}/timed${i})
endforeach()
run_cli(0 out err merge --out ${OUT_DIR}/timed_merged ${OUT_DIR}/timed1 ${OUT_DIR}/timed2)
case_ids(${OUT_DIR}/timed_merged timed_ids)
expect_equal("${timed_ids}" "${whole_ids}" "time-balanced shards merged")

# Merge refusals: a shard missing, a shard twice, a report that is no shard's.
run_cli(2 out err merge --out ${OUT_DIR}/bad ${OUT_DIR}/shard1 ${OUT_DIR}/shard2)
expect_contains("${err}" "shard 3 of 3 is missing" "merge without shard 3")
run_cli(2 out err merge --out ${OUT_DIR}/bad ${OUT_DIR}/shard1 ${OUT_DIR}/shard1 ${OUT_DIR}/shard2)
expect_contains("${err}" "shard 1 is given twice" "merge with shard 1 twice")
run_cli(2 out err merge --out ${OUT_DIR}/bad ${OUT_DIR}/whole)
expect_contains("${err}" "not a shard report" "merge an unsharded report")
run_cli(2 out err merge --out ${OUT_DIR}/bad ${OUT_DIR}/shard1 ${OUT_DIR}/timed2)
expect_contains("${err}" "the shards disagree on shard count N" "merge shards of two splits")

# Bad shard specs, and a shard that gets no case, exit 2 naming the problem.
foreach(spec_and_why "0/4|count from 1" "3/2|no shard 3 of 2" "0/0|count N must be from 1"
                     "x/4|takes I/N")
  string(REPLACE "|" ";" pair "${spec_and_why}")
  list(GET pair 0 spec)
  list(GET pair 1 why)
  run_cli(2 out err ${small} --shard ${spec} --out ${OUT_DIR}/bad)
  expect_contains("${err}" "${why}" "--shard ${spec}")
endforeach()
run_cli(2 out err --backend reference --level L1 --filter "L1/spec/binop/add" --shard 2/2
        --out ${OUT_DIR}/bad)
expect_contains("${err}" "gets no case" "a shard with no case")

# Baselines: the seeded plugin fails L2/exec/ids_on_three_axes; with its own
# report as baseline that failure is known, and the gate passes while the
# report stays NOT CERTIFIED.
set(seeded --backend ${SEEDED_PLUGIN} --level L2 --filter "L[12]/*" --runs 1 --quiet)
run_cli(1 out err ${seeded} --out ${OUT_DIR}/seeded)
case_ids(${OUT_DIR}/seeded seeded_ids)
list(FIND seeded_ids "L2/exec/ids_on_three_axes" seeded_failing_index)
if(seeded_failing_index EQUAL -1)
  message(FATAL_ERROR "the seeded plugin's run lacks L2/exec/ids_on_three_axes")
endif()
run_cli(0 out err ${seeded} --baseline ${OUT_DIR}/seeded/report.json --out ${OUT_DIR}/baselined)
expect_contains("${out}" "NOT CERTIFIED" "a baselined run's verdict")
expect_contains("${out}" "gate passes: 0 new failure(s), 0 fixed, 1 still failing" "the gate")
read_reports(${OUT_DIR}/baselined json)
string(JSON still GET "${json}" baseline still_failing 0)
expect_equal("${still}" "L2/exec/ids_on_three_axes" "the baseline member")
string(JSON certified GET "${json}" certified)
expect_equal("${certified}" "OFF" "report.json's verdict with a baseline")
run_cli(1 out err verify ${OUT_DIR}/baselined/report.json)
expect_contains("${out}" "not a certificate of L2: a run filtered by" "verify the baselined run")

# A baseline of another backend is refused, naming both.
run_cli(2 out err --backend reference --level L2 --filter "L[12]/*" --runs 1 --quiet
        --baseline ${OUT_DIR}/seeded/report.json --out ${OUT_DIR}/bad)
expect_contains("${err}" "the baseline is a report of backend `${SEEDED_PLUGIN}`" "another backend")

# diff: the reference passes what the seeded plugin fails.
run_cli(0 out err --backend reference --level L2 --filter "L[12]/*" --runs 1 --quiet
        --out ${OUT_DIR}/reference_exec)
run_cli(1 out err diff ${OUT_DIR}/reference_exec/report.json ${OUT_DIR}/seeded/report.json)
expect_contains("${out}" "L2/exec/ids_on_three_axes: pass -> fail" "diff: the status change")
expect_contains("${out}" "newly failing: 1" "diff: the regression")
run_cli(0 out err diff ${OUT_DIR}/seeded/report.json ${OUT_DIR}/reference_exec/report.json)
expect_contains("${out}" "newly failing: 0" "diff: fixed is no regression")
run_cli(2 out err diff ${OUT_DIR}/seeded/report.json ${OUT_DIR}/missing.json)

# A failing case's repro travels from its shard's folder into the merged one.
set(shard_exits "")
foreach(i 1 2)
  execute_process(COMMAND ${CLI} ${seeded} --shard ${i}/2 --out ${OUT_DIR}/seeded_shard${i}
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  list(APPEND shard_exits ${rc})
endforeach()
list(SORT shard_exits)
expect_equal("${shard_exits}" "0;1" "exit codes of the seeded plugin's 2 shards (one fails a case)")
run_cli(1 out err merge --out ${OUT_DIR}/seeded_merged ${OUT_DIR}/seeded_shard1
        ${OUT_DIR}/seeded_shard2)
read_reports(${OUT_DIR}/seeded_merged json)
string(JSON failing_repro GET "${json}" cases ${seeded_failing_index} failure repro)
if(NOT EXISTS ${OUT_DIR}/seeded_merged/${failing_repro})
  message(FATAL_ERROR "merge did not copy ${failing_repro} into the merged folder")
endif()
run_cli(1 out err verify ${OUT_DIR}/seeded_merged/report.json)
expect_contains("${out}" "not a certificate of L2: a run filtered by" "verify the seeded merge")

# Shards run with a baseline merge into a report whose gate decides merge's exit.
foreach(i 1 2)
  run_cli(0 out err ${seeded} --baseline ${OUT_DIR}/seeded/report.json --shard ${i}/2
          --out ${OUT_DIR}/baselined_shard${i})
endforeach()
run_cli(0 out err merge --out ${OUT_DIR}/baselined_merged ${OUT_DIR}/baselined_shard1
        ${OUT_DIR}/baselined_shard2)
expect_contains("${out}" "NOT CERTIFIED" "the merged baselined report's verdict")
expect_contains("${out}" "gate passes: 0 new failure(s), 0 fixed, 1 still failing" "merged gate")
run_cli(1 out err verify ${OUT_DIR}/baselined_merged/report.json)
expect_contains("${out}" "not a certificate of L2: a run filtered by" "verify the baselined merge")
