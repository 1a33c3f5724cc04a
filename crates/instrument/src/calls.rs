//! What a parsed shader does, read from its module without running it:
//! which subgroup built-in functions its entry points call (for a puzzle's
//! `[lesson]`), and whether it could wait in a loop for another workgroup.

use crate::Shader;
use gpu_puzzles_core::Puzzle;
use gpu_puzzles_verdict::judge::{CaseResult, Outcome};
use naga::{
    AddressSpace, CollectiveOperation, Direction, Expression, GatherMode, Handle, Statement,
    SubgroupOperation, Type, TypeInner,
};
use std::collections::BTreeSet;

impl Shader {
    /// The subgroup built-in functions (WGSL names, as in
    /// `gpu_puzzles_core::wgsl::SUBGROUP_BUILTINS`) that the module's entry
    /// points call, directly or through the functions they call. A call in
    /// a function no entry point reaches, or a name in a comment, does not
    /// count; a call under a condition does.
    pub fn subgroup_builtins(&self) -> BTreeSet<&'static str> {
        let m = &self.module;
        let mut found = BTreeSet::new();
        let mut seen = BTreeSet::new();
        let mut pending: Vec<&naga::Block> =
            m.entry_points.iter().map(|e| &e.function.body).collect();
        while let Some(block) = pending.pop() {
            for statement in block.iter() {
                match statement {
                    Statement::Call { function, .. } if seen.insert(*function) => {
                        pending.push(&m.functions[*function].body)
                    }
                    Statement::Block(b) => pending.push(b),
                    Statement::If { accept, reject, .. } => pending.extend([accept, reject]),
                    Statement::Switch { cases, .. } => {
                        pending.extend(cases.iter().map(|c| &c.body))
                    }
                    Statement::Loop { body, continuing, .. } => pending.extend([body, continuing]),
                    Statement::SubgroupBallot { .. } => {
                        found.insert("subgroupBallot");
                    }
                    Statement::SubgroupCollectiveOperation { op, collective_op, .. } => {
                        found.insert(collective_name(*op, *collective_op));
                    }
                    Statement::SubgroupGather { mode, .. } => {
                        found.insert(gather_name(mode));
                    }
                    _ => {}
                }
            }
        }
        found
    }

    /// Whether an invocation could wait in a loop for another workgroup:
    /// the shader has a loop and a storage buffer of atomics. Only the
    /// instrumented run's loop guard stops such a wait (GPUs promise no
    /// progress between workgroups), so the runner never dispatches it as
    /// written on the interpreter's word. Conservative: most such shaders
    /// never wait.
    pub fn may_wait_across_workgroups(&self) -> bool {
        fn has_atomic(module: &naga::Module, ty: Handle<Type>) -> bool {
            match &module.types[ty].inner {
                TypeInner::Atomic(_) => true,
                TypeInner::Array { base, .. } | TypeInner::BindingArray { base, .. } => {
                    has_atomic(module, *base)
                }
                TypeInner::Struct { members, .. } => {
                    members.iter().any(|m| has_atomic(module, m.ty))
                }
                _ => false,
            }
        }
        fn has_loop(block: &naga::Block) -> bool {
            block.iter().any(|s| match s {
                Statement::Loop { .. } => true,
                Statement::Block(b) => has_loop(b),
                Statement::If { accept, reject, .. } => has_loop(accept) || has_loop(reject),
                Statement::Switch { cases, .. } => cases.iter().any(|c| has_loop(&c.body)),
                _ => false,
            })
        }
        let m = &self.module;
        let atomics = m
            .global_variables
            .iter()
            .any(|(_, g)| matches!(g.space, AddressSpace::Storage { .. }) && has_atomic(m, g.ty));
        atomics
            && (m.functions.iter().any(|(_, f)| has_loop(&f.body))
                || m.entry_points.iter().any(|e| has_loop(&e.function.body)))
    }
}

