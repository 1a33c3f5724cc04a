//! Configurations beyond WebGPU's default limits get a clear configuration
//! message before anything is dispatched. No GPU needed: the check is
//! against `wgpu::Limits::default()`, the limits every page device has.

use gpu_puzzles_core::{load_puzzle_set, Files};
use gpu_puzzles_runner::check_config;

fn problem(case: &str) -> gpu_puzzles_verdict::judge::ConfigProblem {
    let mut files = Files::new();
    files.insert("index.toml".into(), "format_version = 1\norder = [\"big\"]\n".into());
    files.insert("big/statement.md".into(), "# Big\n\n{{sizes}}\n".into());
    files.insert("big/starter.wgsl".into(), "// TODO\n".into());
    let manifest = format!(
        "format_version = 1\ntitle = \"Big\"\nreference = \"add_ten\"\nhints = [\"a\", \"b\"]\n\
         [[buffer]]\nname = \"a\"\nbinding = 0\nrole = \"input\"\n\
         [[buffer]]\nname = \"out\"\nbinding = 1\nrole = \"output\"\n\
         [[promise]]\nof = \"invocations\"\nwhat = \"invocations\"\nrange = [1, 1]\nexcept = [\"Case 1\"]\n\
         [[case]]\n{case}\n\
         [[case]]\nhidden = true\nworkgroup_size = [1, 1, 1]\nworkgroups = [1, 1, 1]\nbuffers.a = {{ arange = 1 }}\n"
    );
    files.insert("big/puzzle.toml".into(), manifest);
    let set = load_puzzle_set(&files, None).unwrap_or_else(|p| panic!("{p:?}"));
    let p = &set.puzzles[0];
    check_config(p, &p.cases[0], &wgpu::Limits::default()).expect_err("over a limit")
}

fn message(case: &str) -> String {
    gpu_puzzles_verdict::report::config_problem(&problem(case))
}

#[test]
fn the_problem_is_data_with_the_value_and_the_limit() {
    let p = problem(
        "workgroup_size = [1, 1, 1]\nworkgroups = [5000000, 1, 1]\nbuffers.a = { arange = 4 }",
    );
    let max = wgpu::Limits::default().max_compute_workgroups_per_dimension;
    assert_eq!(
        p,
        gpu_puzzles_verdict::judge::ConfigProblem::Workgroups { axis: 0, count: 5_000_000, max }
    );
}

#[test]
fn millions_of_workgroups() {
    let m = message(
        "workgroup_size = [1, 1, 1]\nworkgroups = [5000000, 1, 1]\nbuffers.a = { arange = 4 }",
    );
    assert!(
        m.contains("5000000 workgroups along x") && m.contains("maxComputeWorkgroupsPerDimension"),
        "{m}"
    );
}

#[test]
fn too_many_invocations_per_workgroup() {
    let m =
        message("workgroup_size = [32, 32, 1]\nworkgroups = [1, 1, 1]\nbuffers.a = { arange = 4 }");
    assert!(
        m.contains("1024 invocations") && m.contains("maxComputeInvocationsPerWorkgroup"),
        "{m}"
    );
}

#[test]
fn too_much_workgroup_memory() {
    let m = message("workgroup_size = [8, 1, 1]\nworkgroups = [1, 1, 1]\nworkgroup_memory = [8192, 1, 1]\nbuffers.a = { arange = 4 }");
    assert!(m.contains("32768 bytes") && m.contains("maxComputeWorkgroupStorageSize"), "{m}");
}

#[test]
fn buffers_beyond_the_binding_size() {
    let m = message("workgroup_size = [8, 1, 1]\nworkgroups = [1, 1, 1]\nbuffers.a = { fill = 1, len = 40000000 }");
    assert!(
        m.contains("buffer `a` needs 160000000 bytes") && m.contains("maxStorageBufferBindingSize"),
        "{m}"
    );
}
