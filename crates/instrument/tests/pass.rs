//! The pass on small shaders: what it writes back, without a GPU. The GPU
//! runs of instrumented shaders are in `tests/gpu`.

use gpu_puzzles_core::CaseConfig;
use gpu_puzzles_instrument::{instrument, Options, PassError, Traced};

const ON: Options = Options { racecheck: true };

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
    let out = instrument(LOOP, &[Traced { binding: 0, len: 8 }, Traced { binding: 1, len: 8 }], &config(), &["main"], ON).unwrap();
    assert_eq!(out.meta.loop_lines, [6], "{}", out.wgsl().unwrap());
    assert!(out.wgsl().unwrap().contains("gp_loop1"), "{}", out.wgsl().unwrap());
    assert!(out.wgsl().unwrap().contains("global_invocation_id"), "{}", out.wgsl().unwrap());
}

#[test]
fn loops_with_barriers_are_guarded_too() {
    // The guard's counter is function-local and counts the same in every
    // invocation of a uniform loop, so its `break` keeps the barrier uniform.
    let src = LOOP.replace("x += 1.0;", "x += 1.0; workgroupBarrier();");
    let out = instrument(&src, &[Traced { binding: 0, len: 8 }, Traced { binding: 1, len: 8 }], &config(), &["main"], ON).unwrap();
    assert_eq!(out.meta.loop_lines, [6]);
    assert_eq!(gpu_puzzles_instrument::check_barriers(&out.wgsl().unwrap()), None, "the guard must not make the barrier non-uniform:\n{}", out.wgsl().unwrap());
}

#[test]
fn struct_wrapped_buffers_are_traced_at_the_array_index() {
    let src = "struct Buf { v: array<f32> }
@group(0) @binding(0) var<storage, read> a: Buf;
@group(0) @binding(1) var<storage, read_write> out: Buf;
@compute @workgroup_size(4, 1, 1)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    out.v[g.x] = a.v[g.x] + 10.0;
}
";
    let out = instrument(src, &[Traced { binding: 0, len: 8 }, Traced { binding: 1, len: 8 }], &config(), &["main"], ON).unwrap();
    let names: Vec<&str> = out.meta.spaces.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["a.v", "out.v"]);
    assert_eq!(out.meta.spaces[1].elements, 8);
    // Bounds checked against the array's 8 elements, not the struct's one member.
    assert!(out.wgsl().unwrap().contains("< 8u"), "{}", out.wgsl().unwrap());
    assert!(out.meta.layout.race_base[1].is_some() && out.meta.layout.race_base[0].is_none(), "only the writable buffer is racechecked");
}

#[test]
fn a_shader_naga_rejects_is_reported_not_instrumented() {
    let err = instrument("fn main( {", &[], &config(), &["main"], ON).unwrap_err();
    assert!(matches!(err, PassError::Rejected { span: Some(_), .. }), "{err:?}");
}

#[test]
fn pointer_parameters_into_workgroup_memory_are_rejected_where_they_are() {
    // Browsers accept these under WGSL's `unrestricted_pointer_parameters`;
    // naga 30 does not, so the pass cannot follow them and must say where.
    let src = "var<workgroup> t: array<f32, 4>;
fn bump(p: ptr<workgroup, array<f32, 4>>, i: u32) { (*p)[i] += 1.0; }
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) l: u32) { bump(&t, l); }
";
    match instrument(src, &[], &config(), &["main"], ON).unwrap_err() {
        PassError::Rejected { message, span: Some(span) } => {
            assert!(message.contains("WorkGroup"), "{message}");
            assert!(src[span].starts_with("fn bump"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn counters_are_flushed_once_before_each_return() {
    let src = "@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(4, 1, 1)
fn main(@builtin(local_invocation_id) l: vec3<u32>) {
    if (l.x >= 3u) { return; }
    out[l.x] = a[l.x] + 10.0;
}
";
    let out = instrument(src, &[Traced { binding: 0, len: 3 }, Traced { binding: 1, len: 3 }], &config(), &["main"], ON).unwrap();
    // Two returns (the early one and the end of main), four counters each,
    // added to the trace (not stored: several dispatches share one trace).
    let flushes = out.wgsl().unwrap().lines().filter(|l| l.contains("atomicAdd(") && !l.contains("let ") && !l.trim_end().ends_with(", 1u);")).count();
    assert_eq!(flushes, 8, "{}", out.wgsl().unwrap());
    let tail = &out.wgsl().unwrap()[out.wgsl().unwrap().rfind("return;").unwrap()..];
    assert!(!tail.contains("gp_"), "nothing after the last return:\n{}", out.wgsl().unwrap());
}

#[test]
fn vector_elements_count_as_four_words_and_every_entry_point_is_traced() {
    let src = "@group(0) @binding(0) var<storage, read> a: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(4, 1, 1)
fn first(@builtin(global_invocation_id) g: vec3<u32>) {
    let v = a[g.x];
    out[g.x] = v.x + v.y + v.z + v.w;
}
@compute @workgroup_size(4, 1, 1)
fn second(@builtin(global_invocation_id) g: vec3<u32>) {
    out[g.x] = out[g.x] * 2.0;
}
";
    let out = instrument(src, &[Traced { binding: 0, len: 16 }, Traced { binding: 1, len: 4 }], &config(), &["first", "second"], ON).unwrap();
    // `a` holds 16 floats, so 4 vectors: the bounds check is against 4.
    assert!(out.wgsl().unwrap().contains("< 4u"), "{}", out.wgsl().unwrap());
    assert!(out.wgsl().unwrap().contains("fn first(") && out.wgsl().unwrap().contains("fn second("));
    assert_eq!(out.wgsl().unwrap().matches("gp_invocation = ").count(), 2, "both entry points number their invocations:\n{}", out.wgsl().unwrap());
    let missing = instrument(src, &[], &config(), &["third"], ON).unwrap_err();
    assert!(matches!(&missing, PassError::Unsupported(m) if m.contains("`third`")), "{missing:?}");
}

#[test]
fn a_loop_beside_storage_atomics_may_wait_for_another_workgroup() {
    let spin = "@group(0) @binding(0) var<storage, read_write> flag: atomic<u32>;
@compute @workgroup_size(4, 1, 1)
fn main(@builtin(workgroup_id) w: vec3<u32>) {
    if (w.x == 1u) {
        while (atomicLoad(&flag) == 0u) {}
    } else {
        atomicStore(&flag, 1u);
    }
}
";
    let count = "@group(0) @binding(0) var<storage, read_write> bins: array<atomic<u32>>;
@compute @workgroup_size(4, 1, 1)
fn main(@builtin(local_invocation_id) l: vec3<u32>) {
    atomicAdd(&bins[l.x], 1u);
}
";
    let looped = LOOP;
    let shader = |s| gpu_puzzles_instrument::Shader::parse(s).unwrap().may_wait_across_workgroups();
    assert!(shader(spin), "a spin on an atomic flag");
    assert!(!shader(count), "atomics without a loop cannot wait");
    assert!(!shader(looped), "a loop without atomics cannot wait for another workgroup");
}
