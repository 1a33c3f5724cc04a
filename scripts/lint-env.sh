# Sourced by scripts/test.sh: clippy's lints, warnings denied, applied by the
# builds themselves rather than by a `cargo clippy` of their own.
#
# `cargo clippy` runs `cargo check` with clippy-driver as the compiler of the
# workspace's crates (RUSTC_WORKSPACE_WRAPPER) and its arguments in
# CLIPPY_ARGS. The same two variables on `cargo test` and on Trunk's wasm32
# release build lint the same crates, targets and cfgs (native with
# `--all-targets`; wasm32 as the site is built), while every dependency is
# compiled once by plain rustc and shared with the tests. clippy-driver is a
# full rustc, so the artefacts it makes are the ones the tests run. Cargo
# fingerprints the wrapper: a build without these variables (serve.sh)
# recompiles the workspace's crates, never the dependencies.
clippy_driver="$(rustup which clippy-driver)"
export RUSTC_WORKSPACE_WRAPPER="$clippy_driver"
# clippy-driver splits CLIPPY_ARGS on this separator, as cargo-clippy writes it.
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
