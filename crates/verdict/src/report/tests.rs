//! Unit tests of the findings' wording: hazards and out-of-bounds accesses
//! against their snapshots, and which memory error fails a case first.

use super::*;
use crate::trace::{invocation_in_workgroup, OutOfBoundsAccess};
use gpu_puzzles_core::CaseConfig;

const CONFIG: CaseConfig =
    CaseConfig { workgroup_size: [4, 1, 1], workgroups: [2, 1, 1], workgroup_memory: None };

fn access(local: u32, kind: AccessKind, line: usize) -> HazardAccess {
    HazardAccess {
        invocation: invocation_in_workgroup(0, local, &CONFIG),
        kind,
        site: Some(Site { line, column: 5 }),
    }
}

#[test]
fn hazards_name_both_invocations_their_lines_and_the_barrier() {
    let h = |kind, workgroup_memory, across_workgroups| Hazard {
        kind,
        space: if workgroup_memory { "smem" } else { "out" }.into(),
        workgroup_memory,
        element: Some(3),
        entry_point: "main".into(),
        dispatch: 0,
        across_workgroups,
        first: access(1, kind.accesses().0, 12),
        second: access(2, kind.accesses().1, 14),
    };
    let text = [
        hazard(&h(HazardKind::ReadAfterWrite, true, false)),
        hazard(&h(HazardKind::WriteAfterRead, true, false)),
        hazard(&h(HazardKind::WriteAfterWrite, false, false)),
        hazard(&h(HazardKind::ReadAfterWrite, false, true)),
    ]
    .join("\n");
    snapshot("hazards", &text);
}

#[test]
fn out_of_bounds_reads_say_why_they_seemed_to_work() {
    let o = |kind| OutOfBounds {
        space: "a".into(),
        memory: MemoryKind::Storage,
        kind,
        total: 3,
        elements: 16,
        first: vec![OutOfBoundsAccess {
            index: 16,
            invocation: invocation_in_workgroup(1, 0, &CONFIG),
            site: Some(Site { line: 9, column: 3 }),
        }],
    };
    let text =
        [out_of_bounds(&o(AccessKind::Read)), out_of_bounds(&o(AccessKind::Write))].join("\n");
    snapshot("out-of-bounds", &text);
}

#[test]
fn out_of_bounds_in_variables_and_values_name_them() {
    let o = |space: &str, memory, kind| OutOfBounds {
        space: space.into(),
        memory,
        kind,
        total: 1,
        elements: 3,
        first: vec![OutOfBoundsAccess {
            index: 3,
            invocation: invocation_in_workgroup(0, 2, &CONFIG),
            site: Some(Site { line: 12, column: 17 }),
        }],
    };
    let text = [
        out_of_bounds(&o("w", MemoryKind::Function, AccessKind::Read)),
        out_of_bounds(&o("acc", MemoryKind::Private, AccessKind::Write)),
        out_of_bounds(&o("m[…]", MemoryKind::Value, AccessKind::Read)),
        out_of_bounds(&o("", MemoryKind::Value, AccessKind::Read)),
    ]
    .join("\n");
    snapshot("out-of-bounds-variables", &text);
}

#[test]
fn writes_fail_before_hazards_and_hazards_before_reads() {
    let read = OutOfBounds {
        space: "a".into(),
        memory: MemoryKind::Storage,
        kind: AccessKind::Read,
        total: 1,
        elements: 4,
        first: vec![],
    };
    let write = OutOfBounds { kind: AccessKind::Write, ..read.clone() };
    let f = Findings { out_of_bounds: vec![read.clone(), write.clone()], ..Default::default() };
    assert_eq!(memory_error(&f), Some(MemoryError::OutOfBounds(write)));
    let f = Findings { out_of_bounds: vec![read.clone()], ..Default::default() };
    assert_eq!(memory_error(&f), Some(MemoryError::OutOfBounds(read)));
    assert_eq!(memory_error(&Findings::default()), None);
}

#[test]
fn a_hazard_between_workgroups_fails_before_a_write_conflict_within_one() {
    let h = |kind: HazardKind, across_workgroups| Hazard {
        kind,
        space: if across_workgroups { "blocks" } else { "out" }.into(),
        workgroup_memory: false,
        element: Some(3),
        entry_point: "main".into(),
        dispatch: 0,
        across_workgroups,
        first: access(1, kind.accesses().0, 12),
        second: access(2, kind.accesses().1, 14),
    };
    let within = h(HazardKind::WriteAfterWrite, false);
    let across = h(HazardKind::ReadAfterWrite, true);
    // The racecheck lists write conflicts first; the hazard between
    // workgroups still leads.
    let f = Findings {
        hazards: vec![within.clone(), across.clone()],
        hazard_total: 2,
        ..Default::default()
    };
    assert_eq!(memory_error(&f), Some(MemoryError::Hazard(across.clone())));
    let f = Findings { hazards: vec![within.clone()], hazard_total: 1, ..Default::default() };
    assert_eq!(memory_error(&f), Some(MemoryError::Hazard(within.clone())));
    // The same variable's write conflicts are the same mistake, told
    // better by the conflict (`bins[k] += 1` in every workgroup).
    let same = Hazard { space: "out".into(), ..across.clone() };
    let f = Findings { hazards: vec![within.clone(), same], hazard_total: 2, ..Default::default() };
    assert_eq!(memory_error(&f), Some(MemoryError::Hazard(within.clone())));
    // An earlier dispatch's hazard leads whatever its kind.
    let later = Hazard { dispatch: 1, ..across };
    let f =
        Findings { hazards: vec![later, within.clone()], hazard_total: 2, ..Default::default() };
    assert_eq!(memory_error(&f), Some(MemoryError::Hazard(within)));
}

/// A race the values show and a sum whose bits change with the order are
/// told apart: the second names the bits, says the puzzle asks for the same
/// ones, and what to do instead of atomics; its badge says what differs.
#[test]
fn an_order_dependent_result_is_told_as_a_race_or_as_bits() {
    let o = |bits| OrderDependent {
        buffer: "total".into(),
        index: 0,
        first: ("in lock step".into(), "1.5 (bits 0x3FC00000)".into()),
        second: ("in reverse".into(), "1.5000001 (bits 0x3FC00001)".into()),
        bits,
    };
    let race = order_dependent(&o(false));
    assert!(race.contains("total[0] is 1.5 (bits 0x3FC00000) when in lock step"), "{race}");
    assert!(race.contains("workgroupBarrier()") && !race.contains("same bits"), "{race}");
    let bits = order_dependent(&o(true));
    assert!(bits.contains("but 1.5000001 (bits 0x3FC00001) when in reverse"), "{bits}");
    assert!(bits.contains("same bits on every Run") && bits.contains("compare-and-swap"), "{bits}");
    let badge = |o| {
        let error = MemoryError::OrderDependent(o);
        crate::run_report::badge(&crate::judge::Outcome::MemoryError {
            message: memory_error_message(&error),
            error,
        })
    };
    assert_eq!(badge(o(true)), "different bits each run");
    assert_eq!(badge(o(false)), "memory error");
}
