#!/usr/bin/env bash
# The main command: installs what is missing, builds, and certifies the Vulkan
# backend on the default device (lavapipe when there is no GPU). Extra
# arguments go to vyre-certify (e.g. --device NAME, --level L1).
set -euo pipefail
cd "$(dirname "$0")/.."
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
scripts/install-deps.sh
cmake --preset default
cmake --build --preset default --target vyre-certify
exec build/vyre-certify --backend vulkan "$@"
