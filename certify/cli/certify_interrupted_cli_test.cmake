# A certification interrupted by SIGINT or SIGTERM still writes its reports:
# the cases running finish, no other starts, and report.json says
# "complete": false with the ids of the cases not run, which with the cases
# run make up the whole selection; the exit status is 128 + the signal, and
# `verify` rejects the partial report as a certificate, saying the run was
# interrupted. Every case hangs (an injected hang, retried once) so the run
# is still going when the signal comes; the signal is sent once the run has
# announced its cases.
# CTest runs it as: cmake -DCLI=... -DOUT_DIR=... -P this.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

foreach(signal INT TERM)
  set(dir ${OUT_DIR}/${signal})
  file(REMOVE_RECURSE ${dir})
  file(MAKE_DIRECTORY ${dir})
  # The run in the background; the signal once stderr shows it started
  # (at most 60 s of waiting), then the run's own exit status.
  execute_process(
    COMMAND sh -c [[
"$0" --backend reference --level L1 --runs 2 --timeout-ms 200 --inject-faults hang@1+ \
     --out "$1/run" --quiet 2> "$1/stderr" &
pid=$!
tries=0
until grep -q "cases on" "$1/stderr"; do
  tries=$((tries + 1)); [ $tries -gt 600 ] && break; sleep 0.1
done
kill -$2 $pid
wait $pid
echo "exit=$?"
]] ${CLI} ${dir} ${signal}
    OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  file(READ ${dir}/stderr err)
  if(signal STREQUAL "INT")
    set(expected_exit 130)
  else()
    set(expected_exit 143)
  endif()
  expect_contains("${out}" "exit=${expected_exit}" "SIG${signal}: exit status (stderr:\n${err})")
  expect_contains("${out}" "interrupted by SIG${signal}" "SIG${signal}: summary")
  expect_contains("${err}" "vyre-certify: interrupted" "SIG${signal}: notice")

  if(NOT err MATCHES "vyre-certify: ([0-9]+) cases on ")
    message(FATAL_ERROR "SIG${signal}: no case count on stderr:\n${err}")
  endif()
  set(selected ${CMAKE_MATCH_1})
  read_reports(${dir}/run json)
  string(JSON complete GET "${json}" complete)
  expect_equal("${complete}" "OFF" "SIG${signal}: report.json's complete")
  string(JSON certified GET "${json}" certified)
  expect_equal("${certified}" "OFF" "SIG${signal}: report.json's certified")
  report_case_count("${json}" ran)
  string(JSON not_run LENGTH "${json}" not_run)
  if(not_run EQUAL 0)
    message(FATAL_ERROR "SIG${signal}: the run was not interrupted: every case ran")
  endif()
  math(EXPR listed "${ran} + ${not_run}")
  expect_equal("${listed}" "${selected}" "SIG${signal}: cases run + not run")
  # No case is both run and not run.
  string(JSON first_not_run GET "${json}" not_run 0)
  string(FIND "${json}" "\"id\": \"${first_not_run}\"" ran_too)
  string(FIND "${json}" "\"id\":\"${first_not_run}\"" ran_too_compact)
  if(NOT ran_too EQUAL -1 OR NOT ran_too_compact EQUAL -1)
    message(FATAL_ERROR "SIG${signal}: ${first_not_run} is listed as run and not run")
  endif()

  run_cli(1 vout verr verify ${dir}/run/report.json)
  expect_contains("${vout}" "NOT VERIFIED" "SIG${signal}: verify")
  expect_contains("${vout}" "the run was interrupted" "SIG${signal}: verify")
endforeach()