/// A function-local array indexed with a value known only at run time:
/// `acc[i]` where `acc` is a `var` array of a function, or an array a
/// `ptr<function, …>` parameter points at. GPUs keep such an array in
/// memory rather than in registers, which can cost a kernel most of its
/// speed; with constant indices (`acc[3]`) it stays in registers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexedLocal {
    /// The variable's or parameter's name.
    pub name: String,
    /// Byte offset of the first such access in the parsed text.
    pub offset: usize,
}

impl Shader {
    /// Every function-local array indexed with a run-time value, once per
    /// name, in the order of the module's functions and then its entry
    /// points ([`IndexedLocal`]).
    pub fn dynamically_indexed_locals(&self) -> Vec<IndexedLocal> {
        let m = &self.module;
        let functions =
            m.functions.iter().map(|(_, f)| f).chain(m.entry_points.iter().map(|e| &e.function));
        let mut found: Vec<IndexedLocal> = Vec::new();
        for f in functions {
            for (h, e) in f.expressions.iter() {
                let Expression::Access { base, .. } = e else { continue };
                let name = match &f.expressions[*base] {
                    Expression::LocalVariable(v)
                        if matches!(
                            m.types[f.local_variables[*v].ty].inner,
                            TypeInner::Array { .. }
                        ) =>
                    {
                        f.local_variables[*v].name.clone()
                    }
                    Expression::FunctionArgument(k) => {
                        let arg = &f.arguments[*k as usize];
                        match &m.types[arg.ty].inner {
                            TypeInner::Pointer { base, space: AddressSpace::Function }
                                if matches!(m.types[*base].inner, TypeInner::Array { .. }) =>
                            {
                                arg.name.clone()
                            }
                            _ => None,
                        }
                    }
                    _ => None,
                };
                let (Some(name), Some(range)) = (name, f.expressions.get_span(h).to_range()) else {
                    continue;
                };
                if !found.iter().any(|l| l.name == name) {
                    found.push(IndexedLocal { name, offset: range.start });
                }
            }
        }
        found
    }
}

/// The puzzle's `[lesson]`, if it has one, on a Run whose every judged case
/// passed (values, memory, budget and order checks): each of them becomes
/// [`Outcome::WithoutTechnique`] when no entry point calls any of the
/// built-in functions the lesson names ([`Shader::subgroup_builtins`]).
/// `first` is the shader as the puzzle's first case substitutes it (the
/// calls do not depend on the case), from the Run's prepared cases; `None`
/// when it does not parse, and then no case passed. The GPU runner and the
/// CPU interpreter both judge a Run through this.
pub fn lesson_checks(puzzle: &Puzzle, first: Option<&Shader>, results: &mut [CaseResult]) {
    let (Some(_), Some(shader)) = (&puzzle.lesson, first) else { return };
    // Only a kernel right on every case it was judged on: a wrong kernel's
    // failures come first, and a case it gets right by chance (a starter on
    // a random case with nothing to do) is not told about the lesson.
    let judged = || {
        results
            .iter()
            .filter(|r| !matches!(r.outcome, Outcome::Skipped { .. } | Outcome::Omitted { .. }))
    };
    if judged().next().is_none() || !judged().all(|r| r.outcome.passed()) {
        return;
    }
    let called = shader.subgroup_builtins();
    if let Some(outcome) =
        gpu_puzzles_verdict::judge::lesson_outcome(puzzle, called.iter().copied())
    {
        for r in results.iter_mut().filter(|r| r.outcome.passed()) {
            r.outcome = outcome.clone();
        }
    }
}

/// The WGSL name of a subgroup reduction or scan.
fn collective_name(op: SubgroupOperation, collective: CollectiveOperation) -> &'static str {
    use CollectiveOperation as C;
    use SubgroupOperation as O;
    match (op, collective) {
        (O::All, _) => "subgroupAll",
        (O::Any, _) => "subgroupAny",
        (O::Add, C::Reduce) => "subgroupAdd",
        (O::Add, C::InclusiveScan) => "subgroupInclusiveAdd",
        (O::Add, C::ExclusiveScan) => "subgroupExclusiveAdd",
        (O::Mul, C::Reduce) => "subgroupMul",
        (O::Mul, C::InclusiveScan) => "subgroupInclusiveMul",
        (O::Mul, C::ExclusiveScan) => "subgroupExclusiveMul",
        (O::Min, _) => "subgroupMin",
        (O::Max, _) => "subgroupMax",
        (O::And, _) => "subgroupAnd",
        (O::Or, _) => "subgroupOr",
        (O::Xor, _) => "subgroupXor",
    }
}

