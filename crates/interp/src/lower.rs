//! naga's structured statements lowered to a flat list of instructions with
//! jumps, so that an invocation's place in its function is one number (its
//! program counter): cheap to keep for thousands of invocations, to compare
//! (two invocations at the same barrier) and to show (the line it is on).

use naga::{Block, Expression, Handle, Span, Statement};

/// One instruction.
#[derive(Debug, Clone)]
pub enum Inst {
    /// Evaluates these expressions, in order (loads read memory here).
    Emit(naga::Range<Expression>),
    /// Goes to an instruction.
    Jump(usize),
    /// Goes to `target` when `condition` is false (`if`).
    JumpUnless { condition: Handle<Expression>, target: usize },
    /// Goes to `target` when `condition` is true (a loop's `break if`).
    JumpIf { condition: Handle<Expression>, target: usize },
    /// The end of a loop's iteration, going back to its start; counted
    /// against the step budget by loop.
    Back { target: usize, loop_id: usize },
    /// A loop starts: its iteration count starts again from 0 (as the
    /// instrumented shader's loop counters do).
    LoopStart(usize),
    /// `switch`: the first case whose value matches, else `default`.
    Switch { selector: Handle<Expression>, cases: Vec<(naga::SwitchValue, usize)>, default: usize },
    /// Returns from the function.
    Return(Option<Handle<Expression>>),
    /// `workgroupBarrier()` or `storageBarrier()` (a control barrier).
    Barrier(naga::Barrier),
    /// A memory barrier without a control barrier: nothing to do here,
    /// where memory is sequentially consistent.
    MemoryBarrier,
    /// Stores a value through a pointer.
    Store { pointer: Handle<Expression>, value: Handle<Expression> },
    /// An atomic operation.
    Atomic {
        pointer: Handle<Expression>,
        fun: naga::AtomicFunction,
        value: Handle<Expression>,
        result: Option<Handle<Expression>>,
    },
    /// The load of `workgroupUniformLoad`, after its barrier (lowered as a
    /// [`Inst::Barrier`] before it).
    UniformLoad { pointer: Handle<Expression>, result: Handle<Expression> },
    /// `print(…)`: records the values of these local variables (their
    /// index in the function and their type), under print number `site`
    /// ([`gpu_puzzles_core::print`]).
    Print { site: u32, values: Vec<(usize, Handle<naga::Type>)> },
    /// Calls a function.
    Call {
        function: Handle<naga::Function>,
        arguments: Vec<Handle<Expression>>,
        result: Option<Handle<Expression>>,
    },
    /// A subgroup operation: the invocation offers its operand and waits
    /// until the active lanes of its subgroup reach it, and all get their
    /// results in one step ([`crate::subgroup`]).
    Subgroup(SubgroupOp),
    /// A statement the debugger cannot run, named.
    Unsupported(&'static str),
}

impl SubgroupOp {
    /// The expression that receives the result (none for a barrier).
    pub fn result(&self) -> Option<Handle<Expression>> {
        match self {
            SubgroupOp::Ballot { result, .. }
            | SubgroupOp::Collective { result, .. }
            | SubgroupOp::Gather { result, .. } => Some(*result),
            SubgroupOp::Barrier => None,
        }
    }
}

/// The subgroup operations of WGSL's `subgroups` extension, as naga's
/// statements carry them.
#[derive(Debug, Clone)]
pub enum SubgroupOp {
    /// `subgroupBallot(predicate)`: a `vec4<u32>` with bit `lane` set for
    /// each active lane whose predicate is true (no predicate: all).
    Ballot { predicate: Option<Handle<Expression>>, result: Handle<Expression> },
    /// `subgroupAdd`, `subgroupInclusiveMul`, `subgroupAll`, …: a reduction
    /// or scan over the active lanes, in lane order.
    Collective {
        op: naga::SubgroupOperation,
        collective: naga::CollectiveOperation,
        argument: Handle<Expression>,
        result: Handle<Expression>,
    },
    /// `subgroupBroadcast`, `subgroupShuffleXor`, …: each lane reads
    /// another lane's operand.
    Gather { mode: naga::GatherMode, argument: Handle<Expression>, result: Handle<Expression> },
    /// `subgroupBarrier()`: the active lanes wait for each other.
    Barrier,
}

impl Inst {
    /// Whether stepping stops after this instruction: everything a student
    /// wrote, but not the jumps that stitch blocks together.
    pub fn is_step(&self) -> bool {
        !matches!(self, Inst::Jump(_) | Inst::Back { .. } | Inst::LoopStart(_))
    }
}

/// A function lowered: instructions, their spans in the shader's text, and
/// per loop the span of its `loop`/`for`/`while` statement.
#[derive(Debug, Clone, Default)]
pub struct Code {
    /// Instructions; the last is always a `Return`.
    pub insts: Vec<Inst>,
    /// Span of each instruction's statement.
    pub spans: Vec<Span>,
    /// Span of each loop, by `loop_id`.
    pub loops: Vec<Span>,
    /// Each expression's quick form, by expression handle
    /// ([`crate::fast::plan`]; filled in by [`crate::Program`]).
    pub(crate) quick: Vec<crate::fast::Quick>,
}

/// Targets of `break` and `continue` while lowering, and the jumps waiting
/// for them.
struct Targets {
    breaks: Vec<usize>,
    continue_to: Option<usize>,
    continues: Vec<usize>,
    is_loop: bool,
}

impl Code {
    /// Lowers a function's body.
    pub fn lower(body: &Block) -> Code {
        let mut code = Code::default();
        let mut targets = Vec::new();
        code.block(body, &mut targets);
        code.push(Inst::Return(None), Span::default());
        code
    }

