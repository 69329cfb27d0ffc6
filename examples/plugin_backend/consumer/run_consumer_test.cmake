# The test plugin_package_consumer (cmake -P): installs this build into a fresh
# prefix, configures and builds ./ (a backend author's project) against it, and
# checks what find_package(vyre_certify) gave: the header compiled as C99, the
# imported vyre-certify runs, vyre_certify_add_test registered the
# certification command, and the consumer's ctest runs it and passes. Inputs: VYRE_BUILD_DIR, CONSUMER_SOURCE, WORK_DIR,
# GENERATOR, C_COMPILER, CTEST_COMMAND.

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} failed (${status}):\n${out}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

function(expect_equal what actual expected)
  if(NOT actual STREQUAL expected)
    message(FATAL_ERROR "${what}: got '${actual}', expected '${expected}'")
  endif()
endfunction()

set(prefix ${WORK_DIR}/prefix)
set(build ${WORK_DIR}/build)
file(REMOVE_RECURSE ${WORK_DIR})

run_step("installing vyre-certify" ${CMAKE_COMMAND} --install ${VYRE_BUILD_DIR} --prefix ${prefix})
run_step("configuring the consumer project"
         ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE} -B ${build} -G ${GENERATOR}
         -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_PREFIX_PATH=${prefix})
run_step("building the consumer's plugin" ${CMAKE_COMMAND} --build ${build})
run_step("running the imported vyre-certify" ${prefix}/bin/vyre-certify --help)

run_step("listing the consumer's tests" ${CTEST_COMMAND} --test-dir ${build} --show-only=json-v1)
string(JSON test_count LENGTH "${step_output}" tests)
expect_equal("number of tests" "${test_count}" "1")
string(JSON test_name GET "${step_output}" tests 0 name)
expect_equal("test name" "${test_name}" "binop_backend_certification")
string(JSON argc LENGTH "${step_output}" tests 0 command)
set(command)
math(EXPR last "${argc} - 1")
foreach(i RANGE ${last})
  string(JSON arg GET "${step_output}" tests 0 command ${i})
  list(APPEND command "${arg}")
endforeach()
set(reports ${build}/vyre-certify/binop_backend_certification)
set(expected ${prefix}/bin/vyre-certify --backend ${build}/libbinop_backend.so --level L1
             --out ${reports} --filter "L1/spec/binop/*" --runs 3)
expect_equal("certification command" "${command}" "${expected}")

# What the backend author then runs: ctest certifies the plugin, and passes.
run_step("running the consumer's certification test"
         ${CTEST_COMMAND} --test-dir ${build} --output-on-failure)
string(FIND "${step_output}" "100% tests passed, 0 tests failed out of 1" passed)
if(passed EQUAL -1)
  message(FATAL_ERROR "the consumer's ctest did not pass its one test:\n${step_output}")
endif()
# The report says what passed: the 18 BinOps of the pinned spec, section 3.
file(READ ${reports}/report.json json)
string(JSON certified GET "${json}" certified)
string(JSON level GET "${json}" levels 0 level)
string(JSON cases GET "${json}" levels 0 cases)
string(JSON passed GET "${json}" levels 0 passed)
expect_equal("the consumer's report" "${certified} ${level} ${cases} ${passed}" "ON L1 18 18")
# A filtered run: every check passes but the last, it certifies no level.
execute_process(COMMAND ${prefix}/bin/vyre-certify verify ${reports}/report.json
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
string(FIND "${out}" "not a certificate of L1: a run filtered by" partial)
if(NOT status EQUAL 1 OR partial EQUAL -1)
  message(FATAL_ERROR "verify of the consumer's filtered report (${status}):\n${out}")
endif()
message(STATUS "find_package(vyre_certify) works: ${command}")
