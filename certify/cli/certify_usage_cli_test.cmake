# Certification refused before any case runs: bad usage, a backend name that
# is not built in, and plugins that cannot be loaded make
# `vyre-certify --backend ...` exit 2 with a message on stderr saying what is
# wrong, and write no report.
# CTest runs it as: cmake -DCLI=... -DMISBEHAVING_PLUGIN=... -DNO_ENTRY_LIBRARY=...
#   -DOUT_DIR=... -P this.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})
set(reports ${OUT_DIR}/reports)

# Runs the CLI with the remaining arguments; fails unless it exits 2 with
# `needle` on stderr and left no report.json under OUT_DIR.
function(expect_refused needle)
  run_cli(2 out err ${ARGN})
  expect_contains("${err}" "vyre-certify: " "refusal of `${ARGN}`")
  expect_contains("${err}" "${needle}" "refusal of `${ARGN}`")
  file(GLOB_RECURSE written ${OUT_DIR}/report.json)
  if(written)
    message(FATAL_ERROR "`vyre-certify ${ARGN}` exited 2 but wrote ${written}")
  endif()
endfunction()

# Backends that are neither built in nor a loadable plugin. The built-in
# names are listed; a name with a '/' or ending in .so is a plugin's path.
expect_refused("unknown backend `nonesuch`" --backend nonesuch --level L1 --out ${reports})
expect_refused("reference, vulkan" --backend nonesuch --level L1 --out ${reports})
expect_refused("plugin '${OUT_DIR}/no-such-plugin.so': no such file"
               --backend ${OUT_DIR}/no-such-plugin.so --level L1 --out ${reports})
expect_refused("plugin 'libno-such-plugin.so': no such file"
               --backend libno-such-plugin.so --level L1 --out ${reports})
expect_refused("does not export the symbol vyre_plugin_entry"
               --backend ${NO_ENTRY_LIBRARY} --level L1 --out ${reports})

# The misbehaving plugin's modes that break loading (PLUGINS.md: "an error at
# load: vyre-certify exits 2"), each with what the message names.
set(load_failures
    "abi_mismatch|implements vyre plugin ABI version 99"
    "null_table|vyre_plugin_entry() returned NULL"
    "null_function|leaves the function 'dispatch' NULL"
    "bad_name|its name has a character that is not printable ASCII"
    "create_fails|no device for you"
    "probe_fails|device fell off the bus")
foreach(row IN LISTS load_failures)
  if(NOT row MATCHES "^([^|]+)\\|(.+)$")
    message(FATAL_ERROR "malformed row `${row}`")
  endif()
  set(mode ${CMAKE_MATCH_1})
  set(needle "${CMAKE_MATCH_2}")
  set(ENV{VYRE_TEST_PLUGIN_MODE} ${mode})
  expect_refused("${needle}" --backend ${MISBEHAVING_PLUGIN} --level L1 --out ${reports})
  expect_refused("cannot load the plugin backend `${MISBEHAVING_PLUGIN}`"
                 --backend ${MISBEHAVING_PLUGIN} --level L1 --out ${reports})
  unset(ENV{VYRE_TEST_PLUGIN_MODE})
endforeach()

# Options.
expect_refused("--filter `no-such-case*` matches no case at or below L1"
               --backend reference --level L1 --filter no-such-case* --out ${reports})
file(WRITE ${OUT_DIR}/a-file "a regular file, not a folder\n")
expect_refused("cannot create output folder ${OUT_DIR}/a-file/reports"
               --backend reference --level L1 --out ${OUT_DIR}/a-file/reports)
expect_refused("--runs takes a number from 1 to 100000"
               --backend reference --level L1 --runs 0 --out ${reports})
expect_refused("--timeout-ms takes a positive number"
               --backend reference --level L1 --timeout-ms 0 --out ${reports})
expect_refused("unknown level `L9`" --backend reference --level L9 --out ${reports})
expect_refused("unknown option `--bogus`" --backend reference --bogus 1 --out ${reports})
expect_refused("option --out needs a value" --backend reference --out)
expect_refused("--backend is required" --level L1 --out ${reports})
expect_refused("unknown option `--bogus`" --backend reference --out ${reports} --bogus)

# Options given twice are refused rather than last-wins; so is an empty --out
# and a --device that the backend could not use.
expect_refused("--backend given twice" --backend reference --backend vulkan --out ${reports})
expect_refused("--level given twice" --backend reference --level L1 --level L2 --out ${reports})
# (run_cli's ARGN would drop an empty argument, so this one is run directly.)
execute_process(COMMAND ${CLI} --backend reference --out "" RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
expect_equal("${rc}" "2" "--out ''")
expect_contains("${err}" "--out needs a folder, not an empty string" "--out ''")
expect_refused("--device does not apply to backend `reference`"
               --backend reference --device 0 --level L1 --out ${reports})
expect_refused("--device does not apply to a plugin backend"
               --backend ${MISBEHAVING_PLUGIN} --device 0 --level L1 --out ${reports})

# The writability probe never touches a user's file, and a reused --out loses
# the repro files an earlier run wrote but keeps everything else.
set(reused ${OUT_DIR}/reused)
file(MAKE_DIRECTORY ${reused}/repro)
file(WRITE ${reused}/.write-test "the user's own file\n")
file(WRITE ${reused}/repro/notes.vyre "# the user's own notes\n")
file(WRITE ${reused}/repro/L1_old.vyre "# vyre-certify repro of L1/old\n")
run_cli(0 out err --backend reference --level L1 --runs 1 --filter L1/spec/unop/* --out ${reused}
        --quiet)
file(READ ${reused}/.write-test kept)
expect_equal("${kept}" "the user's own file\n" ".write-test left alone")
if(NOT EXISTS ${reused}/repro/notes.vyre OR EXISTS ${reused}/repro/L1_old.vyre)
  message(FATAL_ERROR "a reused --out must drop old repros and keep other files")
endif()

# The usage text comes from the options table: each option with its value,
# its default and its gate key (certify/gate/certify_option_table.h).
run_cli(0 out err certify --help)
expect_contains("${out}" "[--inject-faults SPEC]" "certify --help synopsis")
expect_contains("${out}" "  --runs N: runs of each case on the backend. (default 100; gate key runs)"
                "certify --help")
expect_contains("${out}" "  --sign-key KEY.pem: signs report.json" "certify --help")
expect_contains("${out}" "  --dry-run: checks the options" "certify --help")
expect_contains("${out}" "reference, vulkan" "certify --help's backends")
# A bad value of a numbered option names its range, from the same table.
run_cli(2 out err --backend reference --level L1 --case-budget-s 90000 --out ${reports})
expect_contains("${err}" "--case-budget-s takes a number of seconds from 0 to 86400"
                "--case-budget-s 90000")
run_cli(2 out err --backend reference --level L1 --seed -3 --out ${reports})
expect_contains("${err}" "--seed takes an unsigned 64-bit number" "--seed -3")
