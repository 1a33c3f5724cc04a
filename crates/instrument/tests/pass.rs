//! The pass on small shaders: what it writes back, without a GPU. The GPU
//! runs of instrumented shaders are in `tests/gpu`.

use gpu_puzzles_core::CaseConfig;
use gpu_puzzles_instrument::{instrument, Traced};

fn config() -> CaseConfig {
    CaseConfig { workgroup_size: [4, 1, 1], workgroups: [2, 1, 1], workgroup_memory: None }
}

const LOOP: &str = "@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(4, 1, 1)
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    var x = a[local_id.x];
    for (var i = 0u; i < 10u; i = i * 2u) {
        x += 1.0;
    }
    out[local_id.x] = x;
}
";

#[test]
fn loops_without_barriers_get_a_budget_and_their_line() {
    let out = instrument(LOOP, &[Traced { binding: 0, len: 8 }, Traced { binding: 1, len: 8 }], &config()).unwrap();
    assert_eq!(out.loop_lines, [6], "{}", out.wgsl);
    assert!(out.wgsl.contains("gp_loop1"), "{}", out.wgsl);
    assert!(out.wgsl.contains("global_invocation_id"), "{}", out.wgsl);
}

#[test]
fn loops_with_barriers_are_left_alone() {
    let src = LOOP.replace("x += 1.0;", "x += 1.0; workgroupBarrier();");
    let out = instrument(&src, &[Traced { binding: 0, len: 8 }, Traced { binding: 1, len: 8 }], &config()).unwrap();
    assert!(out.loop_lines.is_empty());
}

#[test]
fn a_shader_naga_rejects_is_reported_not_instrumented() {
    let err = instrument("fn main( {", &[], &config()).unwrap_err();
    assert!(err.contains("parse"), "{err}");
}

#[test]
fn counters_are_stored_once_before_the_return() {
    let src = "@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(4, 1, 1)
fn main(@builtin(local_invocation_id) l: vec3<u32>) {
    if (l.x >= 3u) { return; }
    out[l.x] = a[l.x] + 10.0;
}
";
    let out = instrument(src, &[Traced { binding: 0, len: 3 }, Traced { binding: 1, len: 3 }], &config()).unwrap();
    // Two returns (the early one and the end of main), four counters each.
    assert_eq!(out.wgsl.matches("atomicStore(").count(), 8, "{}", out.wgsl);
    let tail = &out.wgsl[out.wgsl.rfind("return;").unwrap()..];
    assert!(!tail.contains("gp_"), "nothing after the last return:\n{}", out.wgsl);
}
