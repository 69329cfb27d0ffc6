#!/usr/bin/env bash
# Fails when a file includes a layer above its own: the folder tree is the
# dependency graph (README.md, Layout), in this order, each layer including
# only itself and the layers before it. bench/ is the last layer (a leaf);
# examples/ stand outside the tree, and no layer includes them.
set -euo pipefail
cd "$(dirname "$0")/.."

layers=(spec reference backends archetypes generators certify tests bench)
rank_of() {
  local i
  for i in "${!layers[@]}"; do
    if [ "${layers[$i]}" = "$1" ]; then
      echo "$i"
      return
    fi
  done
  echo -1
}

violations=0
checked=0
while IFS= read -r file; do
  own=${file%%/*}
  own_rank=$(rank_of "$own")
  [ "$own_rank" -ge 0 ] || continue
  checked=$((checked + 1))
  while IFS= read -r line; do
    target=${line#*\"}
    target=${target%%\"*}
    if [[ "$target" == examples/* ]]; then
      echo "$file: includes $target, an example outside the layers" >&2
      violations=$((violations + 1))
      continue
    fi
    rank=$(rank_of "${target%%/*}")
    if [ "$rank" -gt "$own_rank" ]; then
      echo "$file: includes $target, a layer above ${own}/" >&2
      violations=$((violations + 1))
    fi
  done < <(grep -E '^\s*#\s*include\s+"' "$file" || true)
done < <(git ls-files '*.h' '*.cc' '*.def')

# Inside backends/: the GPU backends share the C-like lowering (clike/) and
# the seeded-bug catalogue (mutants/), and include neither each other nor
# anything of theirs from clike/ or mutants/ (issue 25).
declare -A may_not_include=(
  [backends/clike]="backends/vulkan backends/opencl"
  [backends/mutants]="backends/clike backends/vulkan backends/opencl"
  [backends/vulkan]="backends/opencl"
  [backends/opencl]="backends/vulkan"
)
for folder in "${!may_not_include[@]}"; do
  for forbidden in ${may_not_include[$folder]}; do
    while IFS= read -r hit; do
      echo "$hit: $folder may not include $forbidden/" >&2
      violations=$((violations + 1))
    done < <(git ls-files "$folder/*.h" "$folder/*.cc" "$folder/*.def" |
             xargs -r grep -nE "^\s*#\s*include\s+\"$forbidden/" || true)
  done
done

if [ "$checked" -eq 0 ]; then
  echo "check-layers: no source file found; nothing was checked" >&2
  exit 1
fi
if [ "$violations" -ne 0 ]; then
  echo "check-layers: $violations include(s) point up the layer order" >&2
  exit 1
fi
echo "check-layers: $checked files, every include points down the layer order"
