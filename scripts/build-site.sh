#!/usr/bin/env bash
# Release build of the site into dist/ (static files for any host and path),
# with our reference solutions as files in dist/solutions/ (fetched only when
# asked for). --no-solutions leaves them out (scripts/remove-solutions.sh).
# Other arguments go to trunk, e.g. --dist <dir>.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
scripts/build-editor.sh
args=() dist=dist no_solutions=
while [ $# -gt 0 ]; do
  case $1 in
    --no-solutions) no_solutions=1 ;;
    --dist) dist=$2; args+=("$1" "$2"); shift ;;
    --dist=*) dist=${1#--dist=}; args+=("$1") ;;
    *) args+=("$1") ;;
  esac
  shift
done
# Both binaries first, in one cargo invocation: Trunk builds the page's and
# the worker's wasm with a cargo run each, and the second waits for the
# first's lock on the target directory, so their link-time optimisations
# (each single-threaded) ran one after the other. Here cargo links them side
# by side, and Trunk's own runs find them fresh. Measured on 2 cores with
# the web crate changed: the whole script 203 s before, 124 s after.
cargo build --locked --release --target wasm32-unknown-unknown -p gpu-puzzles-web --bins
trunk build --release=true "${args[@]}"
if [ -n "$no_solutions" ]; then scripts/remove-solutions.sh "$dist"; fi
