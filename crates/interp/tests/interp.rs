//! The interpreter on small shaders written for one behaviour each:
//! barriers, divergence, atomics, out-of-bounds accesses, the loop budget,
//! schedules, layouts and WGSL's arithmetic. Expected values are computed
//! here on the CPU from the WGSL specification's rules.

use gpu_puzzles_core::CaseConfig;
use gpu_puzzles_interp::dispatch::{Dispatch, Schedule};
use gpu_puzzles_interp::exec::{Memory, Status};
use gpu_puzzles_interp::value::Space;
use gpu_puzzles_interp::{Program, Stop};
use gpu_puzzles_verdict::trace::{AccessKind, LOOP_BUDGET};
use std::sync::Arc;

/// A program and memory whose storage buffers are bound in binding order
/// (binding k is buffer k).
fn setup(src: &str, buffers: &[Vec<u32>]) -> (Arc<Program>, Memory) {
    let program = Arc::new(Program::parse(src).unwrap_or_else(|e| panic!("{e}")));
    bind(program, buffers)
}

/// Memory for `program` with binding k bound to buffer k.
fn bind(program: Arc<Program>, buffers: &[Vec<u32>]) -> (Arc<Program>, Memory) {
    let mut bindings = vec![None; program.module.global_variables.len()];
    for (h, g) in program.module.global_variables.iter() {
        if let Some(b) = &g.binding {
            bindings[h.index()] = Some(Space::Storage(b.binding));
        }
    }
    let memory =
        Memory { storage: buffers.to_vec(), uniforms: Vec::new(), workgroup: Vec::new(), bindings };
    (program, memory)
}

fn config(workgroups: u32) -> CaseConfig {
    CaseConfig { workgroup_size: [1, 1, 1], workgroups: [workgroups, 1, 1], workgroup_memory: None }
}

/// Runs entry point 0 to the end and returns the storage buffers.
fn run(
    src: &str,
    buffers: &[Vec<u32>],
    workgroups: u32,
    schedule: Schedule,
) -> Result<Vec<Vec<u32>>, Stop> {
    let (program, memory) = setup(src, buffers);
    let mut d = Dispatch::new(program.clone(), 0, config(workgroups), memory, schedule)?;
    d.run()?;
    Ok(d.memory.storage)
}

const ALL: [Schedule; 4] =
    [Schedule::Lockstep, Schedule::Forward, Schedule::Reverse, Schedule::Random(7)];

const REVERSE: &str = "
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> tile: array<u32, 8>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) w: vec3<u32>) {
    tile[i] = i * 10u + w.x;
    workgroupBarrier();
    out[w.x * 8u + i] = tile[7u - i];
}";

#[test]
fn a_barrier_parks_every_invocation_until_the_workgroup_arrives() {
    let (program, memory) = setup(REVERSE, &[vec![0; 16]]);
    let mut d = Dispatch::new(program.clone(), 0, config(2), memory, Schedule::Lockstep).unwrap();
    let mut rounds = 0;
    while d.invocations.iter().any(|i| i.status == Status::Running) {
        d.step().unwrap();
        rounds += 1;
        assert!(rounds < 100, "never reached the barrier");
    }
    assert!(
        d.invocations.iter().all(|i| i.status == Status::Waiting),
        "all wait at the barrier together"
    );
    let tile = d.memory.workgroup.iter().find(|w| !w.is_empty()).expect("the workgroup's tile");
    assert_eq!(
        tile,
        &(0..8).map(|i| i * 10).collect::<Vec<u32>>(),
        "every write before the barrier is done"
    );
    assert_eq!(d.memory.storage[0], vec![0; 16], "nothing after the barrier ran");
    d.step().unwrap();
    assert!(d.invocations.iter().all(|i| i.status == Status::Running), "released together");
    d.run().unwrap();
    let expected: Vec<u32> = (0..16).map(|k| (7 - k % 8) * 10 + k / 8).collect();
    assert_eq!(d.memory.storage[0], expected);
}

