//! ARCHITECTURE.md's invariants that a test can check: what the pure crates
//! must not depend on. Read from `cargo tree` (offline, from Cargo.lock).

use std::process::Command;

fn dependencies(package: &str) -> Vec<String> {
    let out = Command::new(env!("CARGO"))
        .args(["tree", "--offline", "-p", package, "-e", "normal", "--prefix", "none", "--format", "{p}"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let names: Vec<String> = text.lines().filter_map(|l| l.split_whitespace().next()).map(str::to_string).collect();
    assert!(names.len() > 3, "cargo tree listed nothing for {package}: {text}");
    names
}

fn assert_free_of(package: &str, forbidden: &[&str]) {
    let deps = dependencies(package);
    for f in forbidden {
        assert!(!deps.iter().any(|d| d == f), "{package} must not depend on {f} (ARCHITECTURE.md), but its tree has it");
    }
}

#[test]
fn core_knows_no_gpu_dom_or_ui_crate() {
    assert_free_of("gpu-puzzles-core", &["wgpu", "naga", "web-sys", "js-sys", "wasm-bindgen", "leptos"]);
}

#[test]
fn the_instrumentation_knows_no_wgpu_and_no_dom() {
    assert_free_of("gpu-puzzles-instrument", &["wgpu", "web-sys", "js-sys", "leptos"]);
}

#[test]
fn the_runner_knows_no_ui() {
    assert_free_of("gpu-puzzles-runner", &["leptos"]);
}
