//! How an invocation runs one lowered instruction: jumps, loops and their
//! budget, returns and calls, barriers, stores and atomics, prints, and
//! subgroup operations (which wait for the rest of the subgroup).

use super::{plain_or_atomic, Access, Invocation, Memory, Status};
use crate::lower::Inst;
use crate::value::{binary, Scalar, Value};
use crate::{math, FuncId, Program, Stop};
use gpu_puzzles_verdict::trace::AccessKind;
use naga::Span;

impl Invocation {
    pub(super) fn exec(
        &mut self,
        program: &Program,
        memory: &mut Memory,
        accesses: &mut Vec<Access>,
        inst: &Inst,
        span: Span,
    ) -> Result<(), Stop> {
        let depth = self.frames.len() - 1;
        match inst {
            Inst::Emit(range) => {
                let quick = &program.code(self.frames[depth].func).quick;
                for h in range.clone() {
                    if !self.quick(program, memory, accesses, quick[h.index()], h, span)? {
                        let v = self.eval(program, memory, accesses, h, span)?;
                        self.frames[depth].values[h.index()] = Some(v);
                    }
                }
            }
            Inst::Jump(t) => self.frames[depth].pc = *t,
            Inst::JumpUnless { condition, target } => {
                if !self.get_scalar(program, memory, accesses, *condition, span)?.as_bool()? {
                    self.frames[depth].pc = *target;
                }
            }
            Inst::JumpIf { condition, target } => {
                if self.get_scalar(program, memory, accesses, *condition, span)?.as_bool()? {
                    self.frames[depth].pc = *target;
                }
            }
            Inst::LoopStart(id) => self.frames[depth].loop_counts[*id] = 0,
            Inst::Back { target, loop_id } => {
                let count = &mut self.frames[depth].loop_counts[*loop_id];
                *count += 1;
                if *count > self.loop_budget {
                    let span = program.code(self.frames[depth].func).loops[*loop_id];
                    return Err(Stop::RunawayLoop { span, invocation: self.ids.id });
                }
                self.frames[depth].pc = *target;
            }
            Inst::Switch { selector, cases, default } => {
                let s = self.get_scalar(program, memory, accesses, *selector, span)?;
                let target = cases
                    .iter()
                    .find(|(v, _)| match (v, s) {
                        (naga::SwitchValue::I32(v), Scalar::I32(s)) => *v == s,
                        (naga::SwitchValue::U32(v), Scalar::U32(s)) => *v == s,
                        _ => false,
                    })
                    .map_or(*default, |(_, t)| *t);
                self.frames[depth].pc = target;
            }
            Inst::Return(value) => {
                let v = value.map(|h| self.get(program, memory, accesses, h, span)).transpose()?;
                let frame = self.frames.pop().expect("a frame is running");
                match self.frames.last_mut() {
                    None => {
                        self.frames.push(frame);
                        self.status = Status::Done;
                    }
                    Some(caller) => {
                        if let (Some(r), Some(v)) = (frame.result, v) {
                            caller.values[r.index()] = Some(v);
                        }
                        self.keep_frame(frame);
                    }
                }
            }
            Inst::Barrier(_) => self.status = Status::Waiting,
            Inst::MemoryBarrier => {}
            Inst::Store { pointer, value } => {
                let p = self.get_pointer(program, memory, accesses, *pointer, span)?;
                let v = self.get(program, memory, accesses, *value, span)?;
                let ty = self.pointee(program, *pointer)?;
                self.write(
                    program,
                    memory,
                    accesses,
                    p,
                    ty,
                    &v,
                    plain_or_atomic(program, ty, AccessKind::Write),
                    span,
                )?;
            }
            Inst::UniformLoad { pointer, result } => {
                let p = self.get(program, memory, accesses, *pointer, span)?.pointer()?;
                let ty = self.pointee(program, *pointer)?;
                let v = self.read(program, memory, accesses, p, ty, AccessKind::Read, span)?;
                self.frames[depth].values[result.index()] = Some(v);
            }
            Inst::Atomic { pointer, fun, value, result } => {
                let p = self.get(program, memory, accesses, *pointer, span)?.pointer()?;
                let v = self.get(program, memory, accesses, *value, span)?.scalar()?;
                let ty = self.pointee(program, *pointer)?;
                let old = self
                    .read(program, memory, accesses, p, ty, AccessKind::Atomic, span)?
                    .scalar()?;
                let (new, out) = atomic(self, program, memory, accesses, *fun, old, v, span)?;
                if let Some(new) = new {
                    self.write(
                        program,
                        memory,
                        &mut Vec::new(),
                        p,
                        ty,
                        &Value::Scalar(new),
                        AccessKind::Atomic,
                        span,
                    )?;
                }
                if let Some(r) = result {
                    self.frames[depth].values[r.index()] = Some(out);
                }
            }
            Inst::Print { site, values } => {
                let frame = &self.frames[depth];
                let values = values
                    .iter()
                    .map(|&(k, ty)| {
                        program
                            .layouts
                            .load(&program.module, frame.local(k), 0, crate::layout::Ty::Handle(ty))
                            .map(|v| v.printed())
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                self.prints.push((*site, values));
            }
            Inst::Call { function, arguments, result } => {
                let mut frame = self.take_frame();
                for a in arguments {
                    // An error ends the run: the frame need not be kept.
                    frame.args.push(self.get(program, memory, accesses, *a, span)?);
                }
                self.push_frame(program, FuncId::Function(*function), frame, *result)?;
            }
            Inst::Subgroup(op) => {
                use crate::lower::SubgroupOp as S;
                let (value, index) = match op {
                    S::Barrier => (Value::Scalar(Scalar::Bool(true)), None),
                    S::Ballot { predicate: None, .. } => (Value::Scalar(Scalar::Bool(true)), None),
                    S::Ballot { predicate: Some(p), .. } => {
                        (self.get(program, memory, accesses, *p, span)?, None)
                    }
                    S::Collective { argument, .. } => {
                        (self.get(program, memory, accesses, *argument, span)?, None)
                    }
                    S::Gather { mode, argument, .. } => {
                        use naga::GatherMode as G;
                        let index = match mode {
                            G::BroadcastFirst | G::QuadSwap(_) => None,
                            G::Broadcast(h)
                            | G::Shuffle(h)
                            | G::ShuffleDown(h)
                            | G::ShuffleUp(h)
                            | G::ShuffleXor(h)
                            | G::QuadBroadcast(h) => Some(
                                self.get(program, memory, accesses, *h, span)?
                                    .scalar()?
                                    .as_index()?,
                            ),
                        };
                        (self.get(program, memory, accesses, *argument, span)?, index)
                    }
                };
                self.offer = Some(crate::subgroup::Offer {
                    lane: self.ids.subgroup_invocation_id,
                    value,
                    index,
                });
                self.status = Status::Waiting;
            }
            Inst::Unsupported(what) => return Err(Stop::unsupported(*what)),
        }
        Ok(())
    }
}

/// An atomic read-modify-write on `old` with operand `v` (WGSL §17.8): the
/// new value to store (`None` when a compare-exchange does not exchange)
/// and the expression's result.
#[allow(clippy::too_many_arguments)]
fn atomic(
    inv: &mut Invocation,
    program: &Program,
    memory: &mut Memory,
    accesses: &mut Vec<Access>,
    fun: naga::AtomicFunction,
    old: Scalar,
    v: Scalar,
    span: Span,
) -> Result<(Option<Scalar>, Value), Stop> {
    use naga::AtomicFunction as A;
    use naga::BinaryOperator as B;
    let op = |op| binary(op, &Value::Scalar(old), &Value::Scalar(v)).and_then(|r| r.scalar());
    let new = match fun {
        A::Add => op(B::Add)?,
        A::Subtract => op(B::Subtract)?,
        A::And => op(B::And)?,
        A::InclusiveOr => op(B::InclusiveOr)?,
        A::ExclusiveOr => op(B::ExclusiveOr)?,
        A::Min => math::math(naga::MathFunction::Min, &[Value::Scalar(old), Value::Scalar(v)])?
            .scalar()?,
        A::Max => math::math(naga::MathFunction::Max, &[Value::Scalar(old), Value::Scalar(v)])?
            .scalar()?,
        A::Exchange { compare: None } => v,
        A::Exchange { compare: Some(c) } => {
            let c = inv.get(program, memory, accesses, c, span)?.scalar()?;
            let exchanged = c == old;
            let result =
                Value::Composite(vec![Value::Scalar(old), Value::Scalar(Scalar::Bool(exchanged))]);
            return Ok((exchanged.then_some(v), result));
        }
    };
    Ok((Some(new), Value::Scalar(old)))
}
