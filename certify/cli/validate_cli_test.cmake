# The `validate` and `rules` commands end to end: exit codes and exact output
# on the files in testdata/validate (expected text written by hand from seed
# 004's messages and the files' line:col), and every spec/examples program is
# valid. CTest runs it as: cmake -DCLI=... -DDATA=... -DEXAMPLES=... -P this.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)
set(CLI_WORKING_DIRECTORY ${DATA})

# A valid program: exit 0, nothing printed.
run_cli(0 out err validate valid.vyre)
expect_equal("${out}" "" "validate valid.vyre")

# An invalid one: exit 1, every diagnostic as FILE:LINE:COL: VNNN: message.
file(READ ${DATA}/invalid.expected invalid_expected)
run_cli(1 out err validate invalid.vyre)
expect_equal("${out}" "${invalid_expected}" "validate invalid.vyre")
run_cli(1 out err validate valid.vyre invalid.vyre)
expect_equal("${out}" "${invalid_expected}" "validate valid.vyre invalid.vyre")

# The same as JSON.
run_cli(1 json err validate --json invalid.vyre)
string(JSON count LENGTH "${json}")
expect_equal("${count}" "4" "number of JSON diagnostics")
string(JSON file GET "${json}" 1 file)
string(JSON line GET "${json}" 1 line)
string(JSON col GET "${json}" 1 col)
string(JSON rule GET "${json}" 1 rule)
string(JSON message GET "${json}" 1 message)
expect_equal("${file}:${line}:${col}:${rule}" "invalid.vyre:8:15:V021" "second JSON diagnostic")
expect_equal("${message}"
             "vyre IR validation: binary operation left operand must be `u32`, got `bool`. Fix: cast or rewrite the operand to produce U32."
             "second JSON message")
run_cli(0 json err validate --json valid.vyre)
expect_equal("${json}" "[]\n" "JSON of a valid program")

# Names holding a newline, NUL, terminal escape or bytes that are not UTF-8
# are spelled with the text format's escapes: one printable line each, and
# V003 points at `workgroup_size`.
file(READ ${DATA}/escaped_names.expected escaped_expected)
run_cli(1 out err validate escaped_names.vyre)
expect_equal("${out}" "${escaped_expected}" "validate escaped_names.vyre")
# As JSON (it used to abort on the first byte that is not UTF-8): it parses,
# and the messages are the same text.
run_cli(1 json err validate --json escaped_names.vyre)
string(JSON count LENGTH "${json}")
expect_equal("${count}" "5" "number of JSON diagnostics of escaped_names.vyre")
string(JSON message GET "${json}" 0 message)
expect_equal("${message}"
             "vyre IR validation: duplicate buffer name `\"\\xff\\x00a\"`. Fix: each buffer must have a unique name."
             "first JSON message of escaped_names.vyre")
string(JSON message GET "${json}" 4 message)
expect_contains("${message}" "store to non-writable buffer `\"raw\\xff\"`" "JSON V005 message")
# A file name that is not UTF-8: its bad byte becomes U+FFFD in the JSON.
string(ASCII 255 byte_ff)
set(odd_dir ${CMAKE_CURRENT_BINARY_DIR}/validate_odd_names)
file(REMOVE_RECURSE ${odd_dir})
file(MAKE_DIRECTORY ${odd_dir})
file(COPY_FILE ${DATA}/escaped_names.vyre "${odd_dir}/nope${byte_ff}.vyre")
run_cli(1 json err validate --json "${odd_dir}/nope${byte_ff}.vyre")
string(JSON file GET "${json}" 0 file)
expect_equal("${file}" "${odd_dir}/nope�.vyre" "JSON file name that is not UTF-8")
run_cli(2 json err validate --json "${odd_dir}/missing${byte_ff}.vyre")
string(JSON message GET "${json}" 0 message)
expect_match("${message}" "^cannot open" "missing file whose name is not UTF-8")
file(REMOVE_RECURSE ${odd_dir})

# A UTF-8 byte order mark at the start is skipped (spec/text/GRAMMAR.md).
run_cli(0 out err validate bom.vyre)
expect_equal("${out}" "" "validate bom.vyre")

# Unparsable or unreadable input: exit 2 (over an invalid program's 1).
run_cli(2 out err validate unparsable.vyre invalid.vyre)
expect_match("${out}" "^unparsable\\.vyre:4:1: error: [^\n]+\ninvalid\\.vyre:7:3: V005: "
             "parse error first, then the other file's diagnostics")
run_cli(2 out err validate no-such-file.vyre)
expect_match("${out}" "^no-such-file\\.vyre:0:0: error: cannot open" "missing file")
run_cli(2 out err validate)
run_cli(2 out err validate --bogus valid.vyre)
# `--` ends the options: `--json` after it is a file name.
run_cli(2 out err validate -- --json)
expect_match("${out}" "^--json:0:0: error: cannot open" "`--` ends the options")
run_cli(0 out err validate -- valid.vyre)
expect_equal("${out}" "" "validate -- valid.vyre")

# The rule table.
run_cli(0 out err rules)
expect_match("${out}" "^V001  buffer names are unique\nV002  " "rules listing")
expect_match("${out}" "\nV025  no Atomic on a Workgroup buffer\n" "rules listing, V025")
expect_match("${out}" "\nV040  [^\n]+\n$" "rules listing ends at V040")
run_cli(0 json err rules --json)
string(JSON count LENGTH "${json}")
expect_equal("${count}" "40" "number of rules")
string(JSON id GET "${json}" 8 id)
string(JSON summary GET "${json}" 8 summary)
expect_equal("${id}: ${summary}" "V009: Atomic targets a ReadWrite buffer" "ninth rule")
run_cli(2 out err rules --bogus)

# `--help` names the rule range from the rule table, not a hard-coded one.
run_cli(0 out err --help)
expect_match("${out}" "validate +validate programs \\(rules V001-V040\\)" "help line of validate")

# Every example program is valid.
file(GLOB examples ${EXAMPLES}/*.vyre)
list(LENGTH examples example_count)
if(example_count EQUAL 0)
  message(FATAL_ERROR "no examples found in ${EXAMPLES}")
endif()
run_cli(0 out err validate ${examples})
expect_equal("${out}" "" "validate spec/examples")
