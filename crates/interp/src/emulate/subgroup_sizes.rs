//! The subgroup check: a case of a shader that uses subgroups run at every
//! subgroup size its workgroup can fill, failing when its result is right
//! at one size and wrong at another.

use super::schedule::{run_with, Ran};
use super::{checks_behind_the_gpu, unjudged, Prepared, Unjudged};
use crate::dispatch::Schedule;
use crate::Stop;
use gpu_puzzles_core::{Case, Puzzle};
use gpu_puzzles_verdict::judge::{judge, Outcome};
use gpu_puzzles_verdict::report::{memory_error_message, MemoryError, SubgroupSizeDependent};

/// The subgroup check, beside the order check: a case of a shader that uses
/// subgroups is run by the interpreter with every subgroup size WebGPU
/// allows that the workgroup can fill ([`crate::subgroup::sizes_for`]), and
/// judged at each. When it is right at one size and wrong at another, the
/// case fails with [`MemoryError::SubgroupSizeDependent`], whatever size the
/// GPU at hand has; a shader that does not use subgroups, or whose result
/// is right at every size or wrong at every size (a plain mistake, which
/// the outputs already show), gives `None`.
///
/// # Errors
/// [`Unjudged`] when the interpreter cannot run the shader.
pub fn subgroup_check(
    puzzle: &Puzzle,
    case: &Case,
    source: &str,
) -> Result<Option<Outcome>, Unjudged> {
    checks_behind_the_gpu(puzzle, case, source, false)
}

/// [`subgroup_check`] on a prepared case.
pub(super) fn sweep_subgroup_sizes(
    p: &Prepared,
    puzzle: &Puzzle,
    case: &Case,
) -> Result<Option<Outcome>, Unjudged> {
    let invocations = p
        .entries
        .iter()
        .map(|&e| p.program.module.entry_points[e].workgroup_size.iter().product::<u32>())
        .max()
        .unwrap_or(1);
    let sizes = crate::subgroup::sizes_for(invocations);
    let runs: Vec<Result<Ran, Stop>> = {
        #[cfg(not(target_arch = "wasm32"))]
        {
            std::thread::scope(|scope| {
                let handles: Vec<_> = sizes
                    .iter()
                    .map(|&n| scope.spawn(move || run_with(p, Schedule::Forward, puzzle, false, n)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                    .collect()
            })
        }
        #[cfg(target_arch = "wasm32")]
        {
            sizes.iter().map(|&n| run_with(p, Schedule::Forward, puzzle, false, n)).collect()
        }
    };
    let mut tried = Vec::new();
    let mut wrong_at = Vec::new();
    for (ran, &size) in runs.into_iter().zip(&sizes) {
        match ran {
            Ok(ran) => {
                let judged = judge(puzzle, case, &ran.actual).map_err(Unjudged::from)?;
                tried.push((size, judged.passed()));
                if let Outcome::Mismatch { mismatches, .. } = judged {
                    if let Some(m) = mismatches.into_iter().next() {
                        wrong_at.push((size, m));
                    }
                }
            }
            Err(e @ (Stop::Unsupported { .. } | Stop::Internal { .. })) => {
                return Err(unjudged(&e, p.shader.sub(), p.shader.source()))
            }
            // A loop or barrier that goes wrong at one size: the size's own
            // run says so when the GPU has it; here it only counts as wrong.
            Err(_) => tried.push((size, false)),
        }
    }
    let passing: Vec<u32> = tried.iter().filter(|t| t.1).map(|t| t.0).collect();
    let Some(right) = passing
        .iter()
        .copied()
        .find(|&s| s == crate::subgroup::DEFAULT_SIZE)
        .or_else(|| passing.last().copied())
    else {
        return Ok(None);
    };
    let Some((wrong, m)) =
        wrong_at.into_iter().min_by_key(|(s, _)| (s.max(&right) / s.min(&right), *s))
    else {
        return Ok(None);
    };
    let error = MemoryError::SubgroupSizeDependent(SubgroupSizeDependent {
        right,
        wrong,
        buffer: m.buffer.clone(),
        index: m.index,
        got: m.actual.clone(),
        expected: m.expected.clone(),
        tried,
    });
    Ok(Some(Outcome::MemoryError { message: memory_error_message(&error), error }))
}
