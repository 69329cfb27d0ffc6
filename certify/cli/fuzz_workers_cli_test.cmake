# `vyre-certify fuzz --jobs 2` on a misbehaving plugin (every output byte
# plus one): two workers, each with the plugin in a child process of its own,
# list each finding once and write each finding's folder whole, once.
# CTest runs it as: cmake -DCLI=... -DPLUGIN=... -DOUT_DIR=... -P this.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})

set(ENV{VYRE_TEST_PLUGIN_MODE} ok)
# Two workers, each with the plugin in a child process of its own: the
# findings are listed and each folder is written whole, once.
# Sixteen programs: the first batch of each worker (8 programs) finds some.
run_cli(1 out err fuzz --backend ${PLUGIN} --programs 16 --jobs 2 --out ${OUT_DIR}/plugin2 --quiet)
expect_contains("${out}" "), 2 workers\n" "--jobs 2 on the plugin")
string(REGEX MATCHALL "FAIL ${OUT_DIR}/plugin2/[0-9a-f]+ " listed "${out}")
list(LENGTH listed listed_count)
list(REMOVE_DUPLICATES listed)
list(LENGTH listed distinct_count)
if(listed_count EQUAL 0 OR NOT listed_count EQUAL distinct_count)
  message(FATAL_ERROR "--jobs 2 listed ${listed_count} findings, ${distinct_count} distinct:\n${out}")
endif()
file(GLOB findings2 LIST_DIRECTORIES true ${OUT_DIR}/plugin2/*)
list(LENGTH findings2 folder_count)
if(NOT folder_count EQUAL distinct_count)
  message(FATAL_ERROR "--jobs 2 wrote ${folder_count} folders for ${distinct_count} findings")
endif()
foreach(dir IN LISTS findings2)
  foreach(name original.vyre reduced.vyre README.txt)
    if(NOT EXISTS ${dir}/${name})
      message(FATAL_ERROR "${dir}/${name} was not written")
    endif()
  endforeach()
endforeach()
