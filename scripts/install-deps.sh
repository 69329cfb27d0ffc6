#!/usr/bin/env bash
# Installs, from Debian 12's packages, whatever vyre-certify needs to build,
# test and run that this machine lacks. Safe to run again: installs nothing
# when everything is present. Uses sudo when not root.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config clang clang-format git lld
  # clang's sanitizer runtimes (the asan preset builds with clang; only recommended by clang):
  libclang-rt-14-dev
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
  spirv-tools spirv-headers spirv-cross libspirv-cross-c-shared-dev glslang-dev glslang-tools
  librapidcheck-dev libgtest-dev libgmock-dev libbenchmark-dev
  libtomlplusplus-dev nlohmann-json3-dev libssl-dev libpng-dev
  # report.html's browser test; the fonts, as --no-install-recommends leaves Chromium none:
  chromium fonts-liberation
  ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd clinfo
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
