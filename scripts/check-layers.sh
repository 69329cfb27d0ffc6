#!/usr/bin/env bash
# Fails when an include breaks the architecture the folder tree shows
# (README.md, Layout):
#  1. layers: a file includes only its own layer and the layers before it in
#     `layers` below (bench/ last, a leaf; examples/ stand outside the tree
#     and no layer includes them);
#  2. folders: a folder's files include only their own folder and the
#     folders the table below lets it depend on. Tests (*_test.cc) and fuzz
#     targets (fuzz_*.cc) are leaves nothing includes, so they may include
#     any folder of the layers at or below theirs (rule 1 still holds);
#  3. the table has no cycle (tsort) and no entry pointing up the layers, and
#     every folder holding sources has an entry.
set -euo pipefail
cd "$(dirname "$0")/.."

layers=(spec reference backends archetypes generators certify tests bench)

# folder: the folders its files may include (a layer's root files are the
# layer's name alone, e.g. `backends`). One line per folder, so a new
# dependency is one edit here, seen in review.
read -r -d '' table <<'TABLE' || true
spec/support:
spec/ir: spec/support
spec/text: spec/ir spec/support
spec/validate: spec/ir spec/text spec/support
reference/ops: spec/ir spec/support
reference/graph: spec/support
reference: spec/ir spec/support
reference/observers: reference spec/ir spec/support
reference/exec: reference reference/observers reference/ops spec/ir spec/support spec/validate
reference/spec_tables: spec/ir spec/support
backends: reference spec/ir spec/support spec/validate
backends/mutants:
backends/clike: backends/mutants spec/ir spec/support spec/validate
backends/vulkan: backends backends/clike backends/mutants spec/ir spec/support spec/validate
backends/opencl: backends backends/clike backends/mutants spec/ir spec/support spec/validate
backends/isolation: backends spec/ir spec/support spec/text
backends/isolation/testing: backends backends/isolation spec/ir
backends/fault_injection: backends backends/isolation spec/ir spec/support spec/text
backends/plugin: backends backends/fault_injection backends/isolation spec/ir spec/support spec/text
backends/cuda: backends backends/clike spec/ir spec/support
backends/registry: backends backends/cuda backends/opencl backends/vulkan spec/ir spec/support
archetypes/graph: backends reference/graph spec/ir spec/support
archetypes/dataflow: archetypes/graph backends reference/graph spec/ir spec/support
generators: reference/graph spec/ir spec/support spec/text spec/validate
certify/suite: archetypes/dataflow archetypes/graph backends generators reference reference/graph reference/spec_tables spec/ir spec/support spec/text
certify/report: backends certify/suite spec/ir spec/support spec/text
certify/gate: certify/report certify/suite spec/support
certify/run: archetypes/graph backends certify/gate certify/report certify/suite generators reference spec/ir spec/support spec/text
certify/cli: archetypes/dataflow backends backends/cuda backends/fault_injection backends/isolation generators backends/opencl backends/plugin backends/registry backends/vulkan certify/gate certify/report certify/run certify/suite reference spec/ir spec/support spec/text spec/validate
tests: archetypes/dataflow backends backends/registry reference/graph spec/ir
tests/cuda_c:
bench/backends: archetypes/graph backends backends/registry generators reference/graph spec/ir
bench/certify: backends backends/registry certify/run certify/suite
bench/graph: archetypes/dataflow archetypes/graph backends backends/registry generators reference reference/graph
bench/reference: reference spec/ir
TABLE

declare -A layer_rank
for i in "${!layers[@]}"; do layer_rank[${layers[$i]}]=$i; done
# Sets `rank` to layer $1's place in `layers` (-1 outside them); no
# subshell, as it runs once per include.
rank_of() {
  rank=${layer_rank[$1]:--1}
}

# A test or fuzz target: a leaf nothing includes (rule 2 does not bind it).
is_leaf() {
  local base=${1##*/}
  [[ "$base" == *_test.cc || "$base" == fuzz_*.cc ]]
}

declare -A allowed
edges=""
violations=0
while IFS= read -r line; do
  [ -n "$line" ] || continue
  folder=${line%%:*}
  deps=${line#*:}
  allowed[$folder]=" ${deps} "
  rank_of "${folder%%/*}"
  own_rank=$rank
  edges+="$folder $folder"$'\n'
  for dep in $deps; do
    edges+="$dep $folder"$'\n'
    rank_of "${dep%%/*}"
    if [ "$rank" -gt "$own_rank" ]; then
      echo "check-layers: the table lets $folder depend on $dep, a layer above it" >&2
      violations=$((violations + 1))
    fi
  done
done <<<"$table"
if ! loop=$(printf '%s' "$edges" | tsort 2>&1 >/dev/null) || [ -n "$loop" ]; then
  echo "check-layers: the folder table has a cycle:" >&2
  echo "$loop" >&2
  violations=$((violations + 1))
fi

mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.h' '*.cc' '*.def')
checked=0
for file in "${files[@]}"; do
  rank_of "${file%%/*}"
  [ "$rank" -ge 0 ] || continue
  checked=$((checked + 1))
  folder=${file%/*}
  if ! is_leaf "$file" && [ -z "${allowed[$folder]+set}" ]; then
    echo "$file: its folder $folder is not in scripts/check-layers.sh's table; add it with the folders it may include" >&2
    violations=$((violations + 1))
  fi
done

# Every include of every file, as FILE:LINE, read by one grep.
while IFS= read -r hit; do
  file=${hit%%:*}
  own=${file%%/*}
  rank_of "$own"
  own_rank=$rank
  [ "$own_rank" -ge 0 ] || continue
  folder=${file%/*}
  target=${hit#*\"}
  target=${target%%\"*}
  if [[ "$target" == examples/* ]]; then
    echo "$file: includes $target, an example outside the layers" >&2
    violations=$((violations + 1))
    continue
  fi
  rank_of "${target%%/*}"
  if [ "$rank" -gt "$own_rank" ]; then
    echo "$file: includes $target, a layer above ${own}/" >&2
    violations=$((violations + 1))
    continue
  fi
  [ "$rank" -ge 0 ] || continue
  is_leaf "$file" && continue
  target_folder=${target%/*}
  [ "$target_folder" = "$folder" ] && continue
  if [ -n "${allowed[$folder]+set}" ] && [[ "${allowed[$folder]}" != *" $target_folder "* ]]; then
    echo "$file: includes $target, but $folder may not depend on $target_folder (scripts/check-layers.sh's table)" >&2
    violations=$((violations + 1))
  fi
done < <(grep -HE '^\s*#\s*include\s+"' "${files[@]}" || true)

if [ "$checked" -eq 0 ]; then
  echo "check-layers: no source file found; nothing was checked" >&2
  exit 1
fi
if [ "$violations" -ne 0 ]; then
  echo "check-layers: $violations violation(s) of the layer and folder order" >&2
  exit 1
fi
echo "check-layers: $checked files, every include points down the layers and the folder table"
