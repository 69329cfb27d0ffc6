#!/usr/bin/env bash
# The test command: installs what is missing, builds, runs every test (CTest).
set -euo pipefail
cd "$(dirname "$0")/.."
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
scripts/install-deps.sh
cmake --preset default
cmake --build --preset default
ctest --preset default
