# `vyre-certify generate` end to end: bad usage exits 2 before anything is
# written; the programs of a seed come out as case files that `vyre-certify
# run` accepts and passes on the reference (originals and metamorphic
# variants), with an INDEX whose lines show the size classes, communication,
# atomic and path shapes drawn; the same seed writes the same files; and
# --max-workgroup-invocations 1024 draws workgroups past L5's 128.
# CTest runs it as: cmake -DCLI=... -DOUT_DIR=... -P this.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})

run_cli(2 out err generate --seed 1 --count 3)
expect_contains("${err}" "--out is required" "no --out")
run_cli(2 out err generate --seed 1 --out ${OUT_DIR}/unused)
expect_contains("${err}" "--count is required" "no --count")
foreach(bad 0 -1 abc 100001)
  run_cli(2 out err generate --seed 1 --count ${bad} --out ${OUT_DIR}/unused)
  expect_contains("${err}" "--count takes a number of programs" "--count ${bad}")
endforeach()
foreach(bad 0 1025 x)
  run_cli(2 out err generate --seed 1 --count 1 --max-workgroup-invocations ${bad}
          --out ${OUT_DIR}/unused)
  expect_contains("${err}" "--max-workgroup-invocations takes 1 to 1024" "a workgroup cap ${bad}")
endforeach()
run_cli(2 out err generate --seed 1 --count 1 --out ${OUT_DIR}/unused --bogus 1)
expect_contains("${err}" "unknown option" "an unknown option")
run_cli(2 out err generate --seed 1 --seed 2 --count 1 --out ${OUT_DIR}/unused)
expect_contains("${err}" "given twice" "a repeated option")
file(WRITE ${OUT_DIR}/a-file "")
run_cli(2 out err generate --seed 1 --count 1 --out ${OUT_DIR}/a-file/sub)
expect_contains("${err}" "cannot create output folder" "an unwritable --out")
if(EXISTS ${OUT_DIR}/unused/INDEX.txt)
  message(FATAL_ERROR "bad usage wrote ${OUT_DIR}/unused/INDEX.txt")
endif()

set(count 60)
run_cli(0 out err generate --seed 1 --count ${count} --out ${OUT_DIR}/seed1)
expect_contains("${out}" "${count} programs," "the summary")
expect_contains("${out}" "0 discarded" "nothing discarded")
file(READ ${OUT_DIR}/seed1/INDEX.txt index)
foreach(shape " small " " deep " "comm.neighbour\\|comm.reduce\\|comm.scan\\|comm.bitonic"
        "atomic.section\\|atomic.reduction\\|atomic.cas_loop" "path.nest" "idiom.")
  string(REPLACE "\\|" ";" alternatives "${shape}")
  set(found FALSE)
  foreach(a IN LISTS alternatives)
    string(FIND "${index}" "${a}" at)
    if(NOT at EQUAL -1)
      set(found TRUE)
    endif()
  endforeach()
  if(NOT found)
    message(FATAL_ERROR "no program of ${count} shows `${shape}` in INDEX.txt:\n${index}")
  endif()
endforeach()
# Each program's case file holds its program: trace slots where it has a path nest.
file(STRINGS ${OUT_DIR}/seed1/INDEX.txt lines REGEX "path.nest")
list(GET lines 0 traced)
string(REGEX MATCH "^[0-9]+\\.vyre" traced_file "${traced}")
file(READ ${OUT_DIR}/seed1/${traced_file} traced_text)
expect_contains("${traced_text}" "buffer trace: u32 read_write" "the trace buffer of ${traced_file}")

# Every original round-trips through `run` and passes on the reference, and
# so does every variant of the first programs.
file(GLOB originals ${OUT_DIR}/seed1/[0-9][0-9][0-9][0-9][0-9][0-9].vyre)
list(LENGTH originals written)
if(NOT written EQUAL count)
  message(FATAL_ERROR "${written} original case files written, expected ${count}")
endif()
file(GLOB variants ${OUT_DIR}/seed1/00000[0-4].*.vyre)
list(LENGTH variants variant_count)
# L5 certifies two rewrites per program (fewer only where fewer find a site).
if(variant_count LESS 8 OR variant_count GREATER 10)
  message(FATAL_ERROR "${variant_count} variant files for programs 0-4, expected about two each")
endif()
# One `run` for them all (it exits with the worst of its files' statuses):
# a sanitized CLI takes longer to start than to run one of these programs.
run_cli(0 out err run ${originals} ${variants})
math(EXPR file_count "${count} + ${variant_count}")
foreach(line "case \"L5/random/" "violations: none")
  string(REGEX MATCHALL "(^|\n)${line}" found "${out}")
  list(LENGTH found found_count)
  expect_equal("${found_count}" "${file_count}" "`${line}` lines of `run` on ${file_count} files")
endforeach()

# The same seed writes the same bytes.
run_cli(0 out err generate --seed 1 --count 5 --out ${OUT_DIR}/again)
file(READ ${OUT_DIR}/seed1/000004.vyre first)
file(READ ${OUT_DIR}/again/000004.vyre second)
expect_equal("${second}" "${first}" "program 4 of seed 1 written twice")

# Wider workgroups on request.
run_cli(0 out err generate --seed 1 --count 200 --max-workgroup-invocations 1024
        --out ${OUT_DIR}/wide)
file(STRINGS ${OUT_DIR}/wide/INDEX.txt wide_lines REGEX "^[0-9]")
set(widest 0)
foreach(line IN LISTS wide_lines)
  # file seed size WxYxZ grid ...: the fourth field is the workgroup.
  string(REPLACE " " ";" fields "${line}")
  list(GET fields 3 group)
  string(REPLACE "x" "*" product "${group}")
  math(EXPR invocations "${product}")
  if(invocations GREATER widest)
    set(widest ${invocations})
  endif()
endforeach()
if(widest LESS_EQUAL 128 OR widest GREATER 1024)
  message(FATAL_ERROR "the widest workgroup of 200 programs has ${widest} invocations")
endif()
