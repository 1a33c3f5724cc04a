//! ARCHITECTURE.md's invariants that a test can check: what the pure crates
//! must not depend on. Read from `cargo tree` (offline, from Cargo.lock).

use std::process::Command;

fn dependencies(package: &str) -> Vec<String> {
    let names = dependencies_or_self(package);
    assert!(names.len() > 3, "cargo tree listed almost nothing for {package}: {names:?}");
    names
}

fn assert_free_of(package: &str, forbidden: &[&str]) {
    let deps = dependencies(package);
    for f in forbidden {
        assert!(
            !deps.iter().any(|d| d == f),
            "{package} must not depend on {f} (ARCHITECTURE.md), but its tree has it"
        );
    }
}

#[test]
fn core_and_the_verdict_know_no_gpu_dom_or_ui_crate() {
    for package in ["gpu-puzzles-core", "gpu-puzzles-verdict"] {
        assert_free_of(package, &["wgpu", "naga", "web-sys", "js-sys", "wasm-bindgen", "leptos"]);
    }
}

/// The project's crates, lowest first: each may depend on those before it
/// and on none after it, so no import runs back up (ARCHITECTURE.md's map).
const LAYERS: [&str; 9] = [
    "gpu-puzzles-values",
    "gpu-puzzles-reference",
    "gpu-puzzles-core",
    "gpu-puzzles-verdict",
    "gpu-puzzles-instrument",
    "gpu-puzzles-interp",
    "gpu-puzzles-runner",
    "gpu-puzzles-cli",
    "gpu-puzzles-web",
];

#[test]
fn the_crates_stand_in_layers_and_none_imports_upward() {
    for (i, package) in LAYERS.iter().enumerate() {
        let deps = dependencies_or_self(package);
        for above in &LAYERS[i + 1..] {
            assert!(
                !deps.iter().any(|d| d == above),
                "{package} depends on {above}, which stands above it (ARCHITECTURE.md)"
            );
        }
    }
    // The floor knows no other crate of ours, and the references only the floor.
    assert!(dependencies_or_self("gpu-puzzles-values")
        .iter()
        .all(|d| d == "gpu-puzzles-values" || !d.starts_with("gpu-puzzles-")));
    let reference = dependencies_or_self("gpu-puzzles-reference");
    let ours: Vec<&String> = reference.iter().filter(|d| d.starts_with("gpu-puzzles-")).collect();
    assert_eq!(ours, ["gpu-puzzles-reference", "gpu-puzzles-values"], "{reference:?}");
}

/// The packages in `package`'s tree of normal dependencies, itself
/// included, sorted, each once.
fn dependencies_or_self(package: &str) -> Vec<String> {
    let out = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "-p",
            package,
            "-e",
            "normal",
            "--prefix",
            "none",
            "--format",
            "{p}",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&out.stderr));
    let names: Vec<String> = String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    assert!(names.first().is_some_and(|n| n == package), "cargo tree listed nothing for {package}");
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    unique
}

#[test]
fn the_references_and_the_floor_know_no_gpu_dom_or_ui_crate() {
    for package in ["gpu-puzzles-values", "gpu-puzzles-reference"] {
        let deps = dependencies_or_self(package);
        for f in ["wgpu", "naga", "web-sys", "js-sys", "wasm-bindgen", "leptos"] {
            assert!(!deps.iter().any(|d| d == f), "{package} must not depend on {f}");
        }
    }
}

#[test]
fn the_instrumentation_knows_no_wgpu_and_no_dom() {
    assert_free_of("gpu-puzzles-instrument", &["wgpu", "web-sys", "js-sys", "leptos"]);
}

#[test]
fn the_interpreter_knows_no_wgpu_and_no_dom() {
    assert_free_of("gpu-puzzles-interp", &["wgpu", "web-sys", "js-sys", "leptos"]);
}

#[test]
fn the_runner_knows_no_ui() {
    assert_free_of("gpu-puzzles-runner", &["leptos"]);
}

/// House rule: no Rust source file over about 500 lines (a module that grows
/// past it gets split by concern, its tests into a `tests.rs` beside it).
/// None over 550, and none within 30 lines of that without a reason in its
/// header (a `//!` line saying "near the house limit" and why), so that a
/// file is split where its ideas part rather than where the count ran out.
#[test]
fn no_source_file_is_over_about_500_lines() {
    const LIMIT: usize = 550;
    const NEAR: usize = LIMIT - 30;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut stack: Vec<std::path::PathBuf> =
        ["crates", "web/src", "tests/gpu"].iter().map(|d| root.join(d)).collect();
    let (mut files, mut long) = (0, Vec::new());
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files += 1;
                let text = std::fs::read_to_string(&path).unwrap();
                let lines = text.lines().count();
                let reason = text
                    .lines()
                    .take_while(|l| l.starts_with("//!"))
                    .any(|l| l.contains("near the house limit"));
                if lines > LIMIT || (lines > NEAR && !reason) {
                    long.push(format!("{} ({lines} lines)", path.display()));
                }
            }
        }
    }
    assert!(files > 40, "found only {files} Rust files under {}", root.display());
    assert!(
        long.is_empty(),
        "over {LIMIT} lines, or over {NEAR} without \"near the house limit\" and a reason in the header: {long:?}"
    );
}
