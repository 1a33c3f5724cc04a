//! The debugger's model: one case of a puzzle, stepped a round at a time
//! with every invocation of the current workgroup advancing together, and
//! what the page draws of it (each invocation's state and line, its
//! variables, workgroup memory and buffers with the last step's reads and
//! writes). Pure data, so it is tested natively; the page only draws it.

use crate::dispatch::{Dispatch, Schedule};
use crate::emulate::{place, prepare, NotRunnable, Prepared};
use crate::exec::{Invocation, Status};
use crate::value::Space;
use crate::{Program, Stop};
use gpu_puzzles_core::{Case, Puzzle};
use gpu_puzzles_verdict::trace::AccessKind;
use std::collections::BTreeSet;

mod view;
pub use view::{format_value, lines_of, InvocationView, MemoryView};

/// Words of memory (region, word index) an invocation touched.
type Touched = BTreeSet<(Space, u32)>;

/// Why [`Debugger::new`] could not open a case.
#[derive(Debug, Clone)]
pub enum OpenError {
    /// The case does not run: a compile or configuration error, as a Run
    /// reports it.
    CannotRun(Box<gpu_puzzles_verdict::Outcome>),
    /// The shader uses something the interpreter cannot run.
    Unsupported(crate::emulate::Unjudged),
    /// The first workgroup could not start (an entry point input the
    /// interpreter does not provide), in words with the line.
    Stopped(String),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::CannotRun(o) => write!(f, "This case cannot run yet: {}", o.summary()),
            OpenError::Unsupported(u) => f.write_str(&u.message),
            OpenError::Stopped(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for OpenError {}

/// Most rounds [`Debugger::run_to`] runs looking for its place.
pub const RUN_TO_LIMIT: u32 = 1_000_000;

/// A debugging session on one case.
#[derive(Debug, Clone)]
pub struct Debugger {
    prepared: Prepared,
    source: String,
    buffer_names: Vec<String>,
    /// Each uniform's name and field names, for [`Debugger::dispatch_values`].
    uniform_fields: Vec<(String, Vec<String>)>,
    /// The dispatch running: an index into the case's dispatches.
    entry: usize,
    dispatch: Dispatch,
    stop: Option<String>,
    steps: u64,
    /// Per invocation of the current workgroup: (region, word) read and
    /// written so far.
    touched: Vec<(Touched, Touched)>,
    /// Lanes per subgroup ([`crate::subgroup`]).
    subgroup_size: u32,
}

impl Debugger {
    /// Opens `case` of `puzzle` with the student's `source`, before the
    /// first statement of the first workgroup.
    ///
    /// # Errors
    /// Why it cannot run: a compile or configuration error (as the Run
    /// reports it), or a construct the debugger cannot run.
    pub fn new(puzzle: &Puzzle, case: &Case, source: &str) -> Result<Debugger, OpenError> {
        Debugger::open(
            puzzle,
            case,
            &std::sync::Arc::new(crate::PreparedShader::new(puzzle, source, &case.config)),
        )
    }

    /// [`Debugger::new`] on the student's text as it was prepared for
    /// `case` ([`crate::PreparedShader::new`] with the case's configuration).
    ///
    /// # Errors
    /// As [`Debugger::new`].
    pub fn open(
        puzzle: &Puzzle,
        case: &Case,
        shader: &std::sync::Arc<crate::PreparedShader>,
    ) -> Result<Debugger, OpenError> {
        let source = shader.source();
        let prepared = match prepare(puzzle, case, shader) {
            Ok(p) => p,
            Err(NotRunnable::Outcome(o)) => return Err(OpenError::CannotRun(o)),
            Err(NotRunnable::Unjudged(u)) => return Err(OpenError::Unsupported(u)),
        };
        let subgroup_size = crate::subgroup::DEFAULT_SIZE;
        let dispatch = start(&prepared, 0, prepared.memory.clone(), subgroup_size)
            .map_err(|e| OpenError::Stopped(describe_stop(&e, &prepared, source)))?;
        let mut d = Debugger {
            source: source.to_string(),
            buffer_names: puzzle.buffers.iter().map(|b| b.name.clone()).collect(),
            uniform_fields: puzzle
                .uniforms
                .iter()
                .map(|u| (u.name.clone(), u.fields.iter().map(|f| f.0.clone()).collect()))
                .collect(),
            entry: 0,
            dispatch,
            stop: None,
            steps: 0,
            touched: Vec::new(),
            prepared,
            subgroup_size,
        };
        d.reset_touched();
        Ok(d)
    }

    /// The lanes per subgroup, when the shader uses subgroups.
    pub fn subgroup_size(&self) -> Option<u32> {
        self.prepared.program.uses_subgroups().then_some(self.subgroup_size)
    }

    /// Runs again from the start with subgroups of `size` lanes (one of
    /// [`crate::subgroup::SIZES`]; others are ignored).
    pub fn set_subgroup_size(&mut self, size: u32) {
        if crate::subgroup::SIZES.contains(&size) {
            self.subgroup_size = size;
            self.restart();
        }
    }

    /// Back to the start.
    pub fn restart(&mut self) {
        match start(&self.prepared, 0, self.prepared.memory.clone(), self.subgroup_size) {
            Ok(d) => {
                self.dispatch = d;
                self.entry = 0;
                self.stop = None;
                self.steps = 0;
                self.reset_touched();
            }
            Err(e) => self.stop = Some(describe_stop(&e, &self.prepared, &self.source)),
        }
    }

    fn reset_touched(&mut self) {
        self.touched = vec![Default::default(); self.dispatch.invocations.len()];
    }

    /// Whether every entry point has run to its end, or the run stopped.
    pub fn finished(&self) -> bool {
        self.stop.is_some()
            || (self.dispatch.is_done() && self.entry + 1 >= self.prepared.steps.len())
    }

    /// Why the run stopped early (a barrier not every invocation reaches, a
    /// runaway loop, a construct the debugger cannot run), with the line.
    pub fn stopped(&self) -> Option<&str> {
        self.stop.as_deref()
    }

    /// Steps until the invocations of workgroup `workgroup` of entry point
    /// `entry_point` (by name; any when `None`) stand at `line` (the
    /// student's, from 1), about to run it: where a finding says an access
    /// happened ("Show me"). Stops at the end, or after
    /// [`RUN_TO_LIMIT`] rounds, wherever it is.
    pub fn run_to(&mut self, entry_point: Option<&str>, workgroup: [u32; 3], line: usize) {
        for _ in 0..RUN_TO_LIMIT {
            if self.finished() {
                return;
            }
            let here = entry_point.is_none_or(|e| e == self.entry_point())
                && self.workgroup_id() == workgroup
                && !self.dispatch.is_done();
            if here
                && self
                    .dispatch
                    .invocations
                    .iter()
                    .any(|i| i.status == Status::Running && self.line_of(i) == Some(line))
            {
                return;
            }
            self.step();
        }
    }

    /// Rounds run so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// One round: every running invocation of the workgroup runs one
    /// statement; or a barrier every invocation reached is released; or
    /// the next workgroup (or entry point) starts.
    pub fn step(&mut self) {
        if self.finished() {
            return;
        }
        if self.dispatch.is_done() {
            self.entry += 1;
            let memory = self.dispatch.memory.clone();
            match start(&self.prepared, self.entry, memory, self.subgroup_size) {
                Ok(d) => self.dispatch = d,
                Err(e) => self.stop = Some(describe_stop(&e, &self.prepared, &self.source)),
            }
            self.reset_touched();
            return;
        }
        let workgroup = self.dispatch.workgroup;
        match self.dispatch.step() {
            Ok(()) => {
                self.steps += 1;
                if self.dispatch.workgroup != workgroup || self.dispatch.is_done() {
                    self.reset_touched();
                }
                for (local, a) in &self.dispatch.last_accesses {
                    if a.out_of_bounds.is_some() {
                        continue;
                    }
                    let Some(t) = self.touched.get_mut(*local as usize) else { continue };
                    for w in a.offset / 4..(a.offset + a.bytes).div_ceil(4) {
                        if a.kind != AccessKind::Write {
                            t.0.insert((a.space, w));
                        }
                        if a.kind != AccessKind::Read {
                            t.1.insert((a.space, w));
                        }
                    }
                }
            }
            Err(e) => self.stop = Some(describe_stop(&e, &self.prepared, &self.source)),
        }
    }

    /// Steps until every invocation of the workgroup waits at a barrier or
    /// has returned (releasing the barrier they wait at first).
    pub fn to_barrier(&mut self) {
        self.step();
        while !self.finished()
            && !self.dispatch.is_done()
            && self.dispatch.invocations.iter().any(|i| i.status == Status::Running)
        {
            self.step();
        }
    }

    /// Steps to the end of the last entry point (or until the run stops).
    pub fn run_to_end(&mut self) {
        while !self.finished() {
            self.step();
        }
    }

    /// The dispatch running, from 1, and how many the case makes
    /// ([`gpu_puzzles_core::Case::dispatches`]).
    pub fn dispatch_number(&self) -> (usize, usize) {
        (self.entry + 1, self.prepared.steps.len())
    }

    /// The fields of the per-dispatch uniform in the dispatch running, as
    /// `("step.size", 8)`: empty when it sets none.
    pub fn dispatch_values(&self) -> Vec<(String, u32)> {
        let Some((u, words)) = &self.prepared.steps[self.entry].uniform else { return Vec::new() };
        let Some((name, fields)) = self.uniform_fields.get(*u) else { return Vec::new() };
        fields.iter().zip(words).map(|(f, &w)| (format!("{name}.{f}"), w)).collect()
    }

    /// The entry point running.
    pub fn entry_point(&self) -> &str {
        &self.prepared.program.module.entry_points[self.dispatch.entry].name
    }

    /// The current workgroup's `workgroup_id`.
    pub fn workgroup_id(&self) -> [u32; 3] {
        let w = self.dispatch.workgroup;
        let [wx, wy, _] = self.prepared.config.workgroups;
        [w % wx, (w / wx) % wy, w / (wx * wy)]
    }

    fn line(&self, span: naga::Span) -> Option<usize> {
        place(self.prepared.shader.sub(), &self.source, span).map(|p| p.line)
    }

    fn line_of(&self, inv: &Invocation) -> Option<usize> {
        let program = &self.prepared.program;
        let frame = inv.frames.last()?;
        let code = program.code(frame.func);
        let pc = if inv.status == Status::Waiting {
            frame.pc.saturating_sub(1)
        } else {
            next_step(program, frame.func, frame.pc)
        };
        self.line(*code.spans.get(pc)?)
    }
}

/// Dispatch number `k` of the case, stepped in
/// lock step with its accesses kept.
fn start(
    p: &Prepared,
    k: usize,
    memory: crate::exec::Memory,
    subgroup_size: u32,
) -> Result<Dispatch, Stop> {
    let memory = p.memory_for(k, memory);
    let mut d = Dispatch::with_subgroup_size(
        p.program.clone(),
        p.steps[k].entry,
        p.config,
        memory,
        Schedule::Lockstep,
        subgroup_size,
    )?;
    d.keep_accesses = true;
    Ok(d)
}

/// The index of the next instruction at or after `pc` that is a step (the
/// statement a student would see as next).
fn next_step(program: &Program, f: crate::FuncId, mut pc: usize) -> usize {
    let code = program.code(f);
    for _ in 0..code.insts.len() {
        match &code.insts[pc] {
            crate::lower::Inst::Jump(t) | crate::lower::Inst::Back { target: t, .. } => pc = *t,
            crate::lower::Inst::LoopStart(_) => pc += 1,
            _ => return pc,
        }
    }
    pc
}

/// A stop in words, with the student's line.
fn describe_stop(stop: &Stop, p: &Prepared, source: &str) -> String {
    let line = stop.span().and_then(|s| place(p.shader.sub(), source, s)).map(|p| p.line);
    let at = line.map(|l| format!(" (line {l})")).unwrap_or_default();
    match stop {
        Stop::Unsupported { what, .. } => format!("The debugger cannot run {what}{at}. Run the case on a GPU instead."),
        Stop::RunawayLoop { invocation, .. } => format!(
            "The loop{at} ran more than {} times in invocation {invocation}, so the debugger stopped it. Check that its condition eventually becomes false.",
            gpu_puzzles_verdict::trace::LOOP_BUDGET
        ),
        Stop::BarrierNotReached { waiting, invocations, .. } => format!(
            "{waiting} of the {invocations} invocations wait at the barrier{at}, and the others never reach it. Every invocation of a workgroup must reach the same barriers."
        ),
        Stop::Internal { message, .. } => format!("The debugger failed{at}: {message}. This is a bug in GPU Puzzles, not in your shader."),
    }
}
