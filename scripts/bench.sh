#!/usr/bin/env bash
# Benchmarks (not tests): download size, start-up and run latency in headless
# Chromium (SwiftShader) against a hand-written WebGPU baseline, the native
# check's wall time, and the instrumentation overhead. Prints tables; writes
# target/bench/results.json. BENCH_LOADS and BENCH_RUNS change the counts.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-tools.sh
source scripts/env.sh
scripts/build-site.sh
cargo build --release --locked -p gpu-puzzles-cli
node tests/e2e/bench.mjs
echo
echo "== Run latency in Firefox ESR (its WebGPU), against the same baseline there"
node tests/e2e/bench-firefox.mjs
echo
echo "== the CPU interpreter in the page (no WebGPU), and the debugger"
node tests/e2e/bench-debugger.mjs
echo
echo "== instrumentation overhead (native)"
cargo bench --locked -p gpu-puzzles-tests --bench instrument 2>&1 | grep -vE '^\s+(Compiling|Finished|Running)'
