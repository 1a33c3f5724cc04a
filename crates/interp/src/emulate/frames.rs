//! A case's steps as frames on the CPU: the compared buffers after some of
//! its dispatches, for a browser without WebGPU (the GPU's form is
//! `gpu_puzzles_runner::frames`).

use super::*;
use crate::dispatch::Dispatch;

/// Runs `case` in lock step (no checks: the page plays a case only after a
/// Run judged it) and returns the compared buffers, in binding order, after
/// each dispatch count of `after` (increasing, from 1; counts past the
/// case's dispatches are left out).
///
/// # Errors
/// [`Unjudged`] when the shader cannot be prepared or stops (a runaway
/// loop, a barrier not reached), with what stopped it.
pub fn frames(
    puzzle: &Puzzle,
    case: &Case,
    source: &str,
    after: &[u32],
) -> Result<Vec<Vec<Values>>, Unjudged> {
    let shader = Arc::new(PreparedShader::new(puzzle, source, &case.config));
    let p = match prepare(puzzle, case, &shader) {
        Ok(p) => p,
        Err(NotRunnable::Unjudged(u)) => return Err(u),
        Err(NotRunnable::Outcome(o)) => {
            return Err(Unjudged { message: format!("the case cannot be played: {o:?}") })
        }
    };
    let (sub, text) = (shader.sub(), shader.source());
    let mut memory = p.memory.clone();
    let mut out = Vec::with_capacity(after.len());
    let mut wanted = after.iter().peekable();
    for (k, step) in p.steps.iter().enumerate() {
        let memory_k = p.memory_for(k, memory);
        let mut d = Dispatch::with_subgroup_size(
            p.program.clone(),
            step.entry,
            p.config,
            memory_k,
            Schedule::Lockstep,
            p.subgroup_size,
        )
        .map_err(|e| unjudged(&e, sub, text))?;
        d.set_loop_budget(p.loop_budget);
        d.run().map_err(|e| unjudged(&e, sub, text))?;
        memory = d.memory;
        if wanted.next_if(|&&n| n as usize == k + 1).is_some() {
            out.push(super::schedule::compared(puzzle, &memory));
        }
    }
    Ok(out)
}
