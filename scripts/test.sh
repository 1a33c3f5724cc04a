#!/usr/bin/env bash
# Runs every test: the pure crate's tests, the native GPU tests on a real
# adapter (lavapipe without a GPU), the command-line tool's tests, then the
# browser tests: the release site in headless Chromium with WebGPU
# (SwiftShader), solving every puzzle through the page.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-tools.sh
source scripts/env.sh

echo "== house rules: rustfmt, clippy on native and on wasm32 (warnings denied)"
# The site crate imports the editor bundle, so clippy needs it built.
scripts/build-editor.sh
cargo fmt --all -- --check
cargo clippy --locked --workspace --all-targets -- -D warnings
cargo clippy --locked -p gpu-puzzles-web --target wasm32-unknown-unknown -- -D warnings

echo "== native: cargo test (core, runner, CLI, GPU tests on $WGPU_BACKEND)"
cargo test --locked
# The site's own unit tests (the page-worker protocol), natively.
cargo test --locked -p gpu-puzzles-web --lib

echo "== site: the build refuses a broken puzzle set"
scripts/check-build-refuses-broken-set.sh

echo "== site: release builds, with and without reference solutions"
scripts/build-site.sh
scripts/build-site.sh --no-default-features --dist dist-nosolutions

echo "== browser: headless Chromium with WebGPU"
(cd tests/e2e && npm test)