#[test]
fn every_schedule_gives_a_race_free_shader_the_same_result() {
    let expected: Vec<u32> = (0..16).map(|k| (7 - k % 8) * 10 + k / 8).collect();
    for s in ALL {
        assert_eq!(run(REVERSE, &[vec![0; 16]], 2, s).unwrap()[0], expected, "{s:?}");
    }
}

#[test]
fn a_race_gives_different_results_under_different_schedules() {
    // Every invocation writes element 0: the last writer wins.
    let src = "
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) { out[0] = i; }";
    let forward = run(src, &[vec![0]], 1, Schedule::Forward).unwrap()[0][0];
    let reverse = run(src, &[vec![0]], 1, Schedule::Reverse).unwrap()[0][0];
    assert_eq!((forward, reverse), (3, 0));
}

#[test]
fn a_barrier_only_some_invocations_reach_is_reported_with_its_place() {
    let src = "
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    if i < 2u {
        workgroupBarrier();
    }
    out[i] = i;
}";
    match run(src, &[vec![0; 4]], 1, Schedule::Lockstep) {
        Err(Stop::BarrierNotReached { span, waiting, invocations, workgroup }) => {
            assert_eq!((waiting, invocations, workgroup), (2, 4, 0));
            let r = span.to_range().unwrap();
            assert_eq!(&src[r.start..r.start + 16], "workgroupBarrier");
        }
        other => panic!("expected a barrier not reached, got {other:?}"),
    }
}

#[test]
fn diverging_invocations_are_on_different_lines() {
    let src = "
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
    if i == 0u {
        out[0] = 10u;
    } else {
        out[1] = 20u;
    }
}";
    let (program, memory) = setup(src, &[vec![0; 2]]);
    let mut d = Dispatch::new(program.clone(), 0, config(1), memory, Schedule::Lockstep).unwrap();
    let mut lines = Vec::new();
    while !d.is_done() {
        let at: Vec<usize> = d
            .invocations
            .iter()
            .map(|i| i.position(&program).unwrap().2.location(src).line_number as usize)
            .collect();
        lines.push(at);
        d.step().unwrap();
    }
    assert!(
        lines.iter().any(|l| l[0] == 6 && l[1] == 8),
        "one on line 6 and one on line 8 at the same step: {lines:?}"
    );
    assert_eq!(d.memory.storage[0], vec![10, 20]);
}

#[test]
fn atomics_add_exchange_and_compare() {
    let src = "
@group(0) @binding(0) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    let before = atomicAdd(&counts[0], 1u);
    atomicMax(&counts[1], g.x * 3u);
    let r = atomicCompareExchangeWeak(&counts[2], g.x, g.x + 1u);
    if r.exchanged { atomicAdd(&counts[3], 1u); }
    out[g.x] = before;
}";
    for s in ALL {
        let b = run(src, &[vec![0; 4], vec![0; 24]], 3, s).unwrap();
        // 24 invocations: 24 increments, the largest 3·x, and a chain of
        // exchanges 0→1→…→24 in whatever order they came.
        assert_eq!(b[0][0], 24, "{s:?}");
        assert_eq!(b[0][1], 69, "{s:?}");
        let mut seen = b[1].clone();
        seen.sort_unstable();
        assert_eq!(
            seen,
            (0..24).collect::<Vec<u32>>(),
            "each invocation saw a distinct count ({s:?})"
        );
        assert!(b[0][3] >= 1 && b[0][2] == b[0][3], "{s:?}: {:?}", b[0]);
    }
}

