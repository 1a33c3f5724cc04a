//! A case's dispatch list: which entry point each dispatch runs, and the
//! values of a per-dispatch uniform (`[[dispatch]]` in the format).

use super::Limit;
use serde::{Deserialize, Serialize};

/// The most dispatches a case may make. A bitonic sort of 4,096 places
/// takes 79; the limit keeps a mistyped loop from encoding millions.
pub const MAX_DISPATCHES: usize = 4096;

/// One `[[dispatch]]` of a puzzle, validated: an entry point, dispatched once
/// or once per value of its loops.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DispatchPlan {
    /// Index into [`super::Puzzle::entry_points`].
    pub entry: u32,
    /// Index into [`super::Puzzle::uniforms`] of the per-dispatch uniform
    /// the loops set; `None` without loops.
    pub uniform: Option<u32>,
    /// The loops, outermost first; empty for a single dispatch.
    pub loops: Vec<LoopPlan>,
}

/// One loop of a [`DispatchPlan`] ([`crate::format::LoopSpec`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoopPlan {
    /// The variable's name: a field of the per-dispatch uniform.
    pub name: String,
    /// Index of that field in the uniform (its word, at 4-byte offsets).
    pub field: u32,
    /// The first value.
    pub from: Limit,
    /// The last value allowed.
    pub to: Limit,
    /// How the variable moves from one value to the next.
    pub step: LoopStep,
}

/// How a loop variable moves on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum LoopStep {
    /// Multiplied by this (at least 2), while at most `to`.
    Times(u32),
    /// Divided by this (at least 2, rounding down), while at least `to` and
    /// above 0.
    Divide(u32),
    /// Increased by this (at least 1), while at most `to`.
    Add(u32),
}

/// One dispatch of a case: the entry point, and the per-dispatch uniform's
/// contents where it has one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DispatchStep {
    /// Index into [`super::Puzzle::entry_points`].
    pub entry: u32,
    /// The per-dispatch uniform (index into [`super::Puzzle::uniforms`]) and
    /// its bytes for this dispatch: little-endian words, padded with zeros
    /// to a multiple of 16 bytes. Every other uniform, and this one in
    /// dispatches without it, holds the case's [`super::Case::uniforms`].
    pub uniform: Option<(u32, Vec<u8>)>,
}

impl DispatchPlan {
    /// The plan of a puzzle without `[[dispatch]]`: each of `entry_points`
    /// entry points once, in order.
    pub fn once_each(entry_points: usize) -> Vec<DispatchPlan> {
        (0..entry_points as u32)
            .map(|entry| DispatchPlan { entry, uniform: None, loops: Vec::new() })
            .collect()
    }
}

/// Why a puzzle's `[[dispatch]]` list gives no dispatches for a case: the
/// loader names the case and the file around it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DispatchError {
    /// A loop's `from` or `to` formula did not parse or evaluate (a
    /// variable the case does not define, a division by zero).
    #[error("`={formula}`: {message}")]
    Formula {
        /// The formula as written, after its `=`.
        formula: String,
        /// What went wrong, from the formula's parser or evaluator.
        message: String,
    },
    /// A loop variable left the range of a `u32`, the uniform's field type.
    #[error("`{name}` takes the value {value}, which is not a u32")]
    NotU32 {
        /// The loop variable.
        name: String,
        /// The value it took.
        value: i64,
    },
    /// A loop that multiplies from zero or below never reaches its `to`.
    #[error("`{name}` starts at {start}, and multiplying it by {factor} never reaches `to`")]
    NeverEnds {
        /// The loop variable.
        name: String,
        /// Its first value.
        start: i64,
        /// The factor of its `step`.
        factor: u32,
    },
    /// More than [`MAX_DISPATCHES`] dispatches.
    #[error("makes more than {MAX_DISPATCHES} dispatches")]
    TooMany,
}

/// The dispatches `plans` make for a case whose budget variables
/// ([`crate::model::budget_env`]) are `env`, with per-dispatch uniforms of
/// `uniform_bytes[u]` bytes each.
///
/// # Errors
/// [`DispatchError`]: a formula that cannot be evaluated, a loop variable
/// out of a `u32`'s range or a loop that never ends, or more than
/// [`MAX_DISPATCHES`] dispatches.
pub fn expand(
    plans: &[DispatchPlan],
    env: &std::collections::BTreeMap<String, i64>,
    uniform_bytes: &[usize],
) -> Result<Vec<DispatchStep>, DispatchError> {
    let mut steps = Vec::new();
    for plan in plans {
        let Some(u) = plan.uniform else {
            steps.push(DispatchStep { entry: plan.entry, uniform: None });
            continue;
        };
        let bytes = uniform_bytes.get(u as usize).copied().unwrap_or(16);
        let mut env = env.clone();
        let mut words = vec![0u32; bytes.div_ceil(4)];
        run_loops(plan, &plan.loops, &mut env, &mut words, &mut steps, u)?;
    }
    Ok(steps)
}

fn eval(
    limit: &Limit,
    env: &std::collections::BTreeMap<String, i64>,
) -> Result<i64, DispatchError> {
    match limit {
        Limit::Fixed(n) => Ok(i64::from(*n)),
        Limit::Formula(text) => crate::random::parse(text)
            .and_then(|e| e.eval(env))
            .map_err(|message| DispatchError::Formula { formula: text.clone(), message }),
    }
}

