# Hostile inputs end to end (the audit of issue #24): each must end in a clear
# error and exit 2, never a crash, a hang or a run that goes on regardless.
# CTest runs it as: cmake -DCLI=vyre-certify -DOUT_DIR=dir -P this.

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
