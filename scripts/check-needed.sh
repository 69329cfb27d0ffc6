#!/usr/bin/env bash
# Fails unless the binary's NEEDED entries are only the loaders and the C
# runtime: what the `gpu` preset promises, so that its vyre-certify starts on
# a GPU machine without our build dependencies. Usage: check-needed.sh BINARY
set -euo pipefail
binary=${1:?usage: check-needed.sh BINARY}
allowed='^(libvulkan\.so\.1|libOpenCL\.so\.1|libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|ld-linux-x86-64\.so\.2)$'
needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[ -n "$needed" ] || { echo "check-needed: $binary has no NEEDED entries (not a dynamic ELF?)" >&2; exit 1; }
bad=$(echo "$needed" | grep -Ev "$allowed" || true)
if [ -n "$bad" ]; then
  echo "check-needed: $binary needs libraries a GPU machine may lack:" >&2
  echo "$bad" | sed 's/^/  /' >&2
  echo "link them statically (VYRE_STATIC_DEPS) or load them at run time" >&2
  exit 1
fi
echo "check-needed: $binary needs only $(echo $needed)"
