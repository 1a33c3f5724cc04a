//! The `gpu-puzzles` binary, run as workshop hosts and CI run it.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn gpu_puzzles(args: &[&str], root: &Path) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gpu-puzzles"))
        .args(args)
        .arg("--root")
        .arg(root)
        .output()
        .expect("the binary runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn check_passes_on_the_shipped_puzzles() {
    let (ok, text) = gpu_puzzles(&["check"], &root());
    assert!(ok, "{text}");
    assert!(text.contains("14 puzzles"), "{text}");
    assert_eq!(text.matches("fails (good)").count(), 14, "{text}");
}

#[test]
fn list_json_gives_every_puzzle_in_order() {
    let (ok, text) = gpu_puzzles(&["list", "--json"], &root());
    assert!(ok, "{text}");
    let rows: serde_json::Value = serde_json::from_str(&text).unwrap();
    let slugs: Vec<&str> = rows.as_array().unwrap().iter().map(|r| r["slug"].as_str().unwrap()).collect();
    assert_eq!(slugs.first(), Some(&"map"));
    assert_eq!(slugs.last(), Some(&"matmul"));
    assert_eq!(slugs.len(), 14);
}

#[test]
fn judging_a_wrong_solution_exits_non_zero_with_a_json_report() {
    let wrong = root().join("tests/gpu/solutions/broadcast--swapped-a-b.wgsl");
    let (ok, text) = gpu_puzzles(&["check", "--puzzle", "broadcast", "--solution", wrong.to_str().unwrap(), "--json"], &root());
    assert!(!ok, "{text}");
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(report["status"], "failed");
    let statuses: Vec<&str> = report["cases"].as_array().unwrap().iter().map(|c| c["outcome"]["status"].as_str().unwrap()).collect();
    assert!(statuses.contains(&"mismatch"), "{statuses:?}");
}

#[test]
fn a_malformed_puzzle_folder_is_rejected_with_file_line_and_field() {
    let tmp = std::env::temp_dir().join(format!("gpu-puzzles-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(tmp.join("puzzles/map")).unwrap();
    std::fs::create_dir_all(tmp.join("shaders")).unwrap();
    for f in ["statement.md", "starter.wgsl"] {
        std::fs::copy(root().join("puzzles/map").join(f), tmp.join("puzzles/map").join(f)).unwrap();
    }
    std::fs::write(tmp.join("puzzles/index.toml"), "format_version = 1\norder = [\"map\"]\n").unwrap();
    let manifest = std::fs::read_to_string(root().join("puzzles/map/puzzle.toml")).unwrap();
    std::fs::write(tmp.join("puzzles/map/puzzle.toml"), manifest.replacen("workgroup_size = [6, 1, 1]", "workgroup_size = [0, 1, 1]", 1)).unwrap();
    std::fs::write(tmp.join("puzzles/map/notes.txt"), "stray").unwrap();
    let (ok, text) = gpu_puzzles(&["check"], &tmp);
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(!ok, "{text}");
    assert!(text.contains("puzzles/map/puzzle.toml:"), "{text}");
    assert!(text.contains("case 1 › workgroup_size"), "{text}");
    assert!(text.contains("puzzles/map/notes.txt: stray file"), "{text}");
}