/// The WGSL name of a subgroup broadcast, shuffle or quad operation.
fn gather_name(mode: &GatherMode) -> &'static str {
    match mode {
        GatherMode::BroadcastFirst => "subgroupBroadcastFirst",
        GatherMode::Broadcast(_) => "subgroupBroadcast",
        GatherMode::Shuffle(_) => "subgroupShuffle",
        GatherMode::ShuffleDown(_) => "subgroupShuffleDown",
        GatherMode::ShuffleUp(_) => "subgroupShuffleUp",
        GatherMode::ShuffleXor(_) => "subgroupShuffleXor",
        GatherMode::QuadBroadcast(_) => "quadBroadcast",
        GatherMode::QuadSwap(Direction::X) => "quadSwapX",
        GatherMode::QuadSwap(Direction::Y) => "quadSwapY",
        GatherMode::QuadSwap(Direction::Diagonal) => "quadSwapDiagonal",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn called(src: &str) -> Vec<&'static str> {
        Shader::parse(src).expect("parses").subgroup_builtins().into_iter().collect()
    }

    #[test]
    fn calls_reachable_from_the_entry_point_count_and_names_in_comments_do_not() {
        let src = r#"
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
fn helper(x: u32) -> u32 { return subgroupExclusiveAdd(x); }
fn unused(x: u32) -> u32 { return subgroupShuffleXor(x, 1u); }
// subgroupBallot(true) in a comment
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
    if (i > 3u) { out[i] = helper(i) + subgroupMax(i); }
    out[0] = subgroupBroadcast(i, 2u) + quadSwapY(i);
}
"#;
        assert_eq!(
            called(src),
            ["quadSwapY", "subgroupBroadcast", "subgroupExclusiveAdd", "subgroupMax"]
        );
    }

    #[test]
    fn arrays_of_a_function_indexed_at_run_time_are_found_once_each() {
        let src = r#"
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
fn add(sums: ptr<function, array<f32, 4>>, i: u32) { (*sums)[i] += 1.0; (*sums)[0] += 2.0; }
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    var acc: array<f32, 4>;
    var fixed: array<f32, 4>;
    acc[i] = 1.0;
    acc[i + 1u] = 2.0;
    fixed[2] = 3.0;
    add(&fixed, i);
    out[i] = acc[0] + fixed[1];
}
"#;
        let found = Shader::parse(src).expect("parses").dynamically_indexed_locals();
        let names: Vec<&str> = found.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["sums", "acc"], "the parameter, then the entry point's variable (not `fixed`, `out` or a constant index)");
        assert_eq!(&src[found[1].offset..found[1].offset + 6], "acc[i]");
    }

    #[test]
    fn every_reduction_and_scan_name_is_a_wgsl_subgroup_builtin() {
        use CollectiveOperation as C;
        use SubgroupOperation as O;
        let ops = [O::All, O::Any, O::Add, O::Mul, O::Min, O::Max, O::And, O::Or, O::Xor];
        let mut names: Vec<&str> = ops
            .iter()
            .flat_map(|&o| {
                [C::Reduce, C::InclusiveScan, C::ExclusiveScan].map(|c| collective_name(o, c))
            })
            .collect();
        names.extend([
            "subgroupBallot",
            "quadSwapX",
            "quadSwapY",
            "quadSwapDiagonal",
            "subgroupShuffle",
            "subgroupShuffleUp",
            "subgroupShuffleDown",
        ]);
        for n in names {
            assert!(gpu_puzzles_core::wgsl::SUBGROUP_BUILTINS.contains(&n), "{n}");
        }
    }
}
