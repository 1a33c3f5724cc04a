//! Unit tests of the trace layout: invocation numbering, racecheck keys, and
//! room in the trace buffer for every counter and shadow.

use super::*;

fn config() -> CaseConfig {
    CaseConfig { workgroup_size: [4, 2, 1], workgroups: [2, 3, 1], workgroup_memory: None }
}

#[test]
fn invocation_ids_round_trip() {
    // Dispatch: 8 × 6 invocations; id 8 * 3 + 5 is gid (5, 3, 0).
    let inv = invocation(29, &config());
    assert_eq!(inv.workgroup_id, [1, 1, 0]);
    assert_eq!(inv.local_invocation_id, [1, 1, 0]);
    // Workgroup (1, 1) is linear 1 + 1 * 2 = 3; local (1, 1) is index 1 + 1 * 4 = 5.
    assert_eq!(invocation_in_workgroup(3, 5, &config()), inv);
}

#[test]
fn keys_order_by_workgroup_then_interval_then_invocation() {
    let f = KeyFormat::storage(&config()).unwrap();
    assert_eq!((f.local_bits, f.workgroup_bits, f.epoch_bits), (3, 3, 26));
    let k = |workgroup, epoch, local| f.pack(Key { workgroup, epoch, local });
    assert!(k(1, 1, 0) > k(0, 9, 7) && k(0, 2, 0) > k(0, 1, 7) && k(0, 1, 3) > k(0, 1, 2));
    assert_eq!(f.unpack(k(5, 17, 6)), Key { workgroup: 5, epoch: 17, local: 6 });
    assert_eq!(f.low(f.low(k(5, 17, 6))), k(5, 17, 6));
    assert!(f.unordered(k(0, 1, 2), k(1, 1, 2)), "different workgroups always race");
    assert!(f.unordered(k(0, 1, 2), k(0, 1, 3)), "same interval, different invocations");
    assert!(!f.unordered(k(0, 1, 2), k(0, 2, 3)), "a barrier between them orders them");
    assert!(!f.unordered(k(0, 1, 2), k(0, 1, 2)), "an invocation never races itself");
    let w = KeyFormat::workgroup(&config());
    assert_eq!((w.local_bits, w.epoch_bits), (3, 29));
}

#[test]
fn layout_has_room_for_everything() {
    let spec = TraceSpec {
        buffers: vec![(10, false), (4, true)],
        workgroup_words: 8,
        workgroup_vars: 1,
        bounds_only: 0,
        dispatches: 2,
        prints: false,
    };
    let layout = TraceLayout::new(&spec, &config());
    assert_eq!(layout.invocations, 48);
    let fixed = header::WORDS
        + 3 * 3
        + 3 * OOB_RECORDS_PER_KIND * OOB_RECORD_WORDS
        + 3 * HAZARD_RECORDS_PER_KIND * HAZARD_RECORD_WORDS;
    let heat = 3 * 14;
    let storage_race = 2 * RACE_ARRAYS * 4;
    let workgroup_race = 2 * 6 * RACE_ARRAYS * 8;
    assert_eq!(
        layout.total_words,
        fixed + heat + storage_race + workgroup_race + INVOCATION_WORDS * 48
    );
    assert_eq!(layout.race_base[0], None);
}
