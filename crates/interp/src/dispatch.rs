//! A dispatch: workgroups one after another, the invocations of each
//! advancing under a [`Schedule`] and meeting at barriers.
//!
//! WGSL promises nothing about the order in which invocations run between
//! two barriers, or workgroups at all (WGSL §14.6 "Memory Model"; WebGPU
//! gives no forward-progress guarantee between workgroups). A correct
//! shader gives the same result under every schedule; one whose result
//! changes between schedules has a race, whatever one GPU happened to do.

use crate::exec::{Access, Ids, Invocation, Memory, Status};
use crate::value::Space;
use crate::{Program, Stop};
use gpu_puzzles_core::model::CaseConfig;
use std::sync::Arc;

mod record;
mod schedule;
pub use record::Record;
use schedule::shuffle;
pub use schedule::Schedule;

/// One entry point's dispatch in progress.
#[derive(Debug, Clone)]
pub struct Dispatch {
    /// The program.
    pub program: Arc<Program>,
    /// The entry point, by index.
    pub entry: usize,
    /// Workgroup size and count.
    pub config: CaseConfig,
    /// Buffers and the current workgroup's variables.
    pub memory: Memory,
    /// The current workgroup's invocations, by `local_invocation_index`.
    pub invocations: Vec<Invocation>,
    /// The current workgroup, by linear number (`x + y·X + z·X·Y`).
    pub workgroup: u32,
    /// The last step's accesses, by `local_invocation_index`.
    pub last_accesses: Vec<(u32, Access)>,
    /// Counts and findings so far.
    pub record: Record,
    /// Keep each step's accesses in [`Dispatch::last_accesses`] (the
    /// debugger's highlights); off by default.
    pub keep_accesses: bool,
    /// The race detector, when asked for ([`Dispatch::detect_races`]).
    pub races: Option<crate::race::Races>,
    /// Barriers passed in this workgroup: workgroup-memory ones, storage ones.
    epochs: [u32; 2],
    schedule: Schedule,
    scratch: Vec<Access>,
    order: Vec<u32>,
    next_workgroup: usize,
    rng: u64,
    done: bool,
    /// The workgroup size invocations are numbered by (see [`Dispatch::new`]).
    numbered: [u32; 3],
    /// Lanes per subgroup ([`crate::subgroup`]).
    subgroup_size: u32,
    /// Iterations a loop may run in one invocation ([`Dispatch::set_loop_budget`]).
    loop_budget: u32,
}

impl Dispatch {
    /// A dispatch of entry point `entry` over `memory` (its buffers and
    /// bindings set; workgroup memory is made here), not started. The
    /// workgroup size is the entry point's own `@workgroup_size` (what a
    /// GPU runs), the number of workgroups `config`'s. Invocations are
    /// numbered ([`crate::exec::Ids::id`], [`Record::invocations`]) by
    /// `config`'s workgroup size, which should be the one the shader
    /// declares ([`crate::emulate::Prepared::config`]) and at least the entry
    /// point's own.
    ///
    /// # Errors
    /// An entry point input the interpreter does not provide.
    pub fn new(
        program: Arc<Program>,
        entry: usize,
        config: CaseConfig,
        memory: Memory,
        schedule: Schedule,
    ) -> Result<Dispatch, Stop> {
        Dispatch::with_subgroup_size(
            program,
            entry,
            config,
            memory,
            schedule,
            crate::subgroup::DEFAULT_SIZE,
        )
    }

