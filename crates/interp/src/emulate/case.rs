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

    let mut runs: Vec<Ran> = Vec::new();
    for ran in run_all(&prepared, schedules, puzzle, true) {
        match ran {
            Ok(ran) => runs.push(ran),
            Err(Stop::RunawayLoop { span, invocation: id }) => {
                let line = place(sub, source, span).map(|p| p.line);
                let runaway = RunawayLoop { line, invocation: invocation(id, config) };
                let findings = Findings {
                    runaway_loop: Some(runaway),
                    workgroup_size: config.workgroup_size,
                    ..empty_findings()
                };
                let outcome = memory_outcome(&findings).expect("a runaway loop fails");
                result.findings = Some(findings);
                return finish(result, outcome);
            }
            Err(Stop::BarrierNotReached { span, workgroup, waiting, invocations }) => {
                let r = span.to_range().unwrap_or(0..0);
                let message = format!(
                    "{waiting} of the {invocations} invocations of workgroup {workgroup} wait at this barrier, and the others never reach it (they returned, or wait at another barrier). Every invocation of a workgroup must reach the same barriers: move the barrier out of the `if` or loop that only some invocations enter"
                );
                let d = Diagnostic::error_at(message, r.start, r.len(), sub, source);
                return finish(result, Outcome::CompileError { diagnostics: vec![d] });
            }
            Err(e) => return Err(unjudged(&e, sub, source)),
        }
    }
    let first = runs.remove(0);
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
        for (other, &schedule) in runs.iter().zip(&schedules[1..]) {
            let judged = judge(puzzle, case, &other.actual).map_err(Unjudged::from)?;
            if let Some(o) = order_dependent(
                puzzle,
                (&first.actual, schedules[0].describe()),
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
