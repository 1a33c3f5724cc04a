//! The synccheck's finding in words: what was reached where, why control
//! flow is not uniform there, and what to do.

use super::{Cause, NonUniformBarrier};

impl NonUniformBarrier {
    /// What happened, where, and what to try.
    pub fn message(&self) -> String {
        let at = self.cause_line.map(|l| format!(" at line {l}")).unwrap_or_default();
        let why = match self.cause {
            Cause::Condition => format!(
                "it depends on the condition{at}, which can differ between invocations (it uses local_invocation_id, global_invocation_id, local_invocation_index, or a value read from workgroup memory, a read_write buffer or an atomic)"
            ),
            Cause::Return => format!("the `return`{at} is taken by only some invocations, so the others reach the barrier without them"),
            Cause::Exit => format!("the `break` or `continue`{at} is taken by only some invocations, so the others reach the barrier without them"),
            Cause::Argument => format!("the argument{at} can differ between invocations, and the barrier depends on it"),
        };
        let fix = match self.cause {
            Cause::Return | Cause::Exit => "Instead of leaving early, put the work after the guard inside an `if` and keep the barrier outside it.",
            _ => "Move the barrier out of the condition, so that every invocation reaches it, or make the condition the same for every invocation (for example a value read with `workgroupUniformLoad`).",
        };
        if self.barrier.starts_with("`subgroup") || self.barrier.starts_with("`quad") {
            let why = why
                .replace("reach the barrier", "reach it")
                .replace("the barrier depends", "it depends");
            return format!(
                "{} must be called in uniform control flow (every invocation of the workgroup reaches it, or none), but {why}. Browsers reject this shader; on a GPU the lanes that skip it leave holes in the result. Call it outside the `if` (or before the `return`), with a neutral value for the lanes that have no element: `var v = 0.0; if (i < n) {{ v = a[i]; }} let s = subgroupAdd(v);`.",
                self.barrier
            );
        }
        format!(
            "{} must be reached by every invocation of the workgroup (uniform control flow), but {why}. Browsers reject this shader; a GPU can hang or skip the barrier. {fix}",
            self.barrier
        )
    }
}