#[test]
fn out_of_bounds_reads_give_zero_and_writes_are_dropped_and_both_are_recorded() {
    let src = "
@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
    out[i] = a[i + 2u] + 1u;
}";
    let (program, memory) = setup(src, &[vec![5, 6, 7, 8], vec![0; 6]]);
    let mut d = Dispatch::new(program.clone(), 0, config(1), memory, Schedule::Lockstep).unwrap();
    d.run().unwrap();
    // a[2], a[3] exist; a[4..10] do not (read as 0); out[6], out[7] do not.
    assert_eq!(d.memory.storage[1], vec![8, 9, 1, 1, 1, 1]);
    assert_eq!(d.memory.storage[0], vec![5, 6, 7, 8], "the input is untouched");
    let reads: Vec<(u32, u32)> = d
        .record
        .out_of_bounds
        .iter()
        .filter(|(_, a)| a.kind == AccessKind::Read)
        .map(|(_, a)| a.out_of_bounds.map(|o| (o.index, o.length)).unwrap())
        .collect();
    let writes: Vec<(u32, u32)> = d
        .record
        .out_of_bounds
        .iter()
        .filter(|(_, a)| a.kind == AccessKind::Write)
        .map(|(_, a)| a.out_of_bounds.map(|o| (o.index, o.length)).unwrap())
        .collect();
    assert_eq!(reads, (4..10).map(|i| (i, 4)).collect::<Vec<_>>());
    assert_eq!(writes, vec![(6, 6), (7, 6)]);
}

#[test]
fn indices_past_variables_and_values_are_recorded_with_what_they_index() {
    // WGSL §8.5.3 and §14.7: an index past a function-scope array, a
    // private array, an override-sized workgroup array or a `let` array is
    // out of bounds like one past a buffer's end.
    let src = "
override N: u32 = 4u;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<private> p: array<u32, 2>;
var<workgroup> t: array<u32, N>;
@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) g: vec3<u32>) {
    let k = g.x;
    var w = array<u32, 3>(1u, 2u, 3u);
    let c = array<u32, 3>(4u, 5u, 6u);
    t[k] = 7u;
    p[k] = 8u;
    out[k] = w[k] + c[k] + t[k];
}";
    let (program, memory) = setup(src, &[vec![0; 8]]);
    let mut d = Dispatch::new(program.clone(), 0, config(5), memory, Schedule::Forward).unwrap();
    d.run().unwrap();
    let found = |space: fn(&Space) -> bool, kind: AccessKind| -> Vec<(u32, u32)> {
        d.record
            .out_of_bounds
            .iter()
            .filter(|(_, a)| space(&a.space) && a.kind == kind)
            .map(|(_, a)| a.out_of_bounds.map(|o| (o.index, o.length)).unwrap())
            .collect()
    };
    assert_eq!(
        found(|s| matches!(s, Space::Function { .. }), AccessKind::Read),
        vec![(3, 3), (4, 3)],
        "w[3], w[4]"
    );
    assert_eq!(found(|s| *s == Space::Value, AccessKind::Read), vec![(3, 3), (4, 3)], "c[3], c[4]");
    assert_eq!(
        found(|s| matches!(s, Space::Private(_)), AccessKind::Write),
        vec![(2, 2), (3, 2), (4, 2)],
        "p[2..5]"
    );
    assert_eq!(
        found(|s| matches!(s, Space::Workgroup(_)), AccessKind::Write),
        vec![(4, 4)],
        "t has N = 4 elements"
    );
    // In bounds, the values are the variables' own.
    assert_eq!(&d.memory.storage[0][..3], &[1 + 4 + 7, 2 + 5 + 7, 3 + 6 + 7]);
}

#[test]
fn a_loop_past_the_budget_stops_with_the_loop_and_the_invocation() {
    let src = "
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
    var k = 0u;
    while k < 10u {
        out[i] += 1u;
    }
}";
    match run(src, &[vec![0; 2]], 1, Schedule::Lockstep) {
        Err(Stop::RunawayLoop { span, invocation }) => {
            assert_eq!(span.location(src).line_number, 6);
            assert_eq!(invocation, 0);
        }
        other => panic!("expected a runaway loop, got {other:?}"),
    }
    // Just under the budget is fine.
    let ok = format!(
        "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1) fn main() {{ for (var k = 0u; k < {LOOP_BUDGET}u; k++) {{ out[0] += 1u; }} }}"
    );
    assert_eq!(run(&ok, &[vec![0]], 1, Schedule::Lockstep).unwrap()[0][0], LOOP_BUDGET);
}

