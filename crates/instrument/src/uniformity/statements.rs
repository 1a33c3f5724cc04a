//! The synccheck's walk over a function's statements: how control flow's
//! uniformity changes through `if`, `switch`, loops and early exits, what
//! stores do to local variables, and each barrier, subgroup operation and
//! call checked where it is reached.

use super::subgroups::{collective_name, gather_name};
use super::{Analysis, Cause, Exits, Flow, Summary, ARGS, NON_UNIFORM, UNIFORM};
use naga::{Block, Statement};

impl<'a> Analysis<'a> {
    pub(super) fn block(&mut self, block: &'a Block, entry_flow: Flow) -> Exits {
        let mut flow = entry_flow;
        let mut exits = Exits::NONE;
        for (stmt, span) in block.span_iter() {
            if self.error.is_some() {
                return exits;
            }
            let span = *span;
            match stmt {
                Statement::Emit(range) => {
                    for h in range.clone() {
                        self.level(h);
                    }
                }
                Statement::Store { pointer, value } => {
                    let v = self.level(*value);
                    if let Some((var, whole, index)) = self.local_root(*pointer) {
                        self.vars[var] = if whole && flow.level == UNIFORM {
                            v
                        } else {
                            self.vars[var].max(v).max(index).max(flow.level)
                        };
                    }
                }
                Statement::Block(inner) => {
                    let e = self.block(inner, flow);
                    flow = flow.join(e.any());
                    exits = exits.join(e);
                }
                Statement::If { condition, accept, reject } => {
                    let c = self.level(*condition);
                    let inner = flow.join(Flow { level: c, cause: Cause::Condition, span });
                    let before = self.vars.clone();
                    let e1 = self.block(accept, inner);
                    let after_accept = std::mem::replace(&mut self.vars, before);
                    let e2 = self.block(reject, inner);
                    self.join_vars(&after_accept);
                    let e = e1.join(e2);
                    flow = flow.join(e.any());
                    exits = exits.join(e);
                }
                Statement::Switch { selector, cases } => {
                    let c = self.level(*selector);
                    let inner = flow.join(Flow { level: c, cause: Cause::Condition, span });
                    let before = self.vars.clone();
                    let mut joined = before.clone();
                    let mut e = Exits::NONE;
                    for case in cases {
                        self.vars = before.clone();
                        let ce = self.block(&case.body, inner);
                        // A `break` in a case leaves the switch, not a loop.
                        e = e.join(Exits { breaks: Flow::UNIFORM, ..ce });
                        for (j, v) in joined.iter_mut().zip(&self.vars) {
                            *j = (*j).max(*v);
                        }
                    }
                    self.vars = joined;
                    flow = flow.join(e.any());
                    exits = exits.join(e);
                }
                Statement::Loop { body, continuing, break_if } => {
                    let entry_vars = self.vars.clone();
                    let mut loop_flow = flow;
                    let mut returns = Flow::UNIFORM;
                    for _ in 0..8 {
                        let e = self.block(body, loop_flow);
                        let cont_flow = loop_flow.join(e.continues);
                        let ce = self.block(continuing, cont_flow);
                        let mut leaves = e.breaks.join(e.returns).join(ce.breaks).join(ce.returns);
                        if let Some(b) = break_if {
                            let l = self.level(*b);
                            leaves = leaves.join(Flow {
                                level: l.max(cont_flow.level),
                                cause: Cause::Condition,
                                span,
                            });
                        }
                        returns = returns.join(e.returns).join(ce.returns);
                        let mut next_vars = entry_vars.clone();
                        for (n, v) in next_vars.iter_mut().zip(&self.vars) {
                            *n = (*n).max(*v);
                        }
                        // Only some invocations leaving the loop make every
                        // later iteration non-uniform.
                        let next_flow = flow.join(leaves);
                        let stable = next_flow.level == loop_flow.level && next_vars == self.vars;
                        self.vars = next_vars;
                        loop_flow = next_flow;
                        if stable || self.error.is_some() {
                            break;
                        }
                    }
                    flow = flow.join(returns);
                    exits = exits.join(Exits { returns, ..Exits::NONE });
                }
                Statement::Break => {
                    exits.breaks = exits.breaks.join(Flow { cause: Cause::Exit, span, ..flow })
                }
                Statement::Continue => {
                    exits.continues =
                        exits.continues.join(Flow { cause: Cause::Exit, span, ..flow })
                }
                Statement::Return { value } => {
                    if let Some(v) = value {
                        let l = self.level(*v).max(flow.level);
                        self.summary.result = self.summary.result.max(l);
                    }
                    exits.returns = exits.returns.join(Flow { cause: Cause::Return, span, ..flow });
                }
                Statement::ControlBarrier(b) if *b == naga::Barrier::SUB_GROUP => {
                    self.require_subgroup(span, "subgroupBarrier", flow)
                }
                Statement::ControlBarrier(b) => {
                    let name = if b.contains(naga::Barrier::STORAGE)
                        && !b.contains(naga::Barrier::WORK_GROUP)
                    {
                        "storageBarrier()"
                    } else if b.contains(naga::Barrier::WORK_GROUP) {
                        "workgroupBarrier()"
                    } else {
                        "textureBarrier()"
                    };
                    self.require(span, format!("`{name}`"), flow);
                }
                Statement::SubgroupBallot { result, predicate } => {
                    if let Some(p) = predicate {
                        let _ = self.level(*p);
                    }
                    self.require_subgroup(span, "subgroupBallot", flow);
                    self.expr[result.index()] = Some(NON_UNIFORM);
                }
                Statement::SubgroupCollectiveOperation { op, collective_op, argument, result } => {
                    let _ = self.level(*argument);
                    self.require_subgroup(span, collective_name(*op, *collective_op), flow);
                    self.expr[result.index()] = Some(NON_UNIFORM);
                }
                Statement::SubgroupGather { mode, argument, result } => {
                    let _ = self.level(*argument);
                    self.require_subgroup(span, gather_name(mode), flow);
                    self.expr[result.index()] = Some(NON_UNIFORM);
                }
                Statement::WorkGroupUniformLoad { pointer, result } => {
                    self.require(span, "`workgroupUniformLoad()`".into(), flow);
                    let _ = self.load_level(*pointer);
                    self.expr[result.index()] = Some(UNIFORM);
                }
                Statement::Call { function, arguments, result } => {
                    let callee = self
                        .summaries
                        .get(function)
                        .copied()
                        .unwrap_or(Summary { barrier: None, result: NON_UNIFORM });
                    let args: Vec<u8> = arguments.iter().map(|&a| self.level(a)).collect();
                    let max_arg = args.iter().copied().max().unwrap_or(UNIFORM);
                    if let Some((need, line)) = callee.barrier {
                        let name = self.module.functions[*function]
                            .name
                            .clone()
                            .unwrap_or_else(|| "a function".into());
                        let what = format!(
                            "the call to `{name}`, which reaches a barrier at line {line},"
                        );
                        let arg_flow = Flow {
                            level: if need == ARGS { max_arg } else { UNIFORM },
                            cause: Cause::Argument,
                            span,
                        };
                        self.require(span, what, flow.join(arg_flow));
                    }
                    // Pointer arguments may be written through.
                    for &a in arguments {
                        if let Some((var, _, _)) = self.local_root(a) {
                            self.vars[var] = self.vars[var]
                                .max(max_arg)
                                .max(flow.level)
                                .max(callee.result.min(NON_UNIFORM));
                        }
                    }
                    if let Some(r) = result {
                        let l = if callee.result == ARGS { max_arg } else { callee.result };
                        self.expr[r.index()] = Some(l.max(flow.level));
                    }
                }
                Statement::Atomic { result: Some(r), .. } => {
                    self.expr[r.index()] = Some(NON_UNIFORM)
                }
                _ => {}
            }
        }
        exits
    }

    fn join_vars(&mut self, other: &[u8]) {
        for (v, o) in self.vars.iter_mut().zip(other) {
            *v = (*v).max(*o);
        }
    }
}
