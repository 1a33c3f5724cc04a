//! Access and barrier budgets: the limits a puzzle's `[budget]` sets on
//! what one invocation or workgroup may do, evaluated per case from their
//! formulas and checked against the counts of an instrumented run or of the
//! CPU interpreter (the same counts: `tests/gpu/puzzles.rs` compares them).

use super::{BudgetExceeded, Outcome};
use crate::model::{Case, Limit, Puzzle};
use crate::trace::{invocation_counter, Findings, INVOCATION_WORDS};
use std::collections::BTreeMap;

/// The variables a budget formula may read, for `case` run with `config`
/// (the workgroup size the shader declared): `wgs_x`, `wgs_y`, `wgs_z`,
/// `groups_x`, `groups_y`, `groups_z`, `smem` (the workgroup memory's size
/// in elements, `{{smemSize}}`; 1 without), `dispatches` (the case's
/// dispatch count, [`Case::dispatches`]), `len_<buffer>` (element count) and
/// `<uniform>_<field>` (integer fields; an `f32` field rounds down).
pub fn budget_env(
    buffers: &[crate::model::Buffer],
    uniforms: &[crate::model::Uniform],
    case: &Case,
    config: &crate::CaseConfig,
) -> BTreeMap<String, i64> {
    let mut env = BTreeMap::new();
    for (axis, (w, g)) in
        ["x", "y", "z"].iter().zip(config.workgroup_size.iter().zip(&config.workgroups))
    {
        env.insert(format!("wgs_{axis}"), i64::from(*w));
        env.insert(format!("groups_{axis}"), i64::from(*g));
    }
    env.insert(
        "smem".into(),
        config.workgroup_memory.map_or(1, |m| m.iter().map(|&v| i64::from(v)).product()),
    );
    env.insert("dispatches".into(), case.dispatches.len() as i64);
    for (b, c) in buffers.iter().zip(&case.buffers) {
        env.insert(format!("len_{}", b.name), c.initial.len() as i64);
    }
    for (u, bytes) in uniforms.iter().zip(&case.uniforms) {
        for (i, (field, ty)) in u.fields.iter().enumerate() {
            let Some(word) = bytes.get(4 * i..4 * i + 4) else { continue };
            let word = [word[0], word[1], word[2], word[3]];
            let value = match ty {
                crate::format::ElementType::U32 => i64::from(u32::from_le_bytes(word)),
                crate::format::ElementType::I32 => i64::from(i32::from_le_bytes(word)),
                crate::format::ElementType::F32 => f32::from_le_bytes(word).floor() as i64,
            };
            env.insert(format!("{}_{field}", u.name), value);
        }
    }
    env
}

/// A budget limit's value for `case` (of a puzzle with these `buffers` and
/// `uniforms`) run with `config`.
///
/// # Errors
/// A formula that does not parse, names a variable [`budget_env`] does not
/// give, or evaluates below 0, divides by 0 or overflows; the loader checks
/// every formula on every written case, so a shipped set meets none.
pub fn budget_limit(
    limit: &Limit,
    buffers: &[crate::model::Buffer],
    uniforms: &[crate::model::Uniform],
    case: &Case,
    config: &crate::CaseConfig,
) -> Result<u32, String> {
    match limit {
        Limit::Fixed(n) => Ok(*n),
        Limit::Formula(text) => {
            let value =
                crate::random::parse(text)?.eval(&budget_env(buffers, uniforms, case, config))?;
            u32::try_from(value).map_err(|_| format!("`={text}` is {value} here, not a count"))
        }
    }
}

/// The budget outcome of an instrumented run: the first limit of the
/// puzzle's [`crate::model::Budget`] that some invocation or workgroup went
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
