#!/usr/bin/env bash
# Installs what building and testing GPU Puzzles needs, and only what is
# missing, so it is quick on a machine that already has everything.
# Versions: see ../shared/TOOLCHAIN.md (the set verified to work together).
#
# On a fresh machine this is the first phase of scripts/test.sh, so it is
# arranged for time: the Debian packages and the npm packages (bound by the
# network and the disk) install in the background while the two
# `cargo install`s (bound by the CPU) run in the foreground; the script waits
# for all of them before it returns, and fails if any of them failed.
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130
WASM_SPLIT_VERSION=0.2.4
say() { printf '\033[1m[ensure-tools]\033[0m %s\n' "$*"; }
logs=$(mktemp -d)

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "need root to run: $*" >&2; return 1; fi
}

# Debian packages: lavapipe (Vulkan on the CPU) for native GPU tests and
# Firefox's WebGPU; Chromium, Firefox ESR and WebKitGTK for browser tests;
# Node.js for the editor bundle and the test drivers.
missing=()
dpkg -s mesa-vulkan-drivers >/dev/null 2>&1 || missing+=(mesa-vulkan-drivers)
dpkg -s chromium >/dev/null 2>&1 || missing+=(chromium)
dpkg -s firefox-esr >/dev/null 2>&1 || missing+=(firefox-esr)
# Safari's engine without WebGPU: WebKitGTK's WebDriver and MiniBrowser, under Xvfb.
for pkg in webkit2gtk-driver xvfb xauth; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
apt_pid=
if [ ${#missing[@]} -gt 0 ]; then
  say "installing Debian packages in the background: ${missing[*]}"
  ( as_root apt-get update -qq &&
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" ) >"$logs/apt" 2>&1 &
  apt_pid=$!
fi

# npm packages: CodeMirror, esbuild and binaryen (wasm-opt) for the site;
# playwright-core and puppeteer-core for the browser tests, @axe-core/playwright
# for their accessibility audit (they drive Debian's
# Chromium and Firefox ESR; neither downloads a browser). They need Node.js,
# so where apt brings it they wait for apt.
npm_pid=
npm_dirs=()
for dir in web/editor tests/e2e; do
  if [ ! -d "$dir/node_modules" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    npm_dirs+=("$dir")
  fi
done
if [ ${#npm_dirs[@]} -gt 0 ]; then
  say "npm ci in the background: ${npm_dirs[*]}"
  (
    if ! command -v npm >/dev/null 2>&1 && [ -n "$apt_pid" ]; then
      while kill -0 "$apt_pid" 2>/dev/null; do sleep 2; done
    fi
    for dir in "${npm_dirs[@]}"; do
      (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    done
  ) >"$logs/npm" 2>&1 &
  npm_pid=$!
fi

# Rust: the wasm target and the two build tools, at the versions Trunk expects.
export PATH="$HOME/.cargo/bin:$PATH"
command -v cargo >/dev/null || { echo "cargo not found: install Rust with rustup (https://rustup.rs)" >&2; exit 1; }
rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown || { say "adding the wasm32 target"; rustup target add wasm32-unknown-unknown; }
for c in clippy rustfmt; do
  rustup component list --installed 2>/dev/null | grep -q "^$c" || { say "adding the $c component"; rustup component add "$c"; }
done
if [ "$(trunk --version 2>/dev/null || true)" != "trunk $TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION (about 3 minutes on 2 cores, once)"
  # An unoptimised build without debug information: Trunk only orchestrates
  # the site's build (cargo, wasm-bindgen and wasm-opt do the work, and its
  # own share of a build stayed under a second), and its release profile
  # (fat LTO, one codegen unit) took about 11 minutes on 2 cores against
  # 171 s this way (docs/performance.md, 2026-11-27, third stop).
  CARGO_PROFILE_DEV_DEBUG=0 cargo install "trunk@$TRUNK_VERSION" --locked --debug --quiet
fi
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 90 s on 2 cores, once)"
  # Unoptimised too: 80 s to build, and it then takes about 1.5 s longer
  # per wasm file than an optimised build (2.1 s against 0.85 s on the
  # judge's worker), a few seconds per CI run.
  # Not --locked: the locked graph names a webpki-roots the registry no longer serves.
  CARGO_PROFILE_DEV_DEBUG=0 cargo install "wasm-bindgen-cli@$WASM_BINDGEN_VERSION" --debug --quiet
fi

# wasm-split, which cuts the page's wasm at its split points before
# wasm-bindgen (scripts/split/wasm-bindgen). Unoptimised as well: 20 s to
# build against 51 s optimised, and it then splits the site's 6 MB wasm in
# 0.26 s against 0.06 s, with byte-identical output (docs/performance.md,
# 2026-12-03, twenty-fifth session).
if ! command -v wasm-split-cli >/dev/null || [ "$(cat "$HOME/.cargo/.wasm-split-version" 2>/dev/null)" != "$WASM_SPLIT_VERSION" ]; then
  say "installing wasm_split_cli_support $WASM_SPLIT_VERSION (about 30 s on 2 cores, once)"
  CARGO_PROFILE_DEV_DEBUG=0 cargo install "wasm_split_cli_support@$WASM_SPLIT_VERSION" --locked --features build-binary --debug --quiet
  echo "$WASM_SPLIT_VERSION" > "$HOME/.cargo/.wasm-split-version"
fi

# Dependencies for Trunk's offline cargo build.
cargo fetch --quiet

# Wait for the background installs; a failure shows its log.
for job in apt npm; do
  pid_var="${job}_pid"
  pid=${!pid_var}
  [ -n "$pid" ] || continue
  if ! wait "$pid"; then
    echo "ensure-tools: the $job install failed:" >&2
    cat "$logs/$job" >&2
    exit 1
  fi
  say "$job install done"
done
rm -rf "$logs"
