# `vyre-certify run --rules R --graph G` end to end: a passing run against the
# graph file's expect and against the CPU twin, an expect mismatch (exit 1),
# malformed rules and a malformed graph (exit 2, file:line:col and the key),
# and bad usage (exit 2).
# cmake -DCLI=... -DEXAMPLES=archetypes/dataflow/examples -DDATA=testdata/run_dataflow -P ...
include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

set(rules ${EXAMPLES}/taint_rules.toml)
run_cli(0 out err run --rules ${rules} --graph ${EXAMPLES}/web_handler_graph.toml)
expect_contains("${out}" "source 1 -> sink 9, depth 3 (source_idx 0)" "pass")
expect_contains("${out}" "expectation: PASS (findings match the graph file's expect)" "pass")

run_cli(0 out err run --rules ${rules} --graph ${DATA}/no_expect_graph.toml --backend reference)
expect_contains("${out}" "expectation: PASS (findings match the engine's CPU twin)" "twin")

run_cli(1 out err run --rules ${rules} --graph ${DATA}/expect_mismatch_graph.toml)
expect_contains("${out}" "expectation: FAIL" "mismatch")
expect_contains("${out}" "source 0 -> sink 2, depth 2" "mismatch")

run_cli(2 out err run --rules ${DATA}/malformed_rules.toml --graph ${EXAMPLES}/web_handler_graph.toml)
expect_contains("${err}" "malformed_rules.toml:5:7: kinds.dst must be an integer" "bad rules")

run_cli(2 out err run --rules ${rules} --graph ${DATA}/malformed_graph.toml)
expect_contains("${err}" "malformed_graph.toml:3:7: 'edges[1][1]' names node 7" "bad graph")

run_cli(2 out err run --rules ${rules})
expect_contains("${err}" "--rules and --graph are both needed" "usage")
