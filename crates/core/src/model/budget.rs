//! A budget's limits evaluated for one case: the variables its formulas
//! read, and each limit's value. The loader checks every formula on every
//! written case with these; the judge compares the counts of a run with
//! them.

use crate::model::{Case, Limit};
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
    config: &crate::model::CaseConfig,
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
    config: &crate::model::CaseConfig,
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
