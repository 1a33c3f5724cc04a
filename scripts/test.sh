#!/usr/bin/env bash
# Runs every test: the pure crate's tests, the native GPU tests on a real
# adapter (lavapipe without a GPU), the command-line tool's tests, then the
# browser tests: the release site in headless Chromium with WebGPU
# (SwiftShader), solving every puzzle through the page, then in Firefox ESR
# with its own WebGPU (wgpu on lavapipe): every puzzle once, and the journeys;
# then the no-WebGPU journeys in WebKitGTK, Safari's engine.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each phase's wall time and the cores the machine kept busy meanwhile (the
# CPU time /proc/stat counts over the wall time: what a phase could gain by
# running more at once; a browser's processes escape a shell's own
# accounting of its children), printed as it ends and again in a table at
# the end.
PHASES=()
phase_start=$SECONDS
phase_name="tools: install what is missing"
# Busy CPU time of the whole machine so far, in clock ticks (user, nice,
# system, irq, softirq, steal).
busy_ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }
phase_busy=$(busy_ticks)
phase() {
  local took=$((SECONDS - phase_start)) busy cores
  busy=$(busy_ticks)
  cores=$(awk -v b=$((busy - phase_busy)) -v t="$took" -v hz="$(getconf CLK_TCK)" \
    'BEGIN { printf "%.1f", (t > 0 ? b / hz / t : 0) }')
  PHASES+=("$(printf '%5d s  %4s cores  %s' "$took" "$cores" "$phase_name")")
  printf '\033[1m[%d s, %s cores busy]\033[0m %s\n' "$took" "$cores" "$phase_name"
  phase_name="$1"
  phase_start=$SECONDS
  phase_busy=$busy
  echo "== $1"
}
summary() {
  phase "done"
  echo "== time per phase"
  printf '%s\n' "${PHASES[@]}"
  printf '%5d s  in all\n' "$SECONDS"
}
# On failure too, so a slow or failing phase shows its time.
trap 'status=$?; [ "$phase_name" = done ] || summary; exit $status' EXIT

scripts/ensure-tools.sh
source scripts/env.sh

phase "house rules: rustfmt; the native build, linted by clippy as it compiles (warnings denied)"
# The site crate imports the editor bundle, so the native build needs it.
scripts/build-editor.sh
cargo fmt --all -- --check
# Clippy's lints ride on the builds themselves (scripts/lint-env.sh): the
# workspace's crates are compiled by clippy-driver, the dependencies by
# rustc once, for the tests and the lints alike, where `cargo clippy` would
# have compiled every dependency a second time in check mode (about 900 s
# on 2 cores from a cold cache, native and wasm32 together).
source scripts/lint-env.sh
cargo test --locked --workspace --all-targets --no-run

phase "native: cargo test (core, runner, CLI, site protocol, GPU tests on $WGPU_BACKEND, seed sweep)"
# The same packages as the build above, so cargo resolves the same features
# and reuses every artefact.
cargo test --locked --workspace

phase "site: the build refuses a broken puzzle set"
scripts/check-build-refuses-broken-set.sh

phase "site: the release build, and a copy without our reference solutions (no second compile)"
scripts/build-site.sh
scripts/remove-solutions.sh dist dist-nosolutions

phase "browser: headless Chromium with WebGPU"
e2e_log=$(mktemp)
(cd tests/e2e && npm test) 2>&1 | tee "$e2e_log"

phase "browser: Firefox ESR with WebGPU (wgpu on lavapipe): every puzzle once, and the journeys"
(cd tests/e2e && npm run test:firefox) 2>&1 | tee -a "$e2e_log"

phase "browser: WebKitGTK (Safari's engine) without WebGPU, under Xvfb: the journeys"
(cd tests/e2e && npm run test:webkit) 2>&1 | tee -a "$e2e_log"
summary
# The browser suite's counts last, as the test runner's closing line.
sum() { grep -oP "^ℹ $1 \\K\\d+" "$e2e_log" | awk '{ s += $1 } END { print s + 0 }'; }
printf 'browser: %d passed, %d failed\n' "$(sum pass)" "$(sum fail)"
rm -f "$e2e_log"