fn run_loops(
    plan: &DispatchPlan,
    loops: &[LoopPlan],
    env: &mut std::collections::BTreeMap<String, i64>,
    words: &mut Vec<u32>,
    steps: &mut Vec<DispatchStep>,
    uniform: u32,
) -> Result<(), DispatchError> {
    let Some((l, inner)) = loops.split_first() else {
        let bytes = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        steps.push(DispatchStep { entry: plan.entry, uniform: Some((uniform, bytes)) });
        return if steps.len() > MAX_DISPATCHES { Err(DispatchError::TooMany) } else { Ok(()) };
    };
    let (mut v, to) = (eval(&l.from, env)?, eval(&l.to, env)?);
    loop {
        let go_on = match l.step {
            LoopStep::Times(_) | LoopStep::Add(_) => v <= to,
            LoopStep::Divide(_) => v >= to && v > 0,
        };
        if !go_on {
            return Ok(());
        }
        let word = u32::try_from(v)
            .map_err(|_| DispatchError::NotU32 { name: l.name.clone(), value: v })?;
        words[l.field as usize] = word;
        env.insert(l.name.clone(), v);
        run_loops(plan, inner, env, words, steps, uniform)?;
        v = match l.step {
            LoopStep::Times(k) if v <= 0 => {
                return Err(DispatchError::NeverEnds { name: l.name.clone(), start: v, factor: k })
            }
            LoopStep::Times(k) => v * i64::from(k),
            LoopStep::Divide(k) => v / i64::from(k),
            LoopStep::Add(k) => v + i64::from(k),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn formula(s: &str) -> Limit {
        Limit::Formula(s.into())
    }

    #[test]
    fn nested_loops_give_a_bitonic_merge_schedule() {
        let plans = vec![
            DispatchPlan { entry: 0, uniform: None, loops: Vec::new() },
            DispatchPlan {
                entry: 1,
                uniform: Some(0),
                loops: vec![
                    LoopPlan {
                        name: "size".into(),
                        field: 0,
                        from: formula("2 * smem"),
                        to: formula("groups_x * smem"),
                        step: LoopStep::Times(2),
                    },
                    LoopPlan {
                        name: "dist".into(),
                        field: 1,
                        from: formula("size / 2"),
                        to: Limit::Fixed(1),
                        step: LoopStep::Divide(2),
                    },
                ],
            },
        ];
        let env = [("smem".to_string(), 4), ("groups_x".to_string(), 4)].into_iter().collect();
        let steps = expand(&plans, &env, &[16]).unwrap();
        let pairs: Vec<(u32, u32)> = steps[1..]
            .iter()
            .map(|s| {
                let b = &s.uniform.as_ref().unwrap().1;
                (
                    u32::from_le_bytes(b[0..4].try_into().unwrap()),
                    u32::from_le_bytes(b[4..8].try_into().unwrap()),
                )
            })
            .collect();
        assert_eq!(steps[0], DispatchStep { entry: 0, uniform: None });
        assert_eq!(pairs, [(8, 4), (8, 2), (8, 1), (16, 8), (16, 4), (16, 2), (16, 1)]);
        assert!(steps[1..]
            .iter()
            .all(|s| s.entry == 1 && s.uniform.as_ref().unwrap().1.len() == 16));
        // One workgroup: no merge step at all.
        let env = [("smem".to_string(), 4), ("groups_x".to_string(), 1)].into_iter().collect();
        assert_eq!(expand(&plans, &env, &[16]).unwrap().len(), 1);
    }

    #[test]
    fn a_loop_that_does_not_end_soon_is_refused() {
        let plans = vec![DispatchPlan {
            entry: 0,
            uniform: Some(0),
            loops: vec![LoopPlan {
                name: "i".into(),
                field: 0,
                from: Limit::Fixed(0),
                to: Limit::Fixed(1_000_000),
                step: LoopStep::Add(1),
            }],
        }];
        assert_eq!(expand(&plans, &Default::default(), &[16]).unwrap_err(), DispatchError::TooMany);
        let plans = vec![DispatchPlan {
            entry: 0,
            uniform: Some(0),
            loops: vec![LoopPlan {
                name: "i".into(),
                field: 0,
                from: Limit::Fixed(0),
                to: Limit::Fixed(8),
                step: LoopStep::Times(2),
            }],
        }];
        assert!(
            matches!(
                expand(&plans, &Default::default(), &[16]).unwrap_err(),
                DispatchError::NeverEnds { start: 0, factor: 2, .. }
            ),
            "a loop from 0 by doubling"
        );
    }

    #[test]
    fn a_formula_names_what_it_lacks_and_a_value_past_u32_is_refused() {
        let plan = |from: Limit, to: Limit| {
            vec![DispatchPlan {
                entry: 0,
                uniform: Some(0),
                loops: vec![LoopPlan {
                    name: "i".into(),
                    field: 0,
                    from,
                    to,
                    step: LoopStep::Add(1),
                }],
            }]
        };
        let e = expand(&plan(formula("groups_y * 2"), Limit::Fixed(4)), &Default::default(), &[16])
            .unwrap_err();
        assert!(
            matches!(&e, DispatchError::Formula { formula, message } if formula == "groups_y * 2" && message.contains("groups_y")),
            "{e:?}"
        );
        assert!(e.to_string().starts_with("`=groups_y * 2`: "), "{e}");
        let env = [("n".to_string(), -1)].into_iter().collect();
        assert_eq!(
            expand(&plan(formula("n"), Limit::Fixed(0)), &env, &[16]).unwrap_err(),
            DispatchError::NotU32 { name: "i".into(), value: -1 }
        );
    }
}
