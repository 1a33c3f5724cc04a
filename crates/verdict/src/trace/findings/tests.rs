//! The trace reader's tests, on traces written by hand.
use super::super::{Key, TraceSpec};
use super::*;

fn config() -> CaseConfig {
    CaseConfig { workgroup_size: [4, 1, 1], workgroups: [2, 1, 1], workgroup_memory: None }
}

fn meta() -> TraceMeta {
    let spec = TraceSpec {
        buffers: vec![(8, true)],
        workgroup_words: 4,
        workgroup_vars: 1,
        bounds_only: 0,
        dispatches: 1,
        prints: false,
    };
    TraceMeta {
        layout: TraceLayout::new(&spec, &config()),
        spaces: vec![
            SpaceInfo {
                name: "out".into(),
                memory: MemoryKind::Storage,
                element_words: 1,
                array_word: 0,
                elements: 8,
                shadow_base: 0,
                counted_words: 1,
            },
            SpaceInfo {
                name: "smem".into(),
                memory: MemoryKind::Workgroup,
                element_words: 1,
                array_word: 0,
                elements: 4,
                shadow_base: 0,
                counted_words: 1,
            },
        ],
        sites: vec![
            Site { line: 0, column: 0 },
            Site { line: 7, column: 5 },
            Site { line: 9, column: 13 },
        ],
        site_access: vec![(0, AccessKind::Read), (1, AccessKind::Write), (1, AccessKind::Read)],
        loop_lines: vec![],
        entry_points: vec!["main".into()],
        unchecked: vec![],
        prints: Default::default(),
    }
}

#[test]
fn a_hazard_names_both_invocations_and_lines() {
    let m = meta();
    let mut words = vec![0; m.layout.total_words as usize];
    let f = m.layout.workgroup_keys;
    let (writer, reader) = (
        f.pack(Key { workgroup: 0, epoch: 1, local: 1 }),
        f.pack(Key { workgroup: 0, epoch: 1, local: 2 }),
    );
    words[(header::HAZARD_COUNTS + HazardKind::ReadAfterWrite as u64) as usize] = 1;
    words[(header::HAZARD_SLOTS + HazardKind::ReadAfterWrite as u64) as usize] = 1;
    let at = m.layout.hazard_record_word(HazardKind::ReadAfterWrite, 0) as usize;
    words[at + hw::SPACE as usize] = 1;
    words[at + hw::WORD as usize] = 3;
    words[at + hw::KEY as usize] = reader;
    words[at + hw::OTHER_KEY as usize] = writer;
    words[at + hw::SITE as usize] = 2;
    words[at + hw::OTHER_SITE as usize] = site_word(1, writer);
    words[at + hw::WORKGROUP as usize] = 1;
    let found = m.findings(&words);
    assert!(found.fails());
    let h = &found.hazards[0];
    assert_eq!(
        (h.kind, h.space.as_str(), h.element, h.across_workgroups),
        (HazardKind::ReadAfterWrite, "smem", Some(3), false)
    );
    assert_eq!(h.first.invocation.workgroup_id, [1, 0, 0]);
    assert_eq!(h.first.invocation.local_invocation_id, [1, 0, 0]);
    assert_eq!(h.first.site.map(|s| s.line), Some(7));
    assert_eq!(h.second.invocation.local_invocation_id, [2, 0, 0]);
    assert_eq!(h.second.site.map(|s| s.line), Some(9));
}

#[test]
fn a_site_word_of_another_invocation_gives_no_line() {
    let m = meta();
    let mut words = vec![0; m.layout.total_words as usize];
    let f = m.layout.workgroup_keys;
    let other = f.pack(Key { workgroup: 0, epoch: 1, local: 1 });
    words[(header::HAZARD_COUNTS + HazardKind::WriteAfterWrite as u64) as usize] = 1;
    words[(header::HAZARD_SLOTS + HazardKind::WriteAfterWrite as u64) as usize] = 1;
    let at = m.layout.hazard_record_word(HazardKind::WriteAfterWrite, 0) as usize;
    words[at + hw::SPACE as usize] = 1;
    words[at + hw::KEY as usize] = f.pack(Key { workgroup: 0, epoch: 1, local: 3 });
    words[at + hw::OTHER_KEY as usize] = other;
    words[at + hw::OTHER_SITE as usize] = site_word(2, other + 1);
    words[at + hw::SITE as usize] = 1;
    let mut m2 = m.clone();
    m2.site_access.push((1, AccessKind::Write));
    m2.sites.push(Site { line: 11, column: 1 });
    // Two lines write `smem`: the other side's line is unknown.
    assert_eq!(m2.findings(&words).hazards[0].first.site, None);
    // One line writes `smem`: that is the other side's.
    assert_eq!(m.findings(&words).hazards[0].first.site.map(|s| s.line), Some(7));
}

