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
# Both binaries first, as web/index.html asks Trunk to build them (the page
# with its split points, feature split-views; the worker without), so that
# Trunk's own cargo runs find them fresh. They are two cargo invocations, one
# after the other, since the features differ (before the split, one
# invocation linked both side by side: 124 s against 203 s for the whole
# script, on 2 cores with the web crate changed).
cargo build --locked --release --target wasm32-unknown-unknown -p gpu-puzzles-web --bin gpu-puzzles-web --features split-views
cargo build --locked --release --target wasm32-unknown-unknown -p gpu-puzzles-web --bin gpu-puzzles-worker
trunk build --release=true "${args[@]}"
if [ -n "$no_solutions" ]; then scripts/remove-solutions.sh "$dist"; fi
