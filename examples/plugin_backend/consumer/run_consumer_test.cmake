# The test plugin_package_consumer (cmake -P): installs this build into a fresh
# prefix, configures and builds ./ (a backend author's project) against it, and
# checks what find_package(vyre_certify) gave: the header compiled as C99, the
# imported vyre-certify runs, and vyre_certify_add_test registered the
# certification command. Inputs: VYRE_BUILD_DIR, CONSUMER_SOURCE, WORK_DIR,
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
expect_equal("test name" "${test_name}" "null_backend_certification")
string(JSON argc LENGTH "${step_output}" tests 0 command)
set(command)
math(EXPR last "${argc} - 1")
foreach(i RANGE ${last})
  string(JSON arg GET "${step_output}" tests 0 command ${i})
  list(APPEND command "${arg}")
endforeach()
set(expected ${prefix}/bin/vyre-certify --backend ${build}/libnull_backend.so --level L1
             --out ${build}/vyre-certify/null_backend_certification)
expect_equal("certification command" "${command}" "${expected}")
message(STATUS "find_package(vyre_certify) works: ${command}")
