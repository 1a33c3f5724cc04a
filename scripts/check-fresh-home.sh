#!/usr/bin/env bash
# The README's commands on a machine with no ~/.cache: an empty HOME in a
# temporary folder stands in for a fresh machine. Two things broke there
# once (issue 80) while every CI run, whose HOME had the folders, passed:
# - scripts/env.sh pointed Mesa's shader cache into ~/.cache, which did not
#   exist, and Mesa said so on stderr in every process;
# - the command-line tool's JSON report was then read together with that
#   line, and did not parse.
# This script sources scripts/env.sh with that HOME, checks that every
# folder it names exists, then judges a wrong solution with the built
# command-line tool and `--json` there: stdout must be one JSON document
# with the failing verdict, and Mesa must not have refused its cache.
#
# Usage: scripts/check-fresh-home.sh [path of the gpu-puzzles binary]
# (default: the debug build in cargo's target directory).
set -euo pipefail
cd "$(dirname "$0")/.."

bin="${1:-}"
if [ -z "$bin" ]; then
  target=$(cargo metadata --format-version 1 --no-deps | node -e \
    'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).target_directory))')
  bin="$target/debug/gpu-puzzles"
fi
[ -x "$bin" ] || { echo "check-fresh-home: no gpu-puzzles binary at $bin (build it first: cargo build -p gpu-puzzles-cli)" >&2; exit 1; }

home=$(mktemp -d)
out=$(mktemp)
err=$(mktemp)
trap 'rm -rf "$home" "$out" "$err"' EXIT

# Only what a login on a new machine has: no XDG_* variables, no cache.
status=0
env -i HOME="$home" PATH="/usr/local/bin:/usr/bin:/bin" bash -c '
  set -euo pipefail
  source scripts/env.sh
  for dir in "$MESA_SHADER_CACHE_DIR" "$XDG_RUNTIME_DIR"; do
    [ -d "$dir" ] || { echo "check-fresh-home: scripts/env.sh names $dir, which does not exist" >&2; exit 3; }
  done
  exec "$1" check --puzzle broadcast --solution tests/gpu/solutions/broadcast--swapped-a-b.wgsl --json
' check "$bin" > "$out" 2> "$err" || status=$?

fail() {
  echo "check-fresh-home: $1" >&2
  echo "--- stdout" >&2; cat "$out" >&2
  echo "--- stderr" >&2; cat "$err" >&2
  exit 1
}
[ "$status" -ne 3 ] || fail "a folder named by scripts/env.sh is missing"
# A wrong solution: exit status 1, with the report.
[ "$status" -eq 1 ] || fail "judging a wrong solution exited with $status, not 1"
verdict=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).status)' "$out") \
  || fail "stdout is not one JSON document"
[ "$verdict" = failed ] || fail "the report's status is '$verdict', not 'failed'"
if grep -qi "shader cache" "$err"; then fail "Mesa refused its shader cache"; fi
echo "check-fresh-home: an empty HOME gets its folders, and the JSON report parses (status $verdict)"
