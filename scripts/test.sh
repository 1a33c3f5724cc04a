#!/usr/bin/env bash
# Runs every test: the pure crate's tests, the native GPU tests on a real
# adapter (lavapipe without a GPU), the command-line tool's tests, then the
# browser tests: the release site in headless Chromium with WebGPU
# (SwiftShader), solving every puzzle through the page; beside it, Firefox
# ESR with its own WebGPU (wgpu on lavapipe): every puzzle once, and the
# journeys; then the no-WebGPU journeys in WebKitGTK, Safari's engine.
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

phase "native: cargo test (core, runner, CLI, site protocol, GPU tests on $WGPU_BACKEND, seed sweep), the site's builds beside it"
# The site's two builds run beside the native tests: the check that the
# build refuses a broken puzzle set, then the release build and its copy
# without our reference solutions (no second compile). Alone they kept 1.4
# to 2 cores busy for about 175 s, the tests 1.9 for 790 s: side by side
# each fills the other's idle moments. Cargo holds the target directory's
# lock only while it compiles, not while the tests run, so neither waits
# on the other. The builds' output comes when the tests end.
site_log=$(mktemp)
(
  scripts/check-build-refuses-broken-set.sh
  scripts/build-site.sh
  scripts/remove-solutions.sh dist dist-nosolutions
) > "$site_log" 2>&1 &
site_builds=$!
# The same packages as the build above, so cargo resolves the same features
# and reuses every artefact.
native_rc=0
# The README's commands on a machine with no ~/.cache (an empty HOME): the
# folders scripts/env.sh names exist, and the command-line tool's JSON
# report parses whatever the driver prints on stderr.
scripts/check-fresh-home.sh || native_rc=$?
[ "$native_rc" -ne 0 ] || cargo test --locked --workspace || native_rc=$?
if [ "$native_rc" -ne 0 ]; then
  # Stop the builds (cargo, rustc, Trunk) rather than leave them running.
  kill_tree() { local c; for c in $(pgrep -P "$1"); do kill_tree "$c"; done; kill "$1" 2>/dev/null || true; }
  kill_tree "$site_builds"
  exit "$native_rc"
fi

phase "site: the builds' end (the broken-set check, the release build and its copy without our solutions)"
site_rc=0
wait "$site_builds" || site_rc=$?
cat "$site_log"
rm -f "$site_log"
if [ "$site_rc" -ne 0 ]; then
  echo "site: the builds failed (exit $site_rc; their output above)" >&2
  exit "$site_rc"
fi

phase "browser: Chromium's (WebGPU on SwiftShader), Firefox ESR's (wgpu on lavapipe) and WebKitGTK's (no WebGPU) suites in two queues side by side"
# Two queues side by side: alone, Chromium's suite kept 1.6 of 2 cores busy
# and Firefox's 1.2 (a page waits on its GPU process, its worker and the
# test's polling), so one after the other they left cores idle. The first
# queue is Chromium's site journeys (`npm run test:site`: every puzzle
# solved through the page, the held solutions judged), then WebKit's
# suite, then Chromium's debugger file (`npm run test:debugger`), then the
# accessibility audit (`npm run test:a11y`: axe-core in both themes), then every
# held solution judged against the native verdict (`npm run test:held`,
# issue 88; Firefox's suite does the same in its engine); the
# second Firefox's suite, then Chromium's comforts, robustness and capstone
# files (`npm run test:long`), so that the two end near one another
# (docs/performance.md: the debugger's 29 s moved queues in the
# twenty-first session, when the second queue ended 57 s after the
# first). Each file has its own browser, server and pages. The first
# queue's output comes as it runs, the second's when it ends.
e2e_log=$(mktemp)
other_log=$(mktemp)
# queued NAME SCRIPT: runs `npm run SCRIPT`, its output and then its time
# under NAME into $other_log; fails when it fails.
queued() {
  local start=$SECONDS status=0
  npm run "$2" >> "$other_log" 2>&1 || status=1
  echo "$1: $((SECONDS - start)) s" >> "$other_log"
  return $status
}
(
  cd tests/e2e
  rc=0
  queued "Firefox ESR suite" test:firefox || rc=1
  queued "Chromium, the comforts, robustness and the capstone" test:long || rc=1
  exit $rc
) &
others=$!
# shown NAME SCRIPT: runs `npm run SCRIPT`, its output shown as it comes
# and kept in $e2e_log, then its time under NAME; fails when it fails.
shown() {
  local start=$SECONDS status=0
  (cd tests/e2e && npm run "$2") 2>&1 | tee -a "$e2e_log" || status=1
  echo "$1: $((SECONDS - start)) s"
  return $status
}
chromium_rc=0
shown "Chromium, the site's journeys" test:site || chromium_rc=1
shown "WebKitGTK suite" test:webkit || chromium_rc=1
shown "Chromium, the debugger" test:debugger || chromium_rc=1
shown "Chromium, the accessibility audit (axe-core, both themes)" test:a11y || chromium_rc=1
shown "Chromium, every held wrong solution against the native verdict" test:held || chromium_rc=1
others_rc=0
wait "$others" || others_rc=1
tee -a "$e2e_log" < "$other_log"
rm -f "$other_log"
sum() { grep -oP "^ℹ $1 \\K\\d+" "$e2e_log" | awk '{ s += $1 } END { print s + 0 }'; }
if [ "$chromium_rc" -ne 0 ] || [ "$others_rc" -ne 0 ]; then
  printf "browser: %d passed, %d failed (Chromium's site journeys, then WebKit, then Chromium's debugger, exit %d; Firefox, then Chromium's comforts, robustness and capstone, %d)\n" \
    "$(sum pass)" "$(sum fail)" "$chromium_rc" "$others_rc" >&2
  exit 1
fi
summary
# The browser suites' counts last, as the test runner's closing line.
printf 'browser: %d passed, %d failed\n' "$(sum pass)" "$(sum fail)"
rm -f "$e2e_log"