/// A buffer the shader touches only in whole `vec4`s keeps its counts on
/// each element's first word; the reader gives them to all four.
#[test]
fn counts_kept_per_element_are_read_for_every_word() {
    let mut m = meta();
    m.spaces[0].counted_words = 4;
    let mut words = vec![0; m.layout.total_words as usize];
    words[m.layout.element_word(0, 0, 4) as usize] = 2;
    words[m.layout.element_word(0, 1, 0) as usize] = 1;
    words[m.layout.element_word(0, 2, 0) as usize] = 6;
    let b = &m.findings(&words).buffers[0];
    assert_eq!(b.reads, [0, 0, 0, 0, 2, 2, 2, 2]);
    assert_eq!(b.writes, [1, 1, 1, 1, 0, 0, 0, 0]);
    assert_eq!(b.writer[..5], [Some(5), Some(5), Some(5), Some(5), None]);
}

/// Hazards are counted apart from the records: each invocation that found
/// some claims one slot for the first it found, whatever its count (an
/// invocation with 40 hazards does not take every slot), and a slot
/// claimed but not written is no hazard.
#[test]
fn records_are_read_by_slots_claimed_not_by_count() {
    let m = meta();
    let mut words = vec![0; m.layout.total_words as usize];
    let f = m.layout.workgroup_keys;
    words[(header::HAZARD_COUNTS + HazardKind::WriteAfterWrite as u64) as usize] = 40;
    words[(header::HAZARD_SLOTS + HazardKind::WriteAfterWrite as u64) as usize] = 3;
    for slot in [0, 1] {
        let at = m.layout.hazard_record_word(HazardKind::WriteAfterWrite, slot) as usize;
        words[at + hw::SPACE as usize] = 1;
        words[at + hw::KEY as usize] = f.pack(Key { workgroup: 0, epoch: 1, local: 3 });
        words[at + hw::OTHER_KEY as usize] = f.pack(Key { workgroup: 0, epoch: 1, local: 1 });
        words[at + hw::SITE as usize] = 1;
    }
    let found = m.findings(&words);
    assert_eq!((found.hazards.len(), found.hazard_total), (2, 40));
}

#[test]
fn out_of_bounds_reads_are_counted_and_fail() {
    let m = meta();
    let mut words = vec![0; m.layout.total_words as usize];
    words[m.layout.oob_total_word(0, AccessKind::Read) as usize] = 20;
    words[m.layout.oob_total_word(0, AccessKind::Write) as usize] = 1;
    words[(header::OOB_SLOTS + AccessKind::Write as u64) as usize] = 1;
    let at = m.layout.oob_record_word(AccessKind::Write, 0) as usize;
    words[at + 1] = 8;
    words[at + 2] = 5;
    words[at + 3] = 1;
    let found = m.findings(&words);
    assert!(found.fails());
    assert_eq!(found.oob_total(), 21);
    let write = found.out_of_bounds_of(AccessKind::Write).next().unwrap();
    assert_eq!(
        (write.first[0].index, write.first[0].invocation.id, write.first[0].site.map(|s| s.line)),
        (8, 5, Some(7))
    );
}

#[test]
fn the_print_log_reads_kept_lines_in_order_and_counts_the_dropped() {
    use crate::print::{PrintScalar, ScalarKind};
    let spec = TraceSpec {
        buffers: vec![(8, true)],
        workgroup_words: 4,
        workgroup_vars: 1,
        bounds_only: 0,
        dispatches: 1,
        prints: true,
    };
    let mut m = meta();
    m.layout = TraceLayout::new(&spec, &config());
    m.prints.insert(0, vec![(ScalarKind::U32, 1)]);
    m.prints.insert(1, vec![(ScalarKind::F32, 2), (ScalarKind::Bool, 1)]);
    let mut words = vec![0; m.layout.total_words as usize];
    let base = m.layout.log_base as usize;
    // Invocation 5 (workgroup 1) printed first, then invocation 2.
    words[base..base + 6].copy_from_slice(&[2, 0, 5, 1.5f32.to_bits(), (-1.0f32).to_bits(), 1]);
    words[base + 6..base + 10].copy_from_slice(&[1, 0, 2, 42]);
    words[header::LOG_USED as usize] = 10;
    words[header::LOG_LINES as usize] = 3;
    let log = m.findings(&words).prints;
    assert_eq!(log.dropped, 1);
    assert_eq!(log.lines.len(), 2);
    assert_eq!((log.lines[0].site, log.lines[0].invocation.local_invocation_id), (0, [2, 0, 0]));
    assert_eq!(log.lines[0].values[0].0, [PrintScalar::U32(42)]);
    assert_eq!(log.lines[1].invocation.workgroup_id, [1, 0, 0]);
    assert_eq!(log.lines[1].values[0].0, [PrintScalar::F32(1.5), PrintScalar::F32(-1.0)]);
    assert_eq!(log.lines[1].values[1].0, [PrintScalar::Bool(true)]);
}
