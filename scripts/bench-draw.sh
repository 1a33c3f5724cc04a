#!/usr/bin/env bash
# The pictures' benchmark (issue 83): how long the page takes to draw an
# image of 1024 × 1024 (its view model and the canvas), and how fast it plays
# the frames of a 256 × 256 grid, in Chromium (tests/e2e/bench-draw.mjs).
#
# No puzzle of the course has a shown case that large, so this builds the
# site from a puzzle set of its own (GPU_PUZZLES_SET, as a workshop would):
# one puzzle made from Jacobi's manifest and our solution, with two cases,
# 1024 × 1024 for one step and 256 × 256 for 240 steps.
#
#   scripts/bench-draw.sh                 build that site in /tmp, then run the benchmark
#   scripts/bench-draw.sh --set           only write the puzzle set (BENCH_SET, default below)
#   GPU_PUZZLES_DIST=DIR scripts/bench-draw.sh   run it on a site built before
#
# It prints figures; it asserts nothing about them (docs/performance.md
# keeps them).
set -euo pipefail
cd "$(dirname "$0")/.."
set_dir=${BENCH_SET:-/tmp/gpu-puzzles-bench-draw}
if [ -z "${GPU_PUZZLES_DIST:-}" ]; then
  rm -rf "$set_dir" && mkdir -p "$set_dir/puzzles/draw" "$set_dir/shaders"
  cp puzzles/jacobi/starter.wgsl "$set_dir/puzzles/draw/"
  cp shaders/jacobi.wgsl "$set_dir/shaders/draw.wgsl"
  python3 - "$set_dir" <<'PY'
import re, sys
root = sys.argv[1]
s = open("puzzles/jacobi/puzzle.toml").read()
# Jacobi's buffers, uniforms and dispatch list; none of its cases, promises
# or random cases, and a tolerance for 240 steps (7.25·K·u·M, K = 240,
# M = 100: 0.01).
s = s[: s.index("[[case]]")] if "[[case]]" in s else s
s = re.sub(r"\[\[promise\]\]\n(?:[^\[\n][^\n]*\n|\n)*", "", s)
# Promises the three cases below reach at both ends.
for of, lo, hi in [("workgroup_size.x", 16, 16), ("workgroup_size.y", 16, 16),
                   ("params.rows", 64, 1024), ("params.cols", 64, 1024),
                   ("params.steps", 1, 240), ("a", 0, 100)]:
    s += f'\n[[promise]]\nof = "{of}"\nwhat = "{of}"\nrange = [{lo}, {hi}]\n'

s = s.replace('title = "Jacobi', 'title = "Drawing benchmark (Jacobi').replace("compare = { abs = 1e-3 }", "compare = { abs = 0.05 }")
s = re.sub(r'^title = "Drawing benchmark \(Jacobi[^"]*"', 'title = "Drawing benchmark (Jacobi steps)"', s, flags=re.M)
s += '''
[[case]]
name = "1024 × 1024, one step"
workgroup_size = [16, 16, 1]
workgroups = [64, 64, 1]
uniforms.params = { rows = 1024, cols = 1024, steps = 1 }
buffers.a = { random = { len = 1048576, min = 0, max = 100, seed = 1 }, shape = [1024, 1024] }
buffers.b = { len = 1048576, shape = [1024, 1024] }

[[case]]
name = "256 × 256, 240 steps"
workgroup_size = [16, 16, 1]
workgroups = [16, 16, 1]
uniforms.params = { rows = 256, cols = 256, steps = 240 }
buffers.a = { random = { len = 65536, min = 0, max = 100, seed = 2 }, shape = [256, 256] }
buffers.b = { len = 65536, shape = [256, 256] }

[[case]]
name = "hidden: 64 × 64, 4 steps"
hidden = true
workgroup_size = [16, 16, 1]
workgroups = [4, 4, 1]
uniforms.params = { rows = 64, cols = 64, steps = 4 }
buffers.a = { random = { len = 4096, min = 0, max = 100, seed = 3 }, shape = [64, 64] }
buffers.b = { len = 4096, shape = [64, 64] }
'''
open(f"{root}/puzzles/draw/puzzle.toml", "w").write(s)
open(f"{root}/puzzles/draw/statement.md", "w").write(
    "# Drawing benchmark\n\nJacobi's steps on grids large enough to time the page's pictures: "
    "an image of 1024 × 1024 after one step, and 240 steps of a 256 × 256 grid to play.\n\n"
    "## Sizes\n\n{{sizes}}\n")
open(f"{root}/puzzles/index.toml", "w").write(
    'format_version = 1\n\n[[chapter]]\ntitle = "Benchmark"\npuzzles = ["draw"]\n')
PY
  [ "${1:-}" = "--set" ] && exit 0
  export GPU_PUZZLES_DIST=/tmp/gpu-puzzles-bench-draw-dist
  GPU_PUZZLES_SET="$set_dir" scripts/build-site.sh --dist "$GPU_PUZZLES_DIST"
fi
cd tests/e2e && node bench-draw.mjs
