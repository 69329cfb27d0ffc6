# The GoogleTest and RapidCheck headers cost ~3 s of parsing in every test
# file; one precompiled copy, shared by every test executable, takes a few
# minutes off a two-core CI build. GCC falls back to the text headers where
# a target's flags differ, and CMake's -Winvalid-pch (an error under
# VYRE_WERROR) says so. The header's owner is an executable, an empty test
# program never registered, because a PCH built with a library's -fPIC does
# not serve executables built with -fPIE.
# Test code is compiled at -O1 where the build optimises harder: half of a
# clean build is test executables, which spend their time in the libraries
# (still at the preset's -O2), and -O1 compiles them about 30% faster (the
# isolation tests' unit: 27.3 CPU s at -O2, 17.6 s at -O1). The PCH owner
# gets the same flag, so the PCH still serves every test.
# Under the sanitizers test code is compiled at -O0: the instrumented test
# units took half of CI's sanitized build, and -O0 halves them (the gate
# tests' unit: 56.2 CPU s at -O1, 29.2 s at -O0; the isolation tests' 74 ->
# 41) while the libraries and the CLI under test keep the preset's -O1, so the
# tests run about as fast (the heaviest generator tests: 5-15% more CPU). ASan
# and UBSan check -O0 code as fully as -O1 code.
if(VYRE_SANITIZE)
  set(VYRE_TEST_OPTIMISATION -O0)
else()
  set(VYRE_TEST_OPTIMISATION $<$<CONFIG:RelWithDebInfo,Release>:-O1>)
endif()
if(VYRE_BUILD_TESTS)
  add_executable(vyre_test_pch ${PROJECT_SOURCE_DIR}/cmake/test_pch.cc)
  target_compile_options(vyre_test_pch PRIVATE ${VYRE_TEST_OPTIMISATION})
  target_link_libraries(vyre_test_pch PRIVATE vyre_warnings GTest::gtest GTest::gtest_main rapidcheck
                                              rapidcheck_gtest)
  target_precompile_headers(vyre_test_pch PRIVATE <gtest/gtest.h> <rapidcheck.h> <rapidcheck/gtest.h>)
endif()

# vyre_test(NAME [ONE_PROCESS] SOURCES... LIBS ...): one GoogleTest executable,
# its cases registered with CTest. RapidCheck properties run through
# rapidcheck_gtest. ONE_PROCESS registers the executable as one CTest, for
# cases that share an expensive fixture (the whole catalogue, built once per
# process): one case per process would build it once per case.
function(vyre_test name)
  if(NOT VYRE_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(ARG "ONE_PROCESS" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} vyre_warnings GTest::gtest GTest::gtest_main
                                        rapidcheck rapidcheck_gtest)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR})
  target_compile_options(${name} PRIVATE ${VYRE_TEST_OPTIMISATION})
  target_precompile_headers(${name} REUSE_FROM vyre_test_pch)
  if(ARG_ONE_PROCESS)
    add_test(NAME ${name} COMMAND ${name})
    set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}")
  else()
    gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "${ARG_LABELS}")
  endif()
endfunction()

# vyre_library(NAME SOURCES... DEPS ...): one layer library.
function(vyre_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>)
  target_link_libraries(${name} PUBLIC ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS} vyre_warnings)
endfunction()