    /// [`Dispatch::new`] with subgroups of `subgroup_size` lanes (one of
    /// [`crate::subgroup::SIZES`]).
    ///
    /// # Errors
    /// As [`Dispatch::new`].
    pub fn with_subgroup_size(
        program: Arc<Program>,
        entry: usize,
        mut config: CaseConfig,
        mut memory: Memory,
        schedule: Schedule,
        subgroup_size: u32,
    ) -> Result<Dispatch, Stop> {
        let module = &program.module;
        let own = module.entry_points[entry].workgroup_size;
        let numbered = [0, 1, 2].map(|k| config.workgroup_size[k].max(own[k]));
        let number_by = CaseConfig { workgroup_size: numbered, ..config };
        config.workgroup_size = own;
        memory.workgroup = vec![Vec::new(); module.global_variables.len()];
        let [x, y, z] = config.workgroups;
        let count = x * y * z;
        let mut order: Vec<u32> = (0..count).collect();
        let mut rng = 0;
        match schedule {
            Schedule::Reverse => order.reverse(),
            Schedule::Random(seed) => {
                rng = seed;
                shuffle(&mut order, &mut rng);
            }
            Schedule::Lockstep | Schedule::Forward => {}
        }
        let record = Record {
            reads: memory.storage.iter().map(|b| vec![0; b.len()]).collect(),
            writes: memory.storage.iter().map(|b| vec![0; b.len()]).collect(),
            writer: memory.storage.iter().map(|b| vec![None; b.len()]).collect(),
            invocations: vec![
                [0; gpu_puzzles_verdict::trace::INVOCATION_WORDS as usize];
                number_by.total_invocations() as usize
            ],
            out_of_bounds: Vec::new(),
            races: Vec::new(),
            race_total: 0,
            prints: Vec::new(),
            print_words: 0,
            prints_dropped: 0,
        };
        let mut d = Dispatch {
            program,
            entry,
            config,
            memory,
            invocations: Vec::new(),
            workgroup: 0,
            last_accesses: Vec::new(),
            record,
            keep_accesses: false,
            races: None,
            epochs: [0, 0],
            schedule,
            scratch: Vec::new(),
            order,
            next_workgroup: 0,
            rng,
            done: false,
            numbered,
            subgroup_size: subgroup_size.max(1),
            loop_budget: gpu_puzzles_verdict::trace::LOOP_BUDGET,
        };
        d.start_next_workgroup()?;
        Ok(d)
    }

    /// Stops a loop after `iterations` iterations in one invocation
    /// ([`Stop::RunawayLoop`]) instead of
    /// [`gpu_puzzles_verdict::trace::LOOP_BUDGET`], the instrumented GPU
    /// run's: for a caller that only wants to know whether a case is quick
    /// and clean ([`crate::emulate::lockstep_at`]); a loop stopped early is
    /// then not known to run away. Before the first step.
    pub fn set_loop_budget(&mut self, iterations: u32) {
        self.loop_budget = iterations;
        self.invocations.iter_mut().for_each(|i| i.loop_budget = iterations);
    }

    /// Turns the race detector on ([`crate::race`]); before the first step.
    pub fn detect_races(&mut self) {
        self.races = Some(crate::race::Races::new(
            &self.memory.storage.iter().map(Vec::len).collect::<Vec<_>>(),
        ));
    }

    /// Whether every workgroup has finished.
    pub fn is_done(&self) -> bool {
        self.done
    }

    fn start_next_workgroup(&mut self) -> Result<(), Stop> {
        self.collect_prints();
        let Some(&w) = self.order.get(self.next_workgroup) else {
            self.done = true;
            self.invocations.clear();
            return Ok(());
        };
        self.next_workgroup += 1;
        self.workgroup = w;
        self.epochs = [0, 0];
        if let Some(r) = self.races.as_mut() {
            r.next_workgroup();
        }
        let program = self.program.clone();
        for (h, g) in program.module.global_variables.iter() {
            if g.space == naga::AddressSpace::WorkGroup {
                // WebGPU zero-initialises workgroup memory.
                self.memory.workgroup[h.index()] =
                    vec![0; program.layouts.size(g.ty).div_ceil(4) as usize];
            }
        }
        let c = &self.config;
        let [wx, wy, _] = c.workgroups;
        let [sx, sy, sz] = c.workgroup_size;
        let wid = [w % wx, (w / wx) % wy, w / (wx * wy)];
        let (gx, gy) = (self.numbered[0] * wx, self.numbered[1] * wy);
        // The finished workgroup's invocations lend their buffers to the
        // next one's.
        let mut old = std::mem::take(&mut self.invocations);
        let size = self.subgroup_size;
        for local_index in 0..sx * sy * sz {
            let lid = [local_index % sx, (local_index / sx) % sy, local_index / (sx * sy)];
            let global = [0, 1, 2].map(|k| wid[k] * c.workgroup_size[k] + lid[k]);
            let ids = Ids {
                global,
                local: lid,
                workgroup: wid,
                num_workgroups: c.workgroups,
                local_index,
                id: global[0] + global[1] * gx + global[2] * gx * gy,
                subgroup_size: size,
                subgroup_invocation_id: local_index % size,
                subgroup_id: local_index / size,
                num_subgroups: (sx * sy * sz).div_ceil(size),
            };
            let mut invocation = Invocation::reusing(&program, self.entry, ids, old.pop())?;
            invocation.loop_budget = self.loop_budget;
            self.invocations.push(invocation);
        }
        Ok(())
    }

