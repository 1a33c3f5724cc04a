//! Subgroup operations (WGSL §17.13, the `subgroups` extension) over the
//! active lanes of one subgroup.
//!
//! The interpreter's model, the one the judge checks every subgroup kernel
//! against at every size WebGPU allows (4 to 128 lanes):
//!
//! - subgroup `k` of a workgroup holds the invocations whose
//!   `local_invocation_index` is in `[k·size, (k+1)·size)`, lane
//!   `local_invocation_index mod size` (what GPUs do for one-dimensional
//!   workgroups); a workgroup whose size is not a multiple of `size` ends
//!   with a partly filled subgroup, and one smaller than `size` is a single
//!   partly filled subgroup;
//! - an operation runs once every lane of the subgroup that has not
//!   returned waits at a subgroup operation or a barrier; the lanes waiting
//!   at the operation earliest in program order are the active lanes and
//!   run it together, the others wait (structured reconvergence: lanes that
//!   left a loop or `if` early wait for those still inside);
//! - reductions and scans fold the active lanes in lane order;
//! - a shuffle or broadcast from a lane that is not active or past the
//!   subgroup's size gives [`UNDEFINED_F32`] (or [`UNDEFINED_U32`],
//!   [`UNDEFINED_I32`]): on a GPU the value is undefined (WGSL §17.13, a
//!   stale register, 0 on lavapipe), and a value that wins a maximum and
//!   swamps a sum makes a missing guard show as a wrong result at the sizes
//!   where the lane is missing.

use crate::lower::SubgroupOp;
use crate::math;
use crate::value::{binary, Scalar, Value};
use crate::Stop;
use naga::{BinaryOperator, CollectiveOperation, GatherMode, SubgroupOperation};

/// The subgroup sizes WebGPU allows a device to have: powers of two from 4
/// to 128 (`subgroupMinSize`, `subgroupMaxSize`;
/// <https://www.w3.org/TR/webgpu/#dom-gpuadapterinfo-subgroupminsize>).
pub const SIZES: [u32; 6] = [4, 8, 16, 32, 64, 128];

/// The size the interpreter uses when none is asked for: NVIDIA's, Apple's
/// and most AMD and Intel GPUs' in compute shaders.
pub const DEFAULT_SIZE: u32 = 32;

/// The sizes worth trying for a workgroup of `invocations`: every size of
/// [`SIZES`] up to the workgroup's size rounded up to a power of two (a
/// larger one makes the same single, partly filled subgroup).
pub fn sizes_for(invocations: u32) -> Vec<u32> {
    let top = invocations.max(1).next_power_of_two();
    SIZES.iter().copied().filter(|&s| s <= top.max(SIZES[0])).collect()
}

/// What a shuffle or broadcast from a lane that does not exist gives, for
/// `f32`: the largest finite `f32`, visible in any sum or maximum.
pub const UNDEFINED_F32: f32 = f32::MAX;
/// The same for `u32`: a bit pattern no puzzle computes.
pub const UNDEFINED_U32: u32 = 0xDEAD_BEEF;
/// The same for `i32`: the largest `i32`.
pub const UNDEFINED_I32: i32 = i32::MAX;

/// What one lane brings to a subgroup operation.
#[derive(Debug, Clone)]
pub struct Offer {
    /// Its lane (`subgroup_invocation_id`).
    pub lane: u32,
    /// Its operand (the ballot's predicate as a `bool`).
    pub value: Value,
    /// The lane index or delta of a shuffle or broadcast.
    pub index: Option<u32>,
}

/// The results of `op` for the active lanes `offers` (in lane order) of a
/// subgroup of `size` lanes, one per offer; `None` for `subgroupBarrier`.
///
/// # Errors
/// An operand of a type the operation does not take (naga validated it, so
/// this is internal).
pub fn exchange(op: &SubgroupOp, offers: &[Offer], size: u32) -> Result<Vec<Option<Value>>, Stop> {
    Ok(match op {
        SubgroupOp::Barrier => vec![None; offers.len()],
        SubgroupOp::Ballot { .. } => {
            let mut words = [0u32; 4];
            for o in offers {
                if o.value.scalar()?.as_bool()? {
                    words[(o.lane / 32) as usize % 4] |= 1 << (o.lane % 32);
                }
            }
            let v = Value::Vector(words.iter().map(|w| Scalar::U32(*w)).collect());
            vec![Some(v); offers.len()]
        }
        SubgroupOp::Collective { op, collective, .. } => {
            let mut out = Vec::with_capacity(offers.len());
            let mut acc: Option<Value> = None;
            for o in offers {
                let before = acc.clone();
                acc = Some(match acc {
                    None => o.value.clone(),
                    Some(a) => combine(*op, &a, &o.value)?,
                });
                out.push(match collective {
                    CollectiveOperation::InclusiveScan => acc.clone(),
                    CollectiveOperation::ExclusiveScan => Some(match before {
                        Some(b) => b,
                        None => identity(*op, &o.value)?,
                    }),
                    CollectiveOperation::Reduce => None,
                });
            }
            if *collective == CollectiveOperation::Reduce {
                out = vec![acc; offers.len()];
            }
            out
        }
        SubgroupOp::Gather { mode, .. } => {
            let first = offers.first().map(|o| o.lane);
            offers
                .iter()
                .map(|o| {
                    let i = o.index.unwrap_or(0);
                    let source = match mode {
                        GatherMode::BroadcastFirst => first,
                        GatherMode::Broadcast(_) | GatherMode::Shuffle(_) => Some(i),
                        GatherMode::ShuffleXor(_) => Some(o.lane ^ i),
                        GatherMode::ShuffleUp(_) => o.lane.checked_sub(i),
                        GatherMode::ShuffleDown(_) => o.lane.checked_add(i),
                        GatherMode::QuadBroadcast(_) => Some((o.lane & !3) | (i & 3)),
                        GatherMode::QuadSwap(d) => Some(
                            o.lane
                                ^ match d {
                                    naga::Direction::X => 1,
                                    naga::Direction::Y => 2,
                                    naga::Direction::Diagonal => 3,
                                },
                        ),
                    };
                    let from = source
                        .filter(|&s| s < size)
                        .and_then(|s| offers.iter().find(|p| p.lane == s));
                    Ok(Some(match from {
                        Some(p) => p.value.clone(),
                        None => undefined(&o.value)?,
                    }))
                })
                .collect::<Result<Vec<_>, Stop>>()?
        }
    })
}

