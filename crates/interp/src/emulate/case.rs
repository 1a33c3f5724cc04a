//! One case on the CPU: prepare, run under the schedules, judge.

use super::*;

/// [`super::run_case_at`]; with `sweep`, a shader that uses subgroups is
/// also judged at every other subgroup size. Loops stop after
/// `loop_budget` iterations ([`Program::loop_budget`]).
pub(super) fn run(
    puzzle: &Puzzle,
    case: &Case,
    shader: &Arc<PreparedShader>,
    schedules: &[Schedule],
    subgroup_size: u32,
    sweep: bool,
    loop_budget: u32,
) -> Result<CaseResult, Unjudged> {
    let mut result = CaseResult::new(case, Outcome::Passed);
    let finish = |mut r: CaseResult, outcome| {
        r.outcome = outcome;
        Ok(r)
    };
    let prepared = match prepare(puzzle, case, shader) {
        Ok(p) => Prepared { subgroup_size, loop_budget, ..p },
        Err(NotRunnable::Outcome(o)) => return finish(result, *o),
        Err(NotRunnable::Unjudged(u)) => return Err(u),
    };
    let (sub, source, config) = (shader.sub(), shader.source(), &prepared.config);

    // Lock step first: its outputs are judged, and only a kernel that
    // passes has its other schedules run (they can only find that the
    // result depends on the order, or stop it). A failing kernel, most of
    // what a student runs, costs one schedule rather than three.
    let stopped = |mut result: CaseResult, stop: Stop| match stop {
        Stop::RunawayLoop { span, invocation: id } => {
            let line = place(sub, source, span).map(|p| p.line);
            let runaway = RunawayLoop { line, invocation: invocation(id, config) };
            let findings = Findings {
                runaway_loop: Some(runaway),
                workgroup_size: config.workgroup_size,
                ..empty_findings()
            };
            let outcome = memory_outcome(&findings).expect("a runaway loop fails");
            result.findings = Some(findings);
            finish(result, outcome)
        }
        Stop::BarrierNotReached { span, workgroup, waiting, invocations } => {
            let r = span.to_range().unwrap_or(0..0);
            let message = format!(
                "{waiting} of the {invocations} invocations of workgroup {workgroup} wait at this barrier, and the others never reach it (they returned, or wait at another barrier). Every invocation of a workgroup must reach the same barriers: move the barrier out of the `if` or loop that only some invocations enter"
            );
            let d = Diagnostic::error_at(message, r.start, r.len(), sub, source);
            finish(result, Outcome::CompileError { diagnostics: vec![d] })
        }
        e => Err(unjudged(&e, sub, source)),
    };
    let Some((&lockstep, others)) = schedules.split_first() else {
        return Err(Unjudged { message: "no schedule to run the case in".into() });
    };
    let first = match schedule::run(&prepared, lockstep, puzzle, true) {
        Ok(ran) => ran,
        Err(stop) => return stopped(result, stop),
    };
    let findings = findings(&first.record, &prepared, puzzle);
    let mut outcome = judge(puzzle, case, &first.actual).map_err(Unjudged::from)?;
    if let Some(memory) = memory_outcome(&findings) {
        if outcome.passed() || matches!(outcome, Outcome::Mismatch { .. }) {
            outcome = memory;
        }
    }
    if outcome.passed() {
        if let Some(over) = budget_outcome(puzzle, case, &findings) {
            outcome = over;
        }
    }
    if sweep
        && (outcome.passed() || matches!(outcome, Outcome::Mismatch { .. }))
        && prepared.program.uses_subgroups()
    {
        if let Some(o) = sweep_subgroup_sizes(&prepared, puzzle, case)? {
            outcome = o;
        }
    }
    if outcome.passed() {
        let mut runs = Vec::with_capacity(others.len());
        for ran in run_all(&prepared, others, puzzle, false) {
            match ran {
                Ok(ran) => runs.push(ran),
                Err(stop) => return stopped(result, stop),
            }
        }
        for (other, &schedule) in runs.iter().zip(others) {
            if let Some(o) = bits_differ(
                puzzle,
                (&first.actual, lockstep.describe()),
                (&other.actual, schedule.describe()),
            ) {
                outcome = o;
                break;
            }
            let judged = judge(puzzle, case, &other.actual).map_err(Unjudged::from)?;
            if let Some(o) = order_dependent(
                puzzle,
                (&first.actual, lockstep.describe()),
                (&other.actual, schedule.describe()),
                &judged,
            ) {
                outcome = o;
                break;
            }
        }
    }
    result.actual = first.actual;
    result.findings = Some(findings);
    finish(result, outcome)
}
