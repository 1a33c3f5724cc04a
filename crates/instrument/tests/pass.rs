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
    let out = instrument(
        LOOP,
        &[Traced { binding: 0, len: 8 }, Traced { binding: 1, len: 8 }],
        &config(),
        &["main"],
        ON,
    )
    .unwrap();
    assert_eq!(out.meta.loop_lines, [6], "{}", out.wgsl().unwrap());
    assert!(out.wgsl().unwrap().contains("gp_loop1"), "{}", out.wgsl().unwrap());
    assert!(out.wgsl().unwrap().contains("global_invocation_id"), "{}", out.wgsl().unwrap());
}

#[test]
fn loops_with_barriers_are_guarded_too() {
    // The guard's counter is function-local and counts the same in every
    // invocation of a uniform loop, so its `break` keeps the barrier uniform.
    let src = LOOP.replace("x += 1.0;", "x += 1.0; workgroupBarrier();");
    let out = instrument(
        &src,
        &[Traced { binding: 0, len: 8 }, Traced { binding: 1, len: 8 }],
        &config(),
        &["main"],
        ON,
    )
    .unwrap();
    assert_eq!(out.meta.loop_lines, [6]);
    assert_eq!(
        gpu_puzzles_instrument::check_barriers(&out.wgsl().unwrap()),
        None,
        "the guard must not make the barrier non-uniform:\n{}",
        out.wgsl().unwrap()
    );
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
    let out = instrument(
        src,
        &[Traced { binding: 0, len: 8 }, Traced { binding: 1, len: 8 }],
        &config(),
        &["main"],
        ON,
    )
    .unwrap();
    let names: Vec<&str> = out.meta.spaces.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["a.v", "out.v"]);
    assert_eq!(out.meta.spaces[1].elements, 8);
    // Bounds checked against the array's 8 elements, not the struct's one member.
    assert!(out.wgsl().unwrap().contains("< 8u"), "{}", out.wgsl().unwrap());
    assert!(
        out.meta.layout.race_base[1].is_some() && out.meta.layout.race_base[0].is_none(),
        "only the writable buffer is racechecked"
    );
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
fn counters_are_flushed_once_whichever_return_ends_the_body() {
    let src = "@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(4, 1, 1)
fn main(@builtin(local_invocation_id) l: vec3<u32>) {
    if (l.x >= 3u) { return; }
    out[l.x] = a[l.x] + 10.0;
}
";
    let out = instrument(
        src,
        &[Traced { binding: 0, len: 3 }, Traced { binding: 1, len: 3 }],
        &config(),
        &["main"],
        ON,
    )
    .unwrap();
    let wgsl = out.wgsl().unwrap();
    // The body, with both its returns, is `gp_main`; the entry point calls
    // it once, then adds the four counters to the trace (added, not
    // stored: several dispatches share one trace).
    let body = &wgsl[wgsl.find("fn gp_main(").expect("the body is a function of its own")..];
    let body = &body[..body.find("\n}\n").unwrap()];
    assert_eq!(body.matches("return;").count(), 2, "{wgsl}");
    let entry = &wgsl[wgsl.find("@compute").unwrap()..];
    assert_eq!(entry.matches("gp_main(").count(), 1, "{entry}");
    for counter in
        ["gp_global_reads", "gp_global_writes", "gp_workgroup_reads", "gp_workgroup_writes"]
    {
        assert_eq!(
            entry.matches(&format!("= {counter};")).count(),
            1,
            "{counter} is added to the trace once:\n{entry}"
        );
    }
    assert_eq!(entry.matches("return;").count(), 1, "{entry}");
}

/// `tile[i]` of an `array<vec4<f32>, N>` touches four words that every
/// access touches together: the racecheck checks the first, once per
/// access. One access to a single component puts the array back to one
/// check per word.
#[test]
fn whole_vec4_elements_are_race_checked_once_per_access() {
    let src = |extra: &str| {
        format!(
            "@group(0) @binding(0) var<storage, read_write> out: array<vec4<f32>>;
var<workgroup> tile: array<vec4<f32>, 4>;
@compute @workgroup_size(4, 1, 1)
fn main(@builtin(local_invocation_id) l: vec3<u32>) {{
    tile[l.x] = vec4(f32(l.x));
    workgroupBarrier();
    out[l.x] = tile[(l.x + 1u) % 4u]{extra};
}}
"
        )
    };
    let calls = |src: &str, helper: &str| {
        let out =
            instrument(src, &[Traced { binding: 0, len: 16 }], &config(), &["main"], ON).unwrap();
        let wgsl = out.wgsl().unwrap();
        let body = &wgsl[wgsl.find("fn gp_main(").unwrap()..];
        (body.matches(&format!("{helper}(")).count(), out.meta.spaces[0].counted_words)
    };
    let whole = src("");
    assert_eq!(calls(&whole, "gp_race_write_workgroup"), (1, 4));
    assert_eq!(calls(&whole, "gp_race_read_workgroup"), (1, 4));
    assert_eq!(calls(&whole, "gp_race_write_storage"), (1, 4));
    let mixed = src(" + vec4(tile[0].x)");
    assert_eq!(calls(&mixed, "gp_race_write_workgroup").0, 4);
    assert_eq!(calls(&mixed, "gp_race_read_workgroup").0, 5);
    // `out` is still touched whole.
    assert_eq!(calls(&mixed, "gp_race_write_storage"), (1, 4));
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
    let out = instrument(
        src,
        &[Traced { binding: 0, len: 16 }, Traced { binding: 1, len: 4 }],
        &config(),
        &["first", "second"],
        ON,
    )
    .unwrap();
    // `a` holds 16 floats, so 4 vectors: the bounds check is against 4.
    assert!(out.wgsl().unwrap().contains("< 4u"), "{}", out.wgsl().unwrap());
    assert!(
        out.wgsl().unwrap().contains("fn first(") && out.wgsl().unwrap().contains("fn second(")
    );
    assert_eq!(
        out.wgsl().unwrap().matches("gp_invocation = ").count(),
        2,
        "both entry points number their invocations:\n{}",
        out.wgsl().unwrap()
    );
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

#[test]
fn an_array_sized_by_an_override_is_written_back_with_its_element_type() {
    // naga 30's WGSL writer writes such an array as `array<BLOCK>`, which no
    // compiler accepts: the page could not run the instrumented shader.
    let src = "override BLOCK: u32 = 64u;
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, BLOCK>;
@compute @workgroup_size(4, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
    smem[lid.x] = a[lid.x];
    workgroupBarrier();
    out[lid.x] = smem[(lid.x + 1u) % 4u];
}
";
    let out = instrument(
        src,
        &[Traced { binding: 0, len: 8 }, Traced { binding: 1, len: 8 }],
        &config(),
        &["main"],
        ON,
    )
    .unwrap();
    let wgsl = out.wgsl().unwrap();
    assert!(wgsl.contains("smem: array<f32, 64>"), "{wgsl}");
    let module = naga::front::wgsl::parse_str(&wgsl).unwrap_or_else(|e| panic!("{e}\n{wgsl}"));
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        gpu_puzzles_instrument::CAPABILITIES,
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("{e:?}\n{wgsl}"));
}
