//! `[[dispatch]]`: checking a puzzle's dispatch list, and expanding it for
//! each case.

use super::problems::{is_identifier, Validator};
use crate::format::{LimitSpec, ManifestFile};
use crate::model::{Case, DispatchPlan, Limit, LoopPlan, LoopStep, Uniform};

/// The entry points and the dispatch plan of `manifest`: from `[[dispatch]]`
/// when it has any (the entry points in order of first appearance), else
/// each of `entry_points` (`["main"]` when absent) once. Problems go to `v`.
pub(super) fn plan(
    manifest: &ManifestFile,
    uniforms: &[Uniform],
    v: &mut Validator,
) -> (Vec<String>, Vec<DispatchPlan>) {
    if manifest.dispatches.is_empty() {
        let entry_points =
            manifest.entry_points.clone().unwrap_or_else(|| vec!["main".to_string()]);
        if entry_points.is_empty() {
            v.at(None, "entry_points", "lists no entry point (leave it out for the usual `main`)");
        }
        for (i, e) in entry_points.iter().enumerate() {
            if !is_identifier(e) {
                v.at(None, "entry_points", &format!("`{e}` is not a WGSL identifier"));
            } else if entry_points[..i].contains(e) {
                v.at(None, "entry_points", &format!("`{e}` is listed twice"));
            }
        }
        let plan = DispatchPlan::once_each(entry_points.len());
        return (entry_points, plan);
    }
    if manifest.entry_points.is_some() {
        v.at(None, "entry_points", "give `entry_points` or `[[dispatch]]`, not both: with `[[dispatch]]` the entry points are those it names");
    }
    let mut entry_points: Vec<String> = Vec::new();
    let mut plans = Vec::new();
    for (k, d) in manifest.dispatches.iter().enumerate() {
        let at = format!("dispatch {}", k + 1);
        if !is_identifier(&d.entry_point) {
            v.at(
                None,
                &format!("{at} › entry_point"),
                &format!("`{}` is not a WGSL identifier", d.entry_point),
            );
        }
        let entry = match entry_points.iter().position(|e| e == &d.entry_point) {
            Some(i) => i,
            None => {
                entry_points.push(d.entry_point.clone());
                entry_points.len() - 1
            }
        } as u32;
        let uniform = match &d.uniform {
            None => {
                if !d.loops.is_empty() {
                    v.at(None, &format!("{at} › loop"), "a loop sets the fields of a per-dispatch uniform: name it with `uniform = \"…\"`");
                }
                None
            }
            Some(name) => match uniforms.iter().position(|u| &u.name == name) {
                Some(i) => Some(i as u32),
                None => {
                    v.at(
                        None,
                        &format!("{at} › uniform"),
                        &format!("no `[[uniform]]` is named `{name}`"),
                    );
                    None
                }
            },
        };
        let mut loops = Vec::new();
        if let Some(u) = uniform.map(|i| &uniforms[i as usize]) {
            if d.loops.is_empty() {
                v.at(None, &format!("{at} › loop"), &format!("`{}` is a per-dispatch uniform, so this dispatch needs loops that set its fields", u.name));
            }
            for (i, l) in d.loops.iter().enumerate() {
                let field = format!("{at} › loop {}", i + 1);
                let Some(f) = u.fields.iter().position(|(n, _)| n == &l.field) else {
                    v.at(
                        None,
                        &field,
                        &format!("`{}` is not a field of uniform `{}`", l.field, u.name),
                    );
                    continue;
                };
                if d.loops[..i].iter().any(|o| o.field == l.field) {
                    v.at(None, &field, &format!("`{}` is set by two loops", l.field));
                }
                let step = match (l.times, l.divide, l.add) {
                    (Some(k), None, None) if k >= 2 => LoopStep::Times(k),
                    (None, Some(k), None) if k >= 2 => LoopStep::Divide(k),
                    (None, None, Some(k)) if k >= 1 => LoopStep::Add(k),
                    _ => {
                        v.at(None, &field, "give one of `times` (2 or more), `divide` (2 or more) or `add` (1 or more)");
                        continue;
                    }
                };
                let (Some(from), Some(to)) = (
                    limit(&l.from, &format!("{field} › from"), v),
                    limit(&l.to, &format!("{field} › to"), v),
                ) else {
                    continue;
                };
                loops.push(LoopPlan { name: l.field.clone(), field: f as u32, from, to, step });
            }
            for (name, _) in u.fields.iter().filter(|(n, _)| !d.loops.iter().any(|l| &l.field == n))
            {
                v.at(
                    None,
                    &format!("{at} › loop"),
                    &format!(
                        "no loop sets field `{name}` of the per-dispatch uniform `{}`",
                        u.name
                    ),
                );
            }
        }
        plans.push(DispatchPlan { entry, uniform, loops });
    }
    (entry_points, plans)
}

/// A number or a formula (`"=…"`, parsed and kept as its text) from a
/// budget limit or a loop bound; `None` after reporting at `field` a formula
/// that does not parse or a string that is neither.
pub(super) fn limit(spec: &LimitSpec, field: &str, v: &mut Validator) -> Option<Limit> {
    match spec {
        LimitSpec::Fixed(n) => Some(Limit::Fixed(*n)),
        LimitSpec::Formula(text) => {
            match text.strip_prefix('=').map(|t| (t.trim(), crate::random::parse(t.trim()))) {
                Some((t, Ok(_))) => Some(Limit::Formula(t.to_string())),
                Some((_, Err(e))) => {
                    v.at(None, field, &format!("`{text}`: {e}"));
                    None
                }
                None => {
                    v.at(None, field, &format!("`{text}` is neither a number nor a formula: write a formula as `\"=…\"`"));
                    None
                }
            }
        }
    }
}

/// Uniforms that some `[[dispatch]]` sets per dispatch: cases give no
/// values for them.
pub(super) fn per_dispatch(plan: &[DispatchPlan]) -> impl Iterator<Item = u32> + '_ {
    plan.iter().filter_map(|p| p.uniform)
}

/// Fills `case.dispatches` from `plan`.
///
/// # Errors
/// As [`crate::model::expand_dispatches`].
pub(super) fn expand_for(
    plan: &[DispatchPlan],
    buffers: &[crate::model::Buffer],
    uniforms: &[Uniform],
    case: &mut Case,
) -> Result<(), String> {
    let env = crate::model::budget_env(buffers, uniforms, case, &case.config);
    let bytes: Vec<usize> = case.uniforms.iter().map(Vec::len).collect();
    case.dispatches =
        crate::model::expand_dispatches(plan, &env, &bytes).map_err(|e| e.to_string())?;
    if case.dispatches.is_empty() {
        return Err("makes no dispatch".into());
    }
    Ok(())
}
