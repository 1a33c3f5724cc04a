//! The interpreter's subgroups: built-in values at each size, reductions,
//! scans, ballots and shuffles over the active lanes of a partly filled
//! subgroup, and lanes that left an `if` waiting for those inside.
//! Expected values are computed here from the WGSL definitions.

use gpu_puzzles_core::CaseConfig;
use gpu_puzzles_interp::dispatch::{Dispatch, Schedule};
use gpu_puzzles_interp::exec::Memory;
use gpu_puzzles_interp::subgroup::SIZES;
use gpu_puzzles_interp::value::Space;
use gpu_puzzles_interp::Program;
use std::sync::Arc;

/// Runs `src` (its one entry point, one workgroup of `invocations`) with
/// subgroups of `size` lanes over `out` of `len` words; returns `out`.
fn run(src: &str, invocations: u32, size: u32, len: usize, schedule: Schedule) -> Vec<u32> {
    let program = Arc::new(Program::parse(src).unwrap_or_else(|e| panic!("{e}")));
    let mut bindings = vec![None; program.module.global_variables.len()];
    for (h, g) in program.module.global_variables.iter() {
        if let Some(b) = &g.binding {
            bindings[h.index()] = Some(Space::Storage(b.binding));
        }
    }
    let memory = Memory {
        storage: vec![vec![0; len]],
        uniforms: Vec::new(),
        workgroup: Vec::new(),
        bindings,
    };
    let config = CaseConfig {
        workgroup_size: [invocations, 1, 1],
        workgroups: [1, 1, 1],
        workgroup_memory: None,
    };
    let mut d = Dispatch::with_subgroup_size(program, 0, config, memory, schedule, size).unwrap();
    d.run().unwrap_or_else(|e| panic!("{e:?}"));
    d.memory.storage.remove(0)
}

const SCHEDULES: [Schedule; 4] =
    [Schedule::Lockstep, Schedule::Forward, Schedule::Reverse, Schedule::Random(3)];

#[test]
fn built_in_values_and_a_sum_per_subgroup_at_every_size() {
    // 20 invocations: at each size, full subgroups and a last partial one.
    let src = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(20)
fn main(@builtin(local_invocation_index) i: u32, @builtin(subgroup_size) n: u32, @builtin(subgroup_invocation_id) lane: u32) {
    let s = subgroupAdd(i);
    out[i] = s * 1000000u + n * 1000u + lane;
}";
    for size in SIZES {
        for schedule in SCHEDULES {
            let out = run(src, 20, size, 20, schedule);
            for i in 0..20u32 {
                let first = i / size * size;
                let sum: u32 = (first..(first + size).min(20)).sum();
                assert_eq!(
                    out[i as usize],
                    sum * 1_000_000 + size * 1000 + i % size,
                    "size {size}, lane {i}, {schedule:?}"
                );
            }
        }
    }
}

#[test]
fn scans_ballots_and_broadcasts() {
    let src = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(12)
fn main(@builtin(local_invocation_index) i: u32) {
    let inc = subgroupInclusiveAdd(i + 1u);
    let exc = subgroupExclusiveAdd(i + 1u);
    let ballot = subgroupBallot(i % 3u == 0u);
    let first = subgroupBroadcastFirst(i);
    let max = subgroupMax(i);
    out[i * 5u] = inc;
    out[i * 5u + 1u] = exc;
    out[i * 5u + 2u] = ballot.x;
    out[i * 5u + 3u] = first;
    out[i * 5u + 4u] = max;
}";
    let size = 8;
    let out = run(src, 12, size, 60, Schedule::Forward);
    for i in 0..12u32 {
        let first = i / size * size;
        let last = (first + size).min(12) - 1;
        let inc: u32 = (first..=i).map(|k| k + 1).sum();
        let ballot = (first..=last).filter(|k| k % 3 == 0).fold(0u32, |b, k| b | 1 << (k - first));
        let got = &out[i as usize * 5..i as usize * 5 + 5];
        assert_eq!(got, [inc, inc - (i + 1), ballot, first, last], "lane {i}");
    }
}

#[test]
fn a_shuffle_from_a_lane_that_does_not_exist_gives_an_undefined_value() {
    // 6 invocations in subgroups of 8: lanes 6 and 7 do not exist.
    let src = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(6)
fn main(@builtin(local_invocation_index) i: u32) {
    out[i] = subgroupShuffleXor(i * 10u, 4u);
}";
    let out = run(src, 6, 8, 6, Schedule::Lockstep);
    let u = gpu_puzzles_interp::subgroup::UNDEFINED_U32;
    assert_eq!(out, [40, 50, u, u, 0, 10]);
}

#[test]
fn lanes_that_left_an_if_wait_for_the_lanes_inside() {
    // Lanes below 2 run an extra subgroupAdd inside the `if`; the one
    // after it is then run by all four lanes together.
    let src = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    var inner = 0u;
    if (i < 2u) {
        inner = subgroupAdd(1u);
    }
    out[i] = subgroupAdd(1u) * 10u + inner;
}";
    for schedule in SCHEDULES {
        assert_eq!(run(src, 4, 4, 4, schedule), [42, 42, 40, 40], "{schedule:?}");
    }
}