    /// Moves the finished workgroup's prints into the record, in
    /// invocation order, within the log's bound.
    fn collect_prints(&mut self) {
        use gpu_puzzles_verdict::print::PrintLine;
        for inv in &mut self.invocations {
            let ids = &inv.ids;
            for (site, values) in inv.prints.drain(..) {
                let invocation = gpu_puzzles_verdict::trace::Invocation {
                    id: ids.id,
                    workgroup_id: ids.workgroup,
                    local_invocation_id: ids.local,
                };
                self.record.keep_print(PrintLine { site, entry_point: 0, invocation, values });
            }
        }
    }

    /// One invocation's turn: its next statement, and the ones after it
    /// while each touched nothing but its own memory (function and private
    /// variables) and uniforms, in bounds; then the accesses others can
    /// see are noted. In a lock-step round run to a barrier, storage
    /// buffers and workgroup memory are touched in the same order as one
    /// statement per round would touch them for invocations on one path,
    /// and in an order as legal under WGSL for the rest; a round no longer
    /// visits every invocation for each of the statements between, which
    /// was most of lock step's cost. An invocation run alone to its barrier
    /// touches memory in the same order either way, with fewer stops.
    /// With `one_statement`, the turn is the next statement alone (the
    /// debugger's rounds, [`Dispatch::step`]).
    fn turn(&mut self, local: u32, one_statement: bool) -> Result<(), Stop> {
        // One buffer for every turn's accesses: a turn allocates nothing.
        let mut accesses = std::mem::take(&mut self.scratch);
        let inv = &mut self.invocations[local as usize];
        let stepped = loop {
            let from = accesses.len();
            let stepped = inv.step(&self.program, &mut self.memory, &mut accesses);
            if one_statement
                || stepped.is_err()
                || inv.status != Status::Running
                || accesses[from..].iter().any(|a| {
                    a.out_of_bounds.is_some()
                        || !matches!(
                            a.space,
                            Space::Function { .. } | Space::Private(_) | Space::Uniform(_)
                        )
                })
            {
                break stepped;
            }
            // Accesses to the invocation's own memory count nowhere (no
            // heat map, counter or race) unless the debugger keeps them.
            if !self.keep_accesses {
                accesses.truncate(from);
            }
        };
        self.note(local, &mut accesses);
        self.scratch = accesses;
        stepped
    }

    /// When no invocation runs: releases a barrier every invocation
    /// reached, or moves to the next workgroup when all have returned.
    ///
    /// # Errors
    /// [`Stop::BarrierNotReached`] when some wait at a barrier that others
    /// never reach.
    fn settle(&mut self) -> Result<(), Stop> {
        if self.invocations.iter().any(|i| i.status == Status::Running) {
            return Ok(());
        }
        if self.invocations.iter().all(|i| i.status == Status::Done) {
            return self.start_next_workgroup();
        }
        if self.exchange()? {
            return Ok(());
        }
        let first = self
            .invocations
            .iter()
            .find(|i| i.status == Status::Waiting)
            .expect("not all done, none running");
        let at = first.barrier();
        let waiting = self.invocations.iter().filter(|i| i.barrier() == at).count() as u32;
        if waiting as usize != self.invocations.len() {
            let span = first
                .position(&self.program)
                .map(|(f, pc, _)| self.program.code(f).spans[pc.saturating_sub(1)])
                .unwrap_or_default();
            return Err(Stop::BarrierNotReached {
                span,
                workgroup: self.workgroup,
                waiting,
                invocations: self.invocations.len() as u32,
            });
        }
        // The barrier's kind starts a new interval of workgroup memory,
        // storage, or both, for the race detector.
        let flags = first.position(&self.program).and_then(|(f, pc, _)| {
            match self.program.code(f).insts.get(pc.saturating_sub(1)) {
                Some(crate::lower::Inst::Barrier(b)) => Some(*b),
                _ => None,
            }
        });
        if let Some(b) = flags {
            if b.contains(naga::Barrier::WORK_GROUP) {
                self.epochs[0] += 1;
            }
            if b.contains(naga::Barrier::STORAGE) {
                self.epochs[1] += 1;
            }
            // Every invocation of the workgroup passes it.
            const BARRIERS: usize =
                gpu_puzzles_verdict::trace::invocation_counter::BARRIERS as usize;
            for i in &self.invocations {
                if let Some(c) = self.record.invocations.get_mut(i.ids.id as usize) {
                    c[BARRIERS] += 1;
                }
            }
        }
        for i in &mut self.invocations {
            i.status = Status::Running;
        }
        Ok(())
    }