    /// Turns each call of the print function `print_fn` in this code of
    /// function `f` into an [`Inst::Print`] of the values the substitution
    /// declared for it ([`gpu_puzzles_core::print::value_name`]).
    pub fn mark_prints(&mut self, print_fn: Handle<naga::Function>, f: &naga::Function) {
        for inst in &mut self.insts {
            let Inst::Call { function, arguments, .. } = inst else { continue };
            if *function != print_fn {
                continue;
            }
            let site = match arguments.as_slice() {
                [a] => match f.expressions[*a] {
                    Expression::Literal(naga::Literal::U32(site)) => site,
                    _ => continue,
                },
                _ => continue,
            };
            let mut values: Vec<(usize, usize, Handle<naga::Type>)> = f
                .local_variables
                .iter()
                .enumerate()
                .filter_map(|(k, (_, v))| {
                    let (s, arg) = gpu_puzzles_core::print::parse_value_name(v.name.as_deref()?)?;
                    (s == site).then_some((arg, k, v.ty))
                })
                .collect();
            values.sort_unstable_by_key(|v| v.0);
            *inst = Inst::Print {
                site,
                values: values.into_iter().map(|(_, k, ty)| (k, ty)).collect(),
            };
        }
    }

    fn push(&mut self, inst: Inst, span: Span) -> usize {
        self.insts.push(inst);
        self.spans.push(span);
        self.insts.len() - 1
    }

    fn patch(&mut self, at: usize, to: usize) {
        match &mut self.insts[at] {
            Inst::Jump(t) | Inst::JumpUnless { target: t, .. } | Inst::JumpIf { target: t, .. } => {
                *t = to
            }
            other => unreachable!("patching {other:?}"),
        }
    }

    fn block(&mut self, block: &Block, targets: &mut Vec<Targets>) {
        for (statement, span) in block.span_iter() {
            self.statement(statement, *span, targets);
        }
    }