#[test]
fn struct_wrapped_buffers_vectors_and_array_length() {
    let src = "
struct Data { scale: f32, v: array<vec4<f32>> }
@group(0) @binding(0) var<storage, read_write> d: Data;
@compute @workgroup_size(1)
fn main() {
    let n = arrayLength(&d.v);
    for (var k = 0u; k < n; k++) {
        d.v[k] = d.v[k].wzyx * d.scale;
        d.v[k].x += f32(n);
    }
}";
    // Member `v` starts at byte 16 (vec4's alignment).
    let f = |x: f32| x.to_bits();
    let mut words = vec![f(2.0), 0, 0, 0];
    words.extend([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0].map(f));
    let out = run(src, &[words], 1, Schedule::Lockstep).unwrap();
    let got: Vec<f32> = out[0][4..].iter().map(|w| f32::from_bits(*w)).collect();
    assert_eq!(got, vec![10.0, 6.0, 4.0, 2.0, 18.0, 14.0, 12.0, 10.0]);
}

#[test]
fn arithmetic_follows_wgsl() {
    let src = "
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1)
fn main() {
    var zero = 0i;
    var big = 16777216.0;
    out[0] = u32(7i / zero);          // division by zero gives the dividend
    out[1] = u32(7i % zero);          // remainder by zero gives 0
    out[2] = u32(big + 1.0);          // single precision: 2^24 + 1 rounds to 2^24
    out[3] = 1u << (33u + u32(zero)); // shift amounts are taken modulo 32
    out[4] = u32(-1.5 + f32(zero));   // float to u32 clamps at 0
    out[5] = bitcast<u32>(-1i);
    out[6] = countOneBits(0xF0F0u);
    out[7] = u32(i32(-7.9 + f32(zero)) + 100i); // rounds toward zero
}";
    let out = run(src, &[vec![0; 8]], 1, Schedule::Lockstep).unwrap();
    assert_eq!(out[0], vec![7, 0, 16_777_216, 2, 0, u32::MAX, 8, 93]);
}

#[test]
fn what_it_cannot_run_stops_with_its_place() {
    let src = "
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1)
fn main() {
    out[0] = u32(determinant(mat2x2<f32>(1.0, 2.0, 3.0, 4.0)));
}";
    match run(src, &[vec![0]], 1, Schedule::Lockstep) {
        Err(Stop::Unsupported { what, span: Some(span) }) => {
            assert!(what.contains("determinant"), "{what}");
            assert_eq!(span.location(src).line_number, 5);
        }
        other => panic!("expected an unsupported construct, got {other:?}"),
    }
}

#[test]
fn function_calls_with_pointers_to_locals_and_workgroup_uniform_load() {
    let src = "
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> total: u32;
fn bump(p: ptr<function, u32>, by: u32) -> u32 { *p += by; return *p * 2u; }
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    var x = i;
    let twice = bump(&x, 10u);
    if i == 0u { total = 99u; }
    let t = workgroupUniformLoad(&total);
    out[i] = twice + t;
}";
    for s in ALL {
        let out = run(src, &[vec![0; 4]], 1, s).unwrap();
        assert_eq!(out[0], (0..4).map(|i| (i + 10) * 2 + 99).collect::<Vec<u32>>(), "{s:?}");
    }
}

#[test]
fn the_race_detector_finds_a_missing_barrier_and_passes_the_barrier() {
    let racy = REVERSE.replace("workgroupBarrier();", "");
    for (src, races) in [(REVERSE.to_string(), false), (racy, true)] {
        let (program, memory) = setup(&src, &[vec![0; 16]]);
        let mut d =
            Dispatch::new(program.clone(), 0, config(2), memory, Schedule::Lockstep).unwrap();
        d.detect_races();
        d.run().unwrap();
        let r = d.races.expect("the detector ran");
        assert_eq!(r.total > 0, races, "{src}");
        if races {
            // Lock step: every write of the tile comes before the reads.
            assert!(r
                .found
                .iter()
                .all(|f| f.kind == gpu_puzzles_verdict::trace::HazardKind::ReadAfterWrite
                    && matches!(f.space, Space::Workgroup(_))));
            assert!(r
                .found
                .iter()
                .all(|f| f.first.workgroup == f.second.workgroup && f.first.id != f.second.id));
        }
    }
}

