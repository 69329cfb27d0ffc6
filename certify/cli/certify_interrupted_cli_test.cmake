# A certification interrupted by SIGINT or SIGTERM still writes its reports:
# the cases running finish, no other starts, and report.json says
# "complete": false with the ids of the cases not run, which with the cases
# run make up the whole selection; the exit status is 128 + the signal, and
# `verify` rejects the partial report as a certificate, saying the run was
# interrupted. Every case hangs (an injected hang, retried once) so the run
# is still going when the signal comes; the signal is sent once the run has
# announced its cases. TERM_TWICE sends SIGTERM twice, 0.2 s apart, as GNU
# `timeout` does (to the run, then to its process group): that is one
# interruption, not the "signal again" that stops at once. TERM_AGAIN sends
# the first SIGTERM once a case hangs (sent right after the announcement, on
# a loaded machine it came before the first case started, and the run ended
# with nothing to wait for: such a run is tried again, waiting longer) and the
# second while that case still hangs (30 s timeouts): the process ends at once
# by SIGTERM's default action, with no report.
# CTest runs it as: cmake -DCLI=... -DOUT_DIR=... -P this.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

foreach(mode INT TERM TERM_TWICE TERM_AGAIN)
  string(REGEX REPLACE "_.*" "" signal ${mode})
  set(dir ${OUT_DIR}/${mode})
  set(timeout_ms 200)
  if(mode STREQUAL "TERM_AGAIN")
    set(timeout_ms 30000)
  endif()
  file(REMOVE_RECURSE ${dir})
  file(MAKE_DIRECTORY ${dir})
  # The run in the background; the signal once stderr shows it started
  # (at most 60 s of waiting), then the run's own exit status.
  execute_process(
    COMMAND sh -c [[
start() {
  rm -rf "$1/run"
  "$0" --backend reference --level L1 --runs 2 --timeout-ms $4 --inject-faults hang@1+ \
       --out "$1/run" --quiet > "$1/stdout" 2> "$1/stderr" &
  pid=$!
  tries=0
  until grep -q "cases on" "$1/stderr"; do
    tries=$((tries + 1)); [ $tries -gt 600 ] && break; sleep 0.1
  done
}
if [ "$3" = TERM_AGAIN ]; then
  # A run still waiting for its hanging case after the first SIGTERM; one
  # signalled before its first case started ends at once, so it is tried
  # again with a longer wait (3, 10, 30 s) before that first signal.
  for delay in 3 10 30; do
    start "$@"; sleep $delay; kill -$2 $pid; sleep 1
    kill -0 $pid 2>/dev/null && break
    wait $pid; echo "no case was running $delay s after the announcement"
  done
  sleep 3; kill -$2 $pid
else
  start "$@"; kill -$2 $pid
  if [ "$3" = TERM_TWICE ]; then sleep 0.2; kill -$2 $pid; fi
fi
wait $pid
status=$?
cat "$1/stdout"
echo "exit=$status"
]] ${CLI} ${dir} ${signal} ${mode} ${timeout_ms}
    OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  file(READ ${dir}/stderr err)
  if(signal STREQUAL "INT")
    set(expected_exit 130)
  else()
    set(expected_exit 143)
  endif()
  expect_contains("${out}" "exit=${expected_exit}" "${mode}: exit status (stderr:\n${err})")
  if(mode STREQUAL "TERM_AGAIN")
    expect_contains("${err}" "vyre-certify: interrupted" "${mode}: notice")
    if(out MATCHES "interrupted by" OR EXISTS ${dir}/run/report.json)
      message(FATAL_ERROR "${mode}: the second SIGTERM did not end the run at once:\n${out}")
    endif()
    continue()
  endif()
  expect_contains("${out}" "interrupted by SIG${signal}" "${mode}: summary")
  expect_contains("${err}" "vyre-certify: interrupted" "${mode}: notice")

  if(NOT err MATCHES "vyre-certify: ([0-9]+) cases on ")
    message(FATAL_ERROR "${mode}: no case count on stderr:\n${err}")
  endif()
  set(selected ${CMAKE_MATCH_1})
  read_reports(${dir}/run json)
  string(JSON complete GET "${json}" complete)
  expect_equal("${complete}" "OFF" "${mode}: report.json's complete")
  string(JSON certified GET "${json}" certified)
  expect_equal("${certified}" "OFF" "${mode}: report.json's certified")
  report_case_count("${json}" ran)
  string(JSON not_run LENGTH "${json}" not_run)
  if(not_run EQUAL 0)
    message(FATAL_ERROR "${mode}: the run was not interrupted: every case ran")
  endif()
  math(EXPR listed "${ran} + ${not_run}")
  expect_equal("${listed}" "${selected}" "${mode}: cases run + not run")
  # No case is both run and not run.
  string(JSON first_not_run GET "${json}" not_run 0)
  string(FIND "${json}" "\"id\": \"${first_not_run}\"" ran_too)
  string(FIND "${json}" "\"id\":\"${first_not_run}\"" ran_too_compact)
  if(NOT ran_too EQUAL -1 OR NOT ran_too_compact EQUAL -1)
    message(FATAL_ERROR "${mode}: ${first_not_run} is listed as run and not run")
  endif()

  run_cli(1 vout verr verify ${dir}/run/report.json)
  expect_contains("${vout}" "NOT VERIFIED" "${mode}: verify")
  expect_contains("${vout}" "the run was interrupted" "${mode}: verify")
endforeach()
