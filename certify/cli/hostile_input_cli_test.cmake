# Hostile inputs end to end (the audit of issue #24): each must end in a clear
# error and exit 2, never a crash, a hang or a run that goes on regardless.
# CTest runs it as: cmake -DCLI=vyre-certify
#   -DSEEDED_PLUGIN=libvyre_example_plugin_seeded.so -DOUT_DIR=dir -P this.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})
set(small --backend reference --level L1 --filter "L1/spec/binop/*" --runs 1 --quiet)

# A report.json with one member nested 100,000 arrays deep (schema 1, with a
# certificate, so that it gets past the first checks): every command that
# reads a report names the file and refuses it, instead of overflowing the stack.
string(REPEAT "[" 100000 open)
string(REPEAT "]" 100000 close)
set(cert [[{"algorithm":"sha256","canonicalization":"json: sorted keys, no whitespace, UTF-8","digest":"00"}]])
file(MAKE_DIRECTORY ${OUT_DIR}/deep)
set(deep ${OUT_DIR}/deep/report.json)
file(WRITE ${deep} "{\"schema_version\":1,\"certificate\":${cert},\"a\":${open}${close}}")
set(too_deep "nested more than 64 levels deep")
run_cli(2 out err verify ${deep})
expect_contains("${err}" "${deep}: arrays and objects ${too_deep}" "verify a deep report")
run_cli(2 out err diff ${deep} ${deep})
expect_contains("${err}" "${deep}: arrays and objects ${too_deep}" "diff a deep report")
run_cli(2 out err ${small} --baseline ${deep} --out ${OUT_DIR}/bad)
expect_contains("${err}" "${deep}: arrays and objects ${too_deep}" "--baseline a deep report")
run_cli(2 out err ${small} --shard 1/2 --shard-times ${deep} --out ${OUT_DIR}/bad)
expect_contains("${err}" "${deep}: arrays and objects ${too_deep}" "--shard-times a deep report")
run_cli(2 out err merge --out ${OUT_DIR}/bad ${OUT_DIR}/deep)
expect_contains("${err}" "${deep}: arrays and objects ${too_deep}" "merge a deep report")

# A real report of the small selection, for the checks below.
run_cli(0 out err ${small} --out ${OUT_DIR}/whole)

# --dry-run checks the shard and the baseline as the real run does: each of
# these exited 0 dry and 2 for real.
set(one --backend reference --level L1 --runs 1 --quiet --filter L1/spec/binop/add)
foreach(bad "--shard|2/2|gets no case"
            "--baseline|${OUT_DIR}/missing.json|--baseline ${OUT_DIR}/missing.json: not a readable file"
            "--shard-times|${OUT_DIR}/whole/report.json|give it with --shard I/N")
  string(REPLACE "|" ";" words "${bad}")
  list(POP_BACK words why)
  run_cli(2 out err ${one} ${words} --out ${OUT_DIR}/bad)
  expect_contains("${err}" "${why}" "real run with ${words}")
  run_cli(2 out err ${one} ${words} --out ${OUT_DIR}/bad --dry-run)
  expect_contains("${err}" "${why}" "dry run with ${words}")
endforeach()
run_cli(2 out err --backend vulkan --level L1 --filter "L1/spec/binop/*" --dry-run
        --baseline ${OUT_DIR}/whole/report.json --out ${OUT_DIR}/bad)
expect_contains("${err}" "the baseline is a report of backend `reference`" "dry run, other backend")
# A dry run shows the shard and the baseline it would use.
run_cli(0 out err ${small} --shard 1/3 --baseline ${OUT_DIR}/whole/report.json --dry-run
        --out ${OUT_DIR}/bad)
expect_match("${out}" "dry run: [0-9]+ cases \\(shard 1/3 of [0-9]+ selected, balanced by [^)]*whole/report.json\\)"
             "dry run's shard")
expect_contains("${out}" "baseline ${OUT_DIR}/whole/report.json" "dry run's baseline")

# merge: two shards of the seeded plugin's run, one of which fails a case and
# holds its repro file.
set(seeded --backend ${SEEDED_PLUGIN} --level L2 --filter "L[12]/*" --runs 1 --quiet)
set(repros "")
foreach(i 1 2)
  execute_process(COMMAND ${CLI} ${seeded} --shard ${i}/2 --out ${OUT_DIR}/shard${i}
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  file(GLOB found ${OUT_DIR}/shard${i}/repro/*.vyre)
  list(APPEND repros ${found})
endforeach()
list(LENGTH repros repro_count)
if(repro_count EQUAL 0)
  message(FATAL_ERROR "neither shard of the seeded plugin wrote a repro file")
endif()
list(GET repros 0 repro)
# --out a shard folder (or inside one) deleted that shard's repro files.
foreach(out ${OUT_DIR}/shard1 ${OUT_DIR}/shard2 ${OUT_DIR}/shard1/merged ${OUT_DIR}/shard2/./)
  run_cli(2 out err merge --out ${out} ${OUT_DIR}/shard1 ${OUT_DIR}/shard2)
  expect_contains("${err}" "or inside it; give a folder of its own" "merge --out ${out}")
  if(NOT EXISTS ${repro})
    message(FATAL_ERROR "merge --out ${out} deleted the shard's ${repro}")
  endif()
endforeach()
# A folder whose name starts like a shard's is not inside it.
run_cli(1 out err merge --out ${OUT_DIR}/shard1x ${OUT_DIR}/shard1 ${OUT_DIR}/shard2)
# A repro that is a symbolic link: merge copied what it pointed at.
file(WRITE ${OUT_DIR}/secret.txt "not a repro\n")
file(REMOVE ${repro})
file(CREATE_LINK ${OUT_DIR}/secret.txt ${repro} SYMBOLIC)
run_cli(2 out err merge --out ${OUT_DIR}/linked ${OUT_DIR}/shard1 ${OUT_DIR}/shard2)
expect_contains("${err}" "${repro} is a symbolic link; merge copies only regular repro files"
                "merge a linked repro")
file(GLOB copied ${OUT_DIR}/linked/repro/*)
foreach(f ${copied})
  file(READ ${f} text)
  if(text STREQUAL "not a repro\n")
    message(FATAL_ERROR "merge copied the link's target into ${f}")
  endif()
endforeach()
