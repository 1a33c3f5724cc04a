//! Access and barrier budgets: the limits a puzzle's `[budget]` sets on
//! what one invocation or workgroup may do, evaluated per case from their
//! formulas and checked against the counts of an instrumented run or of the
//! CPU interpreter (the same counts: `tests/gpu/puzzles.rs` compares them).

use super::{BudgetExceeded, Outcome};
use crate::trace::{invocation_counter, Findings, INVOCATION_WORDS};
use gpu_puzzles_core::model::{budget_limit, Case, Limit, Puzzle};
use std::collections::BTreeMap;

/// The budget outcome of an instrumented run: the first limit of the
/// puzzle's [`gpu_puzzles_core::model::Budget`] that some invocation or workgroup went
/// past, naming it. `None` when within budget or when the puzzle has none
/// (or a limit cannot be evaluated for this case, which the loader rules out
/// for written cases).
pub fn budget_outcome(puzzle: &Puzzle, case: &Case, findings: &Findings) -> Option<Outcome> {
    let budget = puzzle.budget.as_ref()?;
    let config = findings.config(&case.config);
    let over = |exceeded: BudgetExceeded| {
        Some(Outcome::OverBudget { message: crate::report::budget_exceeded(&exceeded), exceeded })
    };
    let limit = |l: &Option<Limit>| {
        let l = l.as_ref()?;
        let value = budget_limit(l, &puzzle.buffers, &puzzle.uniforms, case, &config).ok()?;
        let rule = match l {
            Limit::Fixed(_) => None,
            Limit::Formula(text) => Some(text.clone()),
        };
        Some((value, rule))
    };
    let count = |c: &[u32; INVOCATION_WORDS as usize], counter: u64| c[counter as usize];
    if let Some((limit, rule)) = limit(&budget.global_reads_per_invocation) {
        if let Some((id, c)) = findings
            .invocations
            .iter()
            .enumerate()
            .find(|(_, c)| count(c, invocation_counter::GLOBAL_READS) > limit)
        {
            let invocation = crate::trace::invocation(id as u32, &config);
            return over(BudgetExceeded::ReadsPerInvocation {
                invocation,
                reads: count(c, invocation_counter::GLOBAL_READS),
                limit,
                rule,
            });
        }
    }
    // Per workgroup, summed over its invocations, in workgroup order.
    let per_workgroup = |counter: u64| {
        let mut totals: BTreeMap<[u32; 3], u32> = BTreeMap::new();
        for (id, c) in findings.invocations.iter().enumerate() {
            if count(c, counter) > 0 {
                *totals
                    .entry(crate::trace::invocation(id as u32, &config).workgroup_id)
                    .or_default() += count(c, counter);
            }
        }
        totals
    };
    if let Some((limit, rule)) = limit(&budget.global_reads_per_workgroup) {
        if let Some((&workgroup, &reads)) =
            per_workgroup(invocation_counter::GLOBAL_READS).iter().find(|(_, &n)| n > limit)
        {
            return over(BudgetExceeded::ReadsPerWorkgroup { workgroup, reads, limit, rule });
        }
    }
    if let Some((limit, rule)) = limit(&budget.global_writes_per_workgroup) {
        if let Some((&workgroup, &writes)) =
            per_workgroup(invocation_counter::GLOBAL_WRITES).iter().find(|(_, &n)| n > limit)
        {
            return over(BudgetExceeded::WritesPerWorkgroup { workgroup, writes, limit, rule });
        }
    }
    // Every invocation of a workgroup passes the same barriers, so the
    // first invocation over the limit names its workgroup's count.
    if let Some((limit, rule)) = limit(&budget.barriers_per_invocation) {
        if let Some((id, c)) = findings
            .invocations
            .iter()
            .enumerate()
            .find(|(_, c)| count(c, invocation_counter::BARRIERS) > limit)
        {
            let invocation = crate::trace::invocation(id as u32, &config);
            return over(BudgetExceeded::Barriers {
                invocation,
                barriers: count(c, invocation_counter::BARRIERS),
                limit,
                rule,
            });
        }
    }
    None
}