    /// Runs, in every subgroup with lanes waiting at a subgroup operation,
    /// the one earliest in program order for the lanes waiting there
    /// ([`crate::subgroup`]); they run on. Whether any did.
    fn exchange(&mut self) -> Result<bool, Stop> {
        let size = self.subgroup_size as usize;
        let program = self.program.clone();
        let mut any = false;
        let mut start = 0;
        while start < self.invocations.len() {
            let end = (start + size).min(self.invocations.len());
            let lanes = &self.invocations[start..end];
            let earliest = lanes
                .iter()
                .filter(|i| i.subgroup_wait(&program).is_some())
                .map(|i| i.place())
                .min();
            if let Some(place) = earliest {
                let active: Vec<usize> = (start..end)
                    .filter(|&k| {
                        self.invocations[k].subgroup_wait(&program).is_some()
                            && self.invocations[k].place() == place
                    })
                    .collect();
                let op = self.invocations[active[0]]
                    .subgroup_wait(&program)
                    .expect("waits at one")
                    .clone();
                let offers: Vec<_> = active
                    .iter()
                    .map(|&k| {
                        self.invocations[k]
                            .offer
                            .clone()
                            .ok_or_else(|| Stop::internal("a lane waits without an operand".into()))
                    })
                    .collect::<Result<_, _>>()?;
                let results = crate::subgroup::exchange(&op, &offers, self.subgroup_size)?;
                for (&k, r) in active.iter().zip(results) {
                    self.invocations[k].receive(&program, r);
                }
                any = true;
            }
            start = end;
        }
        Ok(any)
    }

    /// The lanes per subgroup this dispatch runs with.
    pub fn subgroup_size(&self) -> u32 {
        self.subgroup_size
    }

    /// One round: every running invocation of the workgroup runs one
    /// statement (in lock step), or, when none runs, a barrier is released
    /// or the next workgroup starts.
    ///
    /// # Errors
    /// As [`crate::exec::Invocation::step`], and a barrier not every
    /// invocation reaches.
    pub fn step(&mut self) -> Result<(), Stop> {
        self.last_accesses.clear();
        if self.done {
            return Ok(());
        }
        if !self.invocations.iter().any(|i| i.status == Status::Running) {
            return self.settle();
        }
        for local in 0..self.invocations.len() as u32 {
            if self.invocations[local as usize].status == Status::Running {
                self.turn(local, true)?;
            }
        }
        Ok(())
    }

    /// Runs the current workgroup until every invocation waits at a barrier
    /// or has returned, in this dispatch's schedule.
    ///
    /// # Errors
    /// As [`Dispatch::step`].
    pub fn run_to_barrier(&mut self) -> Result<(), Stop> {
        self.last_accesses.clear();
        let n = self.invocations.len() as u32;
        let mut order: Vec<u32> = (0..n).collect();
        match self.schedule {
            Schedule::Lockstep => {
                while self.invocations.iter().any(|i| i.status == Status::Running) {
                    for local in 0..n {
                        if self.invocations[local as usize].status == Status::Running {
                            self.turn(local, false)?;
                        }
                    }
                }
                return Ok(());
            }
            Schedule::Forward => {}
            Schedule::Reverse => order.reverse(),
            Schedule::Random(_) => shuffle(&mut order, &mut self.rng),
        }
        // Alone up to its barrier, an invocation's turns give the same
        // order of accesses as its statements one by one, with fewer stops.
        for local in order {
            while self.invocations[local as usize].status == Status::Running {
                self.turn(local, false)?;
            }
        }
        Ok(())
    }

    /// Runs the dispatch to its end.
    ///
    /// # Errors
    /// As [`Dispatch::step`].
    pub fn run(&mut self) -> Result<(), Stop> {
        while !self.done {
            self.run_to_barrier()?;
            self.settle()?;
        }
        Ok(())
    }
}