/// WGSL's packing built-ins, on words read from a buffer so that naga does
/// not fold them into constants. Expected values from the specification's
/// formulas: bytes from the lowest, a = (0x80, 0x7F, 0x02, 0xFF) and
/// b = (0x04, 0x03, 0x02, 0x01).
#[test]
fn packing_unpacking_and_packed_dot_products() {
    let src = "
@group(0) @binding(0) var<storage, read_write> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1)
fn main() {
    let a = input[0];
    let b = input[1];
    out[0] = bitcast<u32>(dot4I8Packed(a, b));             // -512 + 381 + 4 - 1
    out[1] = dot4U8Packed(a, b);                           // 512 + 381 + 4 + 255
    out[2] = pack4x8unorm(unpack4x8unorm(a));              // every byte comes back
    out[3] = pack4x8snorm(unpack4x8snorm(a));              // but -128 comes back -127
    out[4] = pack4xI8Clamp(unpack4xI8(a) * 2i);            // -256, 254, 4, -2 clamped
    out[5] = pack4xU8(unpack4xU8(b) + vec4<u32>(255u));    // 259, 258, 257, 256 wrapped
    out[6] = pack4xU8Clamp(unpack4xU8(b) * 100u);          // 400, 300, 200, 100 clamped
    out[7] = pack4xI8(unpack4xI8(a));
    out[8] = pack2x16unorm(unpack2x16unorm(a));
    out[9] = pack2x16snorm(unpack2x16snorm(b));
    out[10] = pack4x8unorm(vec4<f32>(0.0, 0.5, 1.0, 2.0) + f32(input[2]));
}";
    let (a, b) = (0xFF02_7F80, 0x0102_0304);
    let out = run(src, &[vec![a, b, 0], vec![0; 11]], 1, Schedule::Lockstep).unwrap();
    let expected = [
        (-128i32) as u32,
        1152,
        a,
        0xFF02_7F81,
        0xFE04_7F80,
        0x0001_0203,
        0x64C8_FFFF,
        a,
        a,
        b,
        0xFFFF_8000,
    ];
    assert_eq!(out[1], expected);
}

/// `pack2x16float` and `unpack2x16float`, which naga's validator allows
/// only with `Capabilities::SHADER_FLOAT16_IN_FLOAT32` (wgpu grants it
/// where the adapter has `DownlevelFlags::SHADER_F16_IN_F32`); the
/// interpreter's own capabilities lack it, so this test validates with it.
#[test]
fn f16_packing_runs_where_the_validator_allows_it() {
    let src = "
@group(0) @binding(0) var<storage, read_write> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1)
fn main() {
    let h = unpack2x16float(input[0]);                    // (1365/4096, inf)
    out[0] = bitcast<u32>(h.x);
    out[1] = bitcast<u32>(h.y);
    out[2] = pack2x16float(vec2<f32>(1.0, -2.0) + h.x * f32(input[1]));
    out[3] = pack2x16float(h.yx);                          // round trip, swapped
}";
    let module = naga::front::wgsl::parse_str(src).unwrap();
    let capabilities = gpu_puzzles_instrument::CAPABILITIES
        .union(naga::valid::Capabilities::SHADER_FLOAT16_IN_FLOAT32);
    let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), capabilities)
        .validate(&module)
        .unwrap();
    let program = Program::validated(Arc::new(module), Arc::new(info)).unwrap();
    let (program, memory) = bind(Arc::new(program), &[vec![0x7C00_3555, 0], vec![0; 4]]);
    let mut d = Dispatch::new(program, 0, config(1), memory, Schedule::Lockstep).unwrap();
    d.run().unwrap();
    assert_eq!(
        d.memory.storage[1],
        [(1365.0f32 / 4096.0).to_bits(), f32::INFINITY.to_bits(), 0xC000_3C00, 0x3555_7C00]
    );
}