/// The value a read from a missing lane gives, of `like`'s type.
fn undefined(like: &Value) -> Result<Value, Stop> {
    like.map(|s| {
        Ok(match s {
            Scalar::F32(_) => Scalar::F32(UNDEFINED_F32),
            Scalar::U32(_) => Scalar::U32(UNDEFINED_U32),
            Scalar::I32(_) => Scalar::I32(UNDEFINED_I32),
            Scalar::Bool(b) => Scalar::Bool(!b),
        })
    })
}

/// `a op b`, componentwise for vectors.
fn combine(op: SubgroupOperation, a: &Value, b: &Value) -> Result<Value, Stop> {
    use SubgroupOperation as S;
    match op {
        S::Add => binary(BinaryOperator::Add, a, b),
        S::Mul => binary(BinaryOperator::Multiply, a, b),
        S::And => binary(BinaryOperator::And, a, b),
        S::Or => binary(BinaryOperator::InclusiveOr, a, b),
        S::Xor => binary(BinaryOperator::ExclusiveOr, a, b),
        S::Min => math::math(naga::MathFunction::Min, &[a.clone(), b.clone()]),
        S::Max => math::math(naga::MathFunction::Max, &[a.clone(), b.clone()]),
        S::All => a.zip(b, |x, y| Ok(Scalar::Bool(x.as_bool()? && y.as_bool()?))),
        S::Any => a.zip(b, |x, y| Ok(Scalar::Bool(x.as_bool()? || y.as_bool()?))),
    }
}

/// What an exclusive scan gives its first active lane: 0 for a sum, 1 for
/// a product, of the operand's type.
fn identity(op: SubgroupOperation, like: &Value) -> Result<Value, Stop> {
    let one = matches!(op, SubgroupOperation::Mul);
    like.map(|s| {
        Ok(match s {
            Scalar::F32(_) => Scalar::F32(if one { 1.0 } else { 0.0 }),
            Scalar::I32(_) => Scalar::I32(one as i32),
            Scalar::U32(_) => Scalar::U32(one as u32),
            Scalar::Bool(_) => return Err(Stop::internal("an exclusive scan of booleans".into())),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offers(values: &[(u32, f32)]) -> Vec<Offer> {
        values
            .iter()
            .map(|&(lane, v)| Offer { lane, value: Value::Scalar(Scalar::F32(v)), index: None })
            .collect()
    }

    fn handle() -> naga::Handle<naga::Expression> {
        naga::Arena::new()
            .append(naga::Expression::Literal(naga::Literal::U32(0)), naga::Span::UNDEFINED)
    }

    fn collective(op: SubgroupOperation, c: CollectiveOperation) -> SubgroupOp {
        let h = handle();
        SubgroupOp::Collective { op, collective: c, argument: h, result: h }
    }

    fn floats(v: Vec<Option<Value>>) -> Vec<f32> {
        v.into_iter()
            .map(|v| match v {
                Some(Value::Scalar(Scalar::F32(x))) => x,
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn scans_fold_active_lanes_in_order() {
        let o = offers(&[(0, 1.0), (1, 2.0), (3, 4.0)]);
        let inc = exchange(
            &collective(SubgroupOperation::Add, CollectiveOperation::InclusiveScan),
            &o,
            4,
        )
        .unwrap();
        assert_eq!(floats(inc), [1.0, 3.0, 7.0]);
        let exc = exchange(
            &collective(SubgroupOperation::Add, CollectiveOperation::ExclusiveScan),
            &o,
            4,
        )
        .unwrap();
        assert_eq!(floats(exc), [0.0, 1.0, 3.0]);
        let max = exchange(&collective(SubgroupOperation::Max, CollectiveOperation::Reduce), &o, 4)
            .unwrap();
        assert_eq!(floats(max), [4.0; 3]);
    }

    #[test]
    fn a_shuffle_from_a_missing_lane_gives_an_undefined_value() {
        let h = handle();
        let mut o = offers(&[(0, 10.0), (1, 11.0), (2, 12.0)]);
        for x in &mut o {
            x.index = Some(2);
        }
        let xor = exchange(
            &SubgroupOp::Gather { mode: GatherMode::ShuffleXor(h), argument: h, result: h },
            &o,
            4,
        )
        .unwrap();
        // 0^2 = 2 (active), 1^2 = 3 (inactive: undefined), 2^2 = 0.
        assert_eq!(floats(xor), [12.0, UNDEFINED_F32, 10.0]);
    }

    #[test]
    fn sizes_stop_at_the_workgroup() {
        assert_eq!(sizes_for(24), [4, 8, 16, 32]);
        assert_eq!(sizes_for(1), [4]);
        assert_eq!(sizes_for(256), SIZES);
    }
}