    fn statement(&mut self, s: &Statement, span: Span, targets: &mut Vec<Targets>) {
        match s {
            Statement::Emit(range) => {
                self.push(Inst::Emit(range.clone()), span);
            }
            Statement::Block(b) => self.block(b, targets),
            Statement::If { condition, accept, reject } => {
                let branch =
                    self.push(Inst::JumpUnless { condition: *condition, target: usize::MAX }, span);
                self.block(accept, targets);
                let skip = self.push(Inst::Jump(usize::MAX), span);
                let else_at = self.insts.len();
                self.patch(branch, else_at);
                self.block(reject, targets);
                let end = self.insts.len();
                self.patch(skip, end);
            }
            Statement::Switch { selector, cases } => {
                let at = self.push(
                    Inst::Switch { selector: *selector, cases: Vec::new(), default: usize::MAX },
                    span,
                );
                targets.push(Targets {
                    breaks: Vec::new(),
                    continue_to: None,
                    continues: Vec::new(),
                    is_loop: false,
                });
                let mut table = Vec::new();
                let mut default = None;
                for case in cases {
                    let start = self.insts.len();
                    match case.value {
                        naga::SwitchValue::Default => default = Some(start),
                        v => table.push((v, start)),
                    }
                    self.block(&case.body, targets);
                    if !case.fall_through {
                        let j = self.push(Inst::Jump(usize::MAX), span);
                        targets.last_mut().expect("pushed above").breaks.push(j);
                    }
                }
                let end = self.insts.len();
                let t = targets.pop().expect("pushed above");
                for j in t.breaks {
                    self.patch(j, end);
                }
                if let Inst::Switch { cases, default: d, .. } = &mut self.insts[at] {
                    *cases = table;
                    *d = default.unwrap_or(end);
                }
            }
            Statement::Loop { body, continuing, break_if } => {
                let loop_id = self.loops.len();
                self.loops.push(span);
                self.push(Inst::LoopStart(loop_id), span);
                let top = self.insts.len();
                targets.push(Targets {
                    breaks: Vec::new(),
                    continue_to: None,
                    continues: Vec::new(),
                    is_loop: true,
                });
                self.block(body, targets);
                let cont = self.insts.len();
                targets.last_mut().expect("pushed above").continue_to = Some(cont);
                self.block(continuing, targets);
                let mut exits = Vec::new();
                if let Some(c) = break_if {
                    exits.push(self.push(Inst::JumpIf { condition: *c, target: usize::MAX }, span));
                }
                self.push(Inst::Back { target: top, loop_id }, span);
                let end = self.insts.len();
                let t = targets.pop().expect("pushed above");
                for j in t.breaks.into_iter().chain(exits) {
                    self.patch(j, end);
                }
                for j in t.continues {
                    self.patch(j, cont);
                }
            }
            Statement::Break => {
                let j = self.push(Inst::Jump(usize::MAX), span);
                targets
                    .last_mut()
                    .expect("naga validated: break inside a loop or switch")
                    .breaks
                    .push(j);
            }
            Statement::Continue => {
                let j = self.push(Inst::Jump(usize::MAX), span);
                let t = targets
                    .iter_mut()
                    .rev()
                    .find(|t| t.is_loop)
                    .expect("naga validated: continue inside a loop");
                match t.continue_to {
                    Some(c) => self.patch(j, c),
                    None => t.continues.push(j),
                }
            }
            Statement::Return { value } => {
                self.push(Inst::Return(*value), span);
            }
            Statement::ControlBarrier(b) if *b == naga::Barrier::SUB_GROUP => {
                self.push(Inst::Subgroup(SubgroupOp::Barrier), span);
            }
            Statement::ControlBarrier(b) => {
                self.push(Inst::Barrier(*b), span);
            }
            Statement::MemoryBarrier(_) => {
                self.push(Inst::MemoryBarrier, span);
            }
            Statement::Store { pointer, value } => {
                self.push(Inst::Store { pointer: *pointer, value: *value }, span);
            }
            Statement::Atomic { pointer, fun, value, result } => {
                self.push(
                    Inst::Atomic { pointer: *pointer, fun: *fun, value: *value, result: *result },
                    span,
                );
            }
            Statement::WorkGroupUniformLoad { pointer, result } => {
                self.push(Inst::Barrier(naga::Barrier::WORK_GROUP), span);
                self.push(Inst::UniformLoad { pointer: *pointer, result: *result }, span);
            }
            Statement::Call { function, arguments, result } => {
                self.push(
                    Inst::Call {
                        function: *function,
                        arguments: arguments.clone(),
                        result: *result,
                    },
                    span,
                );
            }
            Statement::Kill => {
                self.push(Inst::Unsupported("`discard`"), span);
            }
            Statement::ImageStore { .. } | Statement::ImageAtomic { .. } => {
                self.push(Inst::Unsupported("a texture"), span);
            }
            Statement::RayQuery { .. } => {
                self.push(Inst::Unsupported("a ray query"), span);
            }
            Statement::SubgroupBallot { result, predicate } => {
                self.push(
                    Inst::Subgroup(SubgroupOp::Ballot { predicate: *predicate, result: *result }),
                    span,
                );
            }
            Statement::SubgroupCollectiveOperation { op, collective_op, argument, result } => {
                self.push(
                    Inst::Subgroup(SubgroupOp::Collective {
                        op: *op,
                        collective: *collective_op,
                        argument: *argument,
                        result: *result,
                    }),
                    span,
                );
            }
            Statement::SubgroupGather { mode, argument, result } => {
                self.push(
                    Inst::Subgroup(SubgroupOp::Gather {
                        mode: *mode,
                        argument: *argument,
                        result: *result,
                    }),
                    span,
                );
            }
            _ => {
                self.push(Inst::Unsupported("this statement"), span);
            }
        }
    }
}
