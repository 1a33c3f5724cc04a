//! The order check: a case run under several schedules and judged under
//! each, failing when its result depends on the order its invocations run
//! in.

use super::schedule::run_all;
use super::{prepare, unjudged, NotRunnable, Prepared, Unjudged, SCHEDULES};
use crate::dispatch::Schedule;
use crate::prepared::PreparedShader;
use crate::Stop;
use gpu_puzzles_core::{Case, Puzzle, Values};
use gpu_puzzles_verdict::judge::{judge, Outcome};
use gpu_puzzles_verdict::report::{memory_error_message, MemoryError, OrderDependent};
use std::sync::Arc;

/// The memory error for a result that passes in one order of running the
/// invocations (`passing`: the outputs and the order in words) and fails
/// in another (`failing`, judged `judged`): a race the values show,
/// whatever order a GPU happens to use. `None` when `judged` passed.
pub(super) fn order_dependent(
    puzzle: &Puzzle,
    passing: (&[Values], String),
    failing: (&[Values], String),
    judged: &Outcome,
) -> Option<Outcome> {
    let Outcome::Mismatch { mismatches, .. } = judged else { return None };
    let m = mismatches.first()?;
    let compared: Vec<usize> = puzzle.compared_buffers().collect();
    let k = compared.iter().position(|&b| puzzle.buffers[b].name == m.buffer)?;
    let value = |v: &[Values]| {
        v.get(k)
            .filter(|b| m.index < b.len())
            .map_or_else(|| "missing".into(), |b| b.format(m.index))
    };
    let error = MemoryError::OrderDependent(OrderDependent {
        buffer: m.buffer.clone(),
        index: m.index,
        first: (passing.1, value(passing.0)),
        second: (failing.1, value(failing.0)),
        bits: false,
    });
    Some(Outcome::MemoryError { message: memory_error_message(&error), error })
}

/// For a puzzle that asks for the same bits on every Run
/// (`Puzzle::deterministic`): the memory error for two runs whose compared
/// outputs (`first` and `second`, each with its order in words) differ in
/// any bit at some element, the first such element named with both values
/// and their bits. `None` when every bit agrees, or the puzzle does not ask.
pub fn bits_differ(
    puzzle: &Puzzle,
    first: (&[Values], String),
    second: (&[Values], String),
) -> Option<Outcome> {
    if !puzzle.deterministic {
        return None;
    }
    let compared = puzzle.compared_buffers().map(|b| &puzzle.buffers[b]);
    for ((buffer, a), b) in compared.zip(first.0).zip(second.0) {
        let (wa, wb) = (a.to_bytes(), b.to_bytes());
        let Some(index) = wa.chunks(4).zip(wb.chunks(4)).position(|(x, y)| x != y) else {
            if wa.len() == wb.len() {
                continue;
            }
            return None;
        };
        let with_bits = |v: &Values, w: &[u8]| {
            let word = u32::from_le_bytes(w[4 * index..4 * index + 4].try_into().unwrap_or([0; 4]));
            format!("{} (bits 0x{word:08X})", v.format(index))
        };
        let error = MemoryError::OrderDependent(OrderDependent {
            buffer: buffer.name.clone(),
            index,
            first: (first.1, with_bits(a, &wa)),
            second: (second.1, with_bits(b, &wb)),
            bits: true,
        });
        return Some(Outcome::MemoryError { message: memory_error_message(&error), error });
    }
    None
}

/// The second line of defence behind the GPU run's racecheck: a case whose
/// outputs passed on the GPU (`gpu`, in one order of running the
/// invocations) is run by the interpreter under [`SCHEDULES`] and judged
/// under each. When one order passes and another fails, the result depends
/// on the order the invocations run in (a race the racecheck may not have
/// seen, such as one between workgroups that only shows in the values),
/// and the case fails with [`MemoryError::OrderDependent`]. When every
/// schedule agrees with the GPU, or the interpreter cannot tell (it stops,
/// or every schedule fails alike: then it is the interpreter that
/// disagrees with the GPU, and a student is never failed on that), `None`.
///
/// # Errors
/// [`Unjudged`] when the interpreter cannot run the shader; the case keeps
/// its verdict and says the order check did not run.
pub fn order_check(
    puzzle: &Puzzle,
    case: &Case,
    source: &str,
) -> Result<Option<Outcome>, Unjudged> {
    match prepare(puzzle, case, &Arc::new(PreparedShader::new(puzzle, source, &case.config))) {
        Ok(p) => order_check_prepared(&p, puzzle, case, None),
        Err(NotRunnable::Outcome(_)) => Ok(None),
        Err(NotRunnable::Unjudged(u)) => Err(u),
    }
}

/// [`order_check`] on a prepared case; with `lockstep`, the outputs of the
/// first schedule, run already.
pub(super) fn order_check_prepared(
    prepared: &Prepared,
    puzzle: &Puzzle,
    case: &Case,
    lockstep: Option<&[Values]>,
) -> Result<Option<Outcome>, Unjudged> {
    use std::borrow::Cow;
    let (sub, source) = (prepared.shader.sub(), prepared.shader.source());
    let mut outputs: Vec<(Cow<[Values]>, Schedule)> =
        lockstep.map(|v| (Cow::Borrowed(v), SCHEDULES[0])).into_iter().collect();
    let rest = &SCHEDULES[outputs.len()..];
    for (ran, &schedule) in run_all(prepared, rest, puzzle, false).into_iter().zip(rest) {
        match ran {
            Ok(ran) => outputs.push((Cow::Owned(ran.actual), schedule)),
            Err(e @ (Stop::Unsupported { .. } | Stop::Internal { .. })) => {
                return Err(unjudged(&e, sub, source))
            }
            Err(_) => return Ok(None),
        }
    }
    if let Some((first, rest)) = outputs.split_first() {
        for (actual, schedule) in rest {
            let (a, b) = ((&first.0[..], first.1.describe()), (&actual[..], schedule.describe()));
            if let Some(o) = bits_differ(puzzle, a, b) {
                return Ok(Some(o));
            }
        }
    }
    let mut passing = None;
    let mut failing = None;
    for (actual, schedule) in outputs {
        let judged = judge(puzzle, case, &actual).map_err(Unjudged::from)?;
        if judged.passed() {
            passing.get_or_insert((actual, schedule));
        } else {
            failing.get_or_insert((actual, schedule, judged));
        }
    }
    Ok(match (passing, failing) {
        (Some((pass, p)), Some((fail, f, judged))) => {
            order_dependent(puzzle, (&pass, p.describe()), (&fail, f.describe()), &judged)
        }
        _ => None,
    })
}
