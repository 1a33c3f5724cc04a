#!/usr/bin/env bash
# The site's build must refuse a broken puzzle set with the loader's messages
# (file, line, field), as `gpu-puzzles check` does. Builds the web crate
# against a copy of the puzzles with one manifest broken, expects failure.
# The build is the native one of the tests (the same build script, the same
# messages), with the page's feature on, which no other native build turns
# on: a build script that fails leaves its unit to be run again, and its
# crate compiled again, by the next build of that unit. Built for wasm32 in
# release with no feature, that unit was the judge's worker's, whose build
# (76 s of a core, with link-time optimisation) then ran in every CI run
# even with nothing changed; this one belongs to no other build.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r puzzles shaders "$tmp/"
map_line=$(grep -n 'workgroup_size = \[6, 1, 1\]' "$tmp/puzzles/map/puzzle.toml" | head -1 | cut -d: -f1)
sed -i '0,/workgroup_size = \[6, 1, 1\]/s//workgroup_size = [6, 1]/' "$tmp/puzzles/map/puzzle.toml"
sed -i '0,/^binding = 1$/s//binding = 0/' "$tmp/puzzles/zip/puzzle.toml"
if out=$(GPU_PUZZLES_SET="$tmp" cargo build -p gpu-puzzles-web --lib --features split-views 2>&1); then
  echo "FAIL: the site built from a broken puzzle set" >&2
  exit 1
fi
for want in "puzzles/map/puzzle.toml:$map_line:18: workgroup_size:" "puzzles/zip/puzzle.toml:16: buffer \`b\`: binding 0 is also used by \`a\`"; do
  if ! grep -qF "$want" <<<"$out"; then
    echo "FAIL: the build's messages lack '$want':" >&2
    echo "$out" | grep -E "warning|error" | head -20 >&2
    exit 1
  fi
done
echo "ok: the site's build refuses a broken puzzle set, naming the files, lines and fields"
grep -E "cargo:warning=puzzles/" <<<"$out" | sed "s/.*cargo:warning=/  /" | sort -u
