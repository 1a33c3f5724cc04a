//! Running a prepared case on the interpreter: its dispatches in turn over
//! its memory under one schedule, the records of the dispatches merged,
//! and several schedules side by side.

use super::Prepared;
use crate::dispatch::{Dispatch, Record, Schedule};
use crate::exec::Memory;
use crate::Stop;
use gpu_puzzles_core::{Puzzle, Values};

/// What one schedule's run gave: the compared buffers' contents and the
/// record of its accesses.
pub(super) struct Ran {
    pub(super) actual: Vec<Values>,
    pub(super) record: Record,
}

/// [`run`] under each of `schedules`, in that order, the race detector on
/// for the first when `detect_races`: natively on a thread each (they share
/// nothing but the program and the case), in a browser one after another.
pub(super) fn run_all(
    p: &Prepared,
    schedules: &[Schedule],
    puzzle: &Puzzle,
    detect_races: bool,
) -> Vec<Result<Ran, Stop>> {
    #[cfg(not(target_arch = "wasm32"))]
    if schedules.len() > 1 {
        return std::thread::scope(|scope| {
            let handles: Vec<_> = schedules
                .iter()
                .enumerate()
                .map(|(k, &s)| scope.spawn(move || run(p, s, puzzle, detect_races && k == 0)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
    }
    schedules.iter().enumerate().map(|(k, &s)| run(p, s, puzzle, detect_races && k == 0)).collect()
}

/// Runs the case's dispatches in turn over its memory under `schedule`.
pub(super) fn run(
    p: &Prepared,
    schedule: Schedule,
    puzzle: &Puzzle,
    detect_races: bool,
) -> Result<Ran, Stop> {
    run_with(p, schedule, puzzle, detect_races, p.subgroup_size)
}

/// [`run`] with subgroups of `subgroup_size` lanes.
pub(super) fn run_with(
    p: &Prepared,
    schedule: Schedule,
    puzzle: &Puzzle,
    detect_races: bool,
    subgroup_size: u32,
) -> Result<Ran, Stop> {
    let mut memory = p.memory.clone();
    let mut total: Option<Record> = None;
    // Prints are numbered by the entry point's place among the case's entry
    // points, in order of first dispatch, as the instrumented run numbers them.
    let mut entries: Vec<usize> = Vec::new();
    for s in &p.steps {
        if !entries.contains(&s.entry) {
            entries.push(s.entry);
        }
    }
    for (k, step) in p.steps.iter().enumerate() {
        let (entry, dispatch) = (step.entry, step.dispatch);
        let memory_k = p.memory_for(k, memory);
        let mut d = Dispatch::with_subgroup_size(
            p.program.clone(),
            entry,
            p.config,
            memory_k,
            schedule,
            subgroup_size,
        )?;
        d.set_loop_budget(p.loop_budget);
        if detect_races {
            d.detect_races();
        }
        d.run()?;
        let rank = entries.iter().position(|&e| e == entry).unwrap_or(0) as u32;
        d.record.prints.iter_mut().for_each(|l| l.entry_point = rank);
        if let Some(races) = d.races.take() {
            d.record.race_total += races.total;
            d.record.races.extend(races.sorted().into_iter().map(|r| (r, entry, dispatch)));
        }
        memory = d.memory;
        total = Some(match total {
            None => d.record,
            Some(mut t) => {
                merge(&mut t, d.record);
                t
            }
        });
    }
    Ok(Ran { actual: compared(puzzle, &memory), record: total.unwrap_or_default() })
}

/// The compared buffers' contents in `memory`, in binding order.
pub(super) fn compared(puzzle: &Puzzle, memory: &Memory) -> Vec<Values> {
    puzzle
        .compared_buffers()
        .map(|k| {
            let bytes: Vec<u8> = memory.storage[k].iter().flat_map(|w| w.to_le_bytes()).collect();
            Values::from_bytes(puzzle.buffers[k].element, &bytes)
        })
        .collect()
}

fn merge(t: &mut Record, r: Record) {
    for (a, b) in t.reads.iter_mut().zip(r.reads).chain(t.writes.iter_mut().zip(r.writes)) {
        for (x, y) in a.iter_mut().zip(b) {
            *x += y;
        }
    }
    for (a, b) in t.writer.iter_mut().zip(r.writer) {
        for (x, y) in a.iter_mut().zip(b) {
            *x = (*x).max(y);
        }
    }
    for (a, b) in t.invocations.iter_mut().zip(r.invocations) {
        for (x, y) in a.iter_mut().zip(b) {
            *x += y;
        }
    }
    t.out_of_bounds.extend(r.out_of_bounds);
    for line in r.prints {
        t.keep_print(line);
    }
    t.prints_dropped += r.prints_dropped;
    t.races.extend(r.races);
    t.race_total += r.race_total;
}
