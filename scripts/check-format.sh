#!/usr/bin/env bash
# Fails when a tracked C++ file differs from what clang-format (config in
# .clang-format) makes of it; prints the offending lines.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.cc' '*.h' '*.c')
if [ ${#files[@]} -eq 0 ]; then
  echo "check-format: no source file found; nothing was checked" >&2
  exit 1
fi
if ! clang-format --dry-run --Werror "${files[@]}"; then
  echo "check-format: run clang-format -i on the files above" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files, all formatted"
