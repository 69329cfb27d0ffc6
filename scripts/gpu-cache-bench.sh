#!/bin/sh
# The measurements of issue #26 items 1 and 7 on a GPU machine: OpenCL
# certification with a cold and a warm driver cache and without one, OpenCL
# fuzz throughput, and Vulkan's first run with and without the on-disk
# pipeline cache. Usage: scripts/gpu-cache-bench.sh [BINARY] [OUT]
#   BINARY: a vyre-certify built with the gpu preset (default build-gpu/vyre-certify)
#   OUT:    where reports and logs go (default /tmp/vyre-cache-bench)
# Prints one line per run: what, wall seconds, exit status, driver_cache.
set -u
cli=${1:-build-gpu/vyre-certify}
out=${2:-/tmp/vyre-cache-bench}
mkdir -p "$out"
cache="$out/cache"
rm -rf "$cache"

# A copy of the binary under a new name: NVIDIA keeps its own shader cache
# per executable, so the copy's first run is what a new build's first run is.
fresh_binary() {
  copy="$out/vyre-certify-$1"
  cp "$cli" "$copy"
  echo "$copy"
}

# One run: a label, the binary, then the CLI's arguments (--out is added).
run() {
  label=$1
  binary=$2
  shift 2
  start=$(date +%s.%N)
  "$binary" "$@" --quiet --out "$out/$label" >"$out/$label.log" 2>&1
  rc=$?
  end=$(date +%s.%N)
  used=$(grep -o '"driver_cache":{[^}]*}' "$out/$label/report.json" 2>/dev/null || echo none)
  printf '%-30s %7.1f s  exit %s  %s\n' "$label" "$(echo "$end - $start" | bc)" "$rc" "$used"
}

run opencl-l5-cold-cache "$cli" --backend opencl --cache-dir "$cache"
run opencl-l5-warm-cache "$cli" --backend opencl --cache-dir "$cache"
run opencl-l5-warm-cache-again "$cli" --backend opencl --cache-dir "$cache"
run opencl-l5-no-cache "$cli" --backend opencl --no-cache
run opencl-l4-runs20-warm "$cli" --backend opencl --level L4 --runs 20 --cache-dir "$cache"

run vulkan-first-run-no-cache "$(fresh_binary a)" --backend vulkan --no-cache
run vulkan-fills-the-cache "$(fresh_binary b)" --backend vulkan --cache-dir "$cache"
run vulkan-first-run-with-cache "$(fresh_binary c)" --backend vulkan --cache-dir "$cache"
run vulkan-warm "$cli" --backend vulkan --cache-dir "$cache"
run vulkan-warm-again "$cli" --backend vulkan --cache-dir "$cache"

# Fuzz: the programs it ran are in its closing lines.
"$cli" fuzz --backend opencl --seconds 60 --quiet --out "$out/fuzz" >"$out/fuzz.log" 2>&1
echo "opencl fuzz, 60 s: $(tail -n 3 "$out/fuzz.log" | tr '\n' ' ')"
du -sh "$cache"
