//! A puzzle's `[budget]`: its limits read into the model, and each formula
//! checked on the cases it will be evaluated on.

use super::dispatch;
use super::problems::Validator;
use crate::format::LimitSpec;
use crate::model::{Budget, Case};

/// The model's budget from `[budget]`: numbers kept, formulas parsed (and
/// kept as their text after `=`), a problem for each formula that does not
/// parse and for a budget with no limit.
pub(super) fn budget(spec: &crate::format::BudgetSpec, v: &mut Validator) -> Budget {
    let mut limit = |field: &str, l: &Option<LimitSpec>| {
        l.as_ref().and_then(|l| dispatch::limit(l, &format!("budget › {field}"), v))
    };
    let budget = Budget {
        global_reads_per_invocation: limit(
            "global_reads_per_invocation",
            &spec.global_reads_per_invocation,
        ),
        global_reads_per_workgroup: limit(
            "global_reads_per_workgroup",
            &spec.global_reads_per_workgroup,
        ),
        global_writes_per_workgroup: limit(
            "global_writes_per_workgroup",
            &spec.global_writes_per_workgroup,
        ),
        barriers_per_invocation: limit("barriers_per_invocation", &spec.barriers_per_invocation),
    };
    if spec == &crate::format::BudgetSpec::default() {
        v.at(
            None,
            "budget",
            "sets no limit: give `global_reads_per_invocation`, `global_reads_per_workgroup`, `global_writes_per_workgroup` or `barriers_per_invocation`",
        );
    }
    budget
}

/// A problem for each budget formula that cannot be evaluated on `case`
/// (a variable it does not have, a division by 0, a negative count).
pub(super) fn check_budget_on(
    budget: Option<&Budget>,
    buffers: &[crate::model::Buffer],
    uniforms: &[crate::model::Uniform],
    case: &Case,
    v: &mut Validator,
) {
    let Some(b) = budget else { return };
    let limits = [
        ("global_reads_per_invocation", &b.global_reads_per_invocation),
        ("global_reads_per_workgroup", &b.global_reads_per_workgroup),
        ("global_writes_per_workgroup", &b.global_writes_per_workgroup),
        ("barriers_per_invocation", &b.barriers_per_invocation),
    ];
    for (field, limit) in limits {
        if let Some(l) = limit {
            if let Err(e) = crate::model::budget_limit(l, buffers, uniforms, case, &case.config) {
                let env = crate::model::budget_env(buffers, uniforms, case, &case.config);
                let names: Vec<&str> = env.keys().map(String::as_str).collect();
                v.at(
                    None,
                    &format!("budget › {field}"),
                    &format!("case {}: {e} (the variables: {})", case.number, names.join(", ")),
                );
            }
        }
    }
}
