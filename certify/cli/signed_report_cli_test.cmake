# Signed certificates end to end: a run signed with --sign-key verifies with
# its public key and with no other; an unsigned report is refused when a key
# is asked for; bad key files exit 2 saying what they are; a filtered run is
# no certificate; merge --public-key refuses shards the key did not sign; a
# gate file's sign_key signs. Keys: testdata/keys (TEST-ONLY, README there).
# CTest runs it as: cmake -DCLI=... -DKEYS=testdata/keys -DOUT_DIR=... -P this.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})
set(signer ${KEYS}/TEST-ONLY-signer.pem)
set(signer_pub ${KEYS}/TEST-ONLY-signer.pub.pem)
set(other_pub ${KEYS}/TEST-ONLY-other.pub.pem)
# sha256 of the DER public key, computed once with
# `openssl pkey -pubin -in TEST-ONLY-signer.pub.pem -outform DER | sha256sum`.
set(signer_fingerprint cf3e9bfaee6e022fd4a2726d9fd078374f952a0597ffe39fe1996049a0c52e77)
set(whole --backend reference --level L1 --runs 1 --quiet)

# Bad key files: exit 2 before any case runs, naming the problem.
file(WRITE ${OUT_DIR}/not_a_key.pem "hello\n")
foreach(key_and_why "${OUT_DIR}/missing.pem|no such file" "${OUT_DIR}/not_a_key.pem|not a PEM file"
                    "${signer_pub}|a public key; signing needs the private key")
  string(REPLACE "|" ";" pair "${key_and_why}")
  list(GET pair 0 key)
  list(GET pair 1 why)
  run_cli(2 out err ${whole} --sign-key ${key} --out ${OUT_DIR}/refused)
  expect_contains("${err}" "${why}" "--sign-key ${key}")
  if(EXISTS ${OUT_DIR}/refused/report.json)
    message(FATAL_ERROR "a bad --sign-key still wrote a report")
  endif()
endforeach()

# A whole L1 run, signed, and the same run unsigned.
run_cli(0 out err ${whole} --sign-key ${signer} --out ${OUT_DIR}/signed)
run_cli(0 out err ${whole} --out ${OUT_DIR}/unsigned)
set(signed_report ${OUT_DIR}/signed/report.json)
set(unsigned_report ${OUT_DIR}/unsigned/report.json)

run_cli(0 out err verify --public-key ${signer_pub} ${signed_report})
expect_contains("${out}" "verified (sha256 " "verify with the signer's key")
expect_contains("${out}" "signed by the given key ${signer_fingerprint}" "the checked signer")
run_cli(0 out err verify ${signed_report})
expect_contains("${out}" "signed by key ${signer_fingerprint}, signer not checked" "no key given")
run_cli(1 out err verify --public-key ${other_pub} ${signed_report})
expect_contains("${out}" "NOT VERIFIED: signed by key ${signer_fingerprint}, not by the --public-key's key"
                "verify with another key")
run_cli(0 out err verify ${unsigned_report})
expect_contains("${out}" "unsigned (anyone can seal a report" "an unsigned report without a key")
run_cli(1 out err verify --public-key ${signer_pub} ${unsigned_report})
expect_contains("${out}" "NOT VERIFIED: the report is unsigned" "an unsigned report with a key")

# A changed byte: the digest no longer matches (the unit tests reseal it and
# check that the signature then fails).
file(READ ${signed_report} text)
string(REPLACE "\"status\": \"pass\"" "\"status\": \"fail\"" text "${text}")
file(WRITE ${OUT_DIR}/edited.json "${text}")
run_cli(1 out err verify --public-key ${signer_pub} ${OUT_DIR}/edited.json)
expect_contains("${out}" "NOT VERIFIED: certificate digest mismatch" "an edited signed report")

# Key files verify refuses: the private key given as the public one, no file.
run_cli(2 out err verify --public-key ${signer} ${signed_report})
expect_contains("${err}" "a private key given as the public key" "verify --public-key PRIVATE")
run_cli(2 out err verify --public-key ${OUT_DIR}/missing.pem ${signed_report})
expect_contains("${err}" "no such file" "verify --public-key missing")

# A filtered run is no certificate of its level, signed or not.
set(small --backend reference --level L1 --filter "L1/spec/binop/*" --runs 1 --quiet)
run_cli(0 out err ${small} --sign-key ${signer} --out ${OUT_DIR}/filtered)
run_cli(1 out err verify --public-key ${signer_pub} ${OUT_DIR}/filtered/report.json)
expect_contains("${out}" "not a certificate of L1: a run filtered by `L1/spec/binop/*`"
                "verify a filtered run")

# Shards: merge --public-key refuses shards its key did not sign.
foreach(i 1 2)
  run_cli(0 out err ${small} --shard ${i}/2 --out ${OUT_DIR}/plain_shard${i})
  run_cli(0 out err ${small} --shard ${i}/2 --sign-key ${signer} --out ${OUT_DIR}/signed_shard${i})
endforeach()
run_cli(2 out err merge --public-key ${signer_pub} --out ${OUT_DIR}/refused_merge
        ${OUT_DIR}/plain_shard1 ${OUT_DIR}/plain_shard2)
expect_contains("${err}" "not signed by the given key: the report is unsigned" "unsigned shards")
run_cli(2 out err merge --public-key ${other_pub} --out ${OUT_DIR}/refused_merge
        ${OUT_DIR}/signed_shard1 ${OUT_DIR}/signed_shard2)
expect_contains("${err}" "not by the --public-key's key" "shards of another signer")
run_cli(2 out err merge --public-key ${signer} --out ${OUT_DIR}/refused_merge
        ${OUT_DIR}/signed_shard1 ${OUT_DIR}/signed_shard2)
expect_contains("${err}" "a private key given as the public key" "merge --public-key PRIVATE")
run_cli(0 out err merge --public-key ${signer_pub} --sign-key ${signer} --out ${OUT_DIR}/merged
        ${OUT_DIR}/signed_shard1 ${OUT_DIR}/signed_shard2)
run_cli(1 out err verify --public-key ${signer_pub} ${OUT_DIR}/merged/report.json)
expect_contains("${out}" "not a certificate of L1: a run filtered by" "verify the signed merge")
read_reports(${OUT_DIR}/merged json)
string(JSON merged_signer GET "${json}" certificate signature public_key_sha256)
expect_equal("${merged_signer}" "${signer_fingerprint}" "the merged report's signer")

# A gate file's sign_key signs the run, as --sign-key does.
file(WRITE ${OUT_DIR}/signed_gate.toml
     "backend = \"reference\"\nlevel = \"L1\"\nruns = 1\nsign_key = \"${signer}\"\n")
run_cli(0 out err --gate ${OUT_DIR}/signed_gate.toml --quiet --out ${OUT_DIR}/gate_signed)
run_cli(0 out err verify --public-key ${signer_pub} ${OUT_DIR}/gate_signed/report.json)
expect_contains("${out}" "signed by the given key ${signer_fingerprint}" "the gate's signed run")
