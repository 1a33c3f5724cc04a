//! The browser's way of judging, natively: the CPU interpreter's checks
//! before the GPU run (`cpu-checks::*`) and the order-check helper
//! (`helper::*`) give every case the verdict the judge gives alone.

use super::SEEDS;
use gpu_puzzles_core::{Puzzle, PuzzleSet};
use gpu_puzzles_runner::RunOptions;
use gpu_puzzles_tests::{held_solutions, judged_with, trial};
use gpu_puzzles_verdict::judge::Outcome;
use libtest_mimic::{Failed, Trial};
use std::sync::Arc;

/// A browser judges with [`RunOptions::cpu_checks`]: a case the CPU
/// interpreter finds clean runs as written, with the interpreter's
/// findings; any other runs instrumented. Every reference, starter and held
/// solution must get the same outcome in every ordinary case both ways (a
/// reference's random cases too), and where the CPU checked a case, the same heat-map counts
/// as the GPU's trace. Performance cases run alike both ways, and are
/// timed in the kernel's own trials.
pub(crate) fn cpu_checks_trials(set: &Arc<PuzzleSet>) -> Vec<Trial> {
    let mut kernels: Vec<(String, String, String)> = set
        .puzzles
        .iter()
        .flat_map(|p| {
            let reference =
                p.solution.clone().map(|s| (p.slug.clone(), "reference".to_string(), s));
            reference.into_iter().chain([(
                p.slug.clone(),
                "starter".to_string(),
                p.starter.clone(),
            )])
        })
        .collect();
    kernels.extend(held_solutions().into_iter().map(|h| (h.slug, h.label, h.source)));
    kernels
        .into_iter()
        .map(|(slug, label, source)| {
            let s = set.clone();
            trial(format!("cpu-checks::{slug}::{label}"), move || {
                let p = s.get(&slug).ok_or("no such puzzle")?;
                let browser = RunOptions { cpu_checks: true, ..RunOptions::default() };
                // A reference's random cases too (that judgement is shared
                // with its `reference-random-cases` trial); the written ones
                // of the rest (shared with their expectation trials).
                let seed = (label == "reference").then_some(SEEDS[0]);
                let gpu =
                    judged_with(p, &source, seed, RunOptions::default()).map_err(Failed::from)?;
                let cpu = judged_with(p, &source, seed, browser).map_err(Failed::from)?;
                let mut checked = 0;
                // The CPU-checked judgement has no performance cases
                // (they run alike both ways; [`judged_with`]): pair by number.
                for c in cpu.iter() {
                    let g = gpu.iter().find(|g| g.case == c.case).ok_or_else(|| {
                        format!("case {}: the instrumented judgement has no result", c.case)
                    })?;
                    if g.outcome.status() != c.outcome.status() {
                        return Err(format!(
                            "case {}: instrumented on the GPU {}, checked on the CPU {}",
                            g.case,
                            g.outcome.summary(),
                            c.outcome.summary()
                        )
                        .into());
                    }
                    let (Some(gf), Some(cf)) = (&g.findings, &c.findings) else { continue };
                    if c.instrumented_timing.is_some() {
                        continue; // the CPU found a problem: this case ran instrumented
                    }
                    checked += 1;
                    for (k, (gb, cb)) in gf.buffers.iter().zip(&cf.buffers).enumerate() {
                        if (&gb.reads, &gb.writes, &gb.writer)
                            != (&cb.reads, &cb.writes, &cb.writer)
                        {
                            return Err(format!(
                                "case {}: buffer {k}'s counts differ:\nGPU {gb:?}\nCPU {cb:?}",
                                g.case
                            )
                            .into());
                        }
                    }
                    if gf.invocations != cf.invocations {
                        return Err(format!(
                            "case {}: per-invocation counts differ:\nGPU {:?}\nCPU {:?}",
                            g.case, gf.invocations, cf.invocations
                        )
                        .into());
                    }
                }
                // A reference is clean: the CPU must have checked its cases,
                // unless it is one the runner always instruments.
                let substituted =
                    gpu_puzzles_core::template::substitute(&source, &p.cases[0].config);
                let may_wait = gpu_puzzles_instrument::Shader::parse(&substituted.text)
                    .map_or(true, |s| s.may_wait_across_workgroups());
                if label == "reference"
                    && !substituted.uses_subgroups()
                    && !may_wait
                    && checked == 0
                {
                    return Err("no case was checked on the CPU".into());
                }
                Ok(())
            })
        })
        .collect()
}

/// A helper that makes the order checks it is given at once, on the
/// calling thread, and notes which cases it was given.
#[derive(Default)]
struct InlineHelper {
    asked: std::sync::Mutex<Vec<usize>>,
}

impl gpu_puzzles_runner::OrderCheckHelper for InlineHelper {
    fn start(
        &self,
        puzzle: &Puzzle,
        case: &gpu_puzzles_core::Case,
        source: &str,
        lockstep: Option<&[gpu_puzzles_core::Values]>,
    ) -> Option<gpu_puzzles_runner::HelperCheck> {
        self.asked.lock().ok()?.push(case.number);
        let checked = gpu_puzzles_interp::emulate::checks_behind_the_gpu_after(
            puzzle, case, source, true, lockstep,
        )
        .map_err(|u| u.message);
        Some(Box::pin(std::future::ready(Ok(checked))))
    }
}

/// With an order-check helper (a browser's second worker), the verdict of
/// every case is the one the judge gives alone; the helper is given the
/// cases the interpreter passed, and never a case with a loop that does
/// not end (`helper::<slug>::<kernel>`).
pub(crate) fn helper_trials(set: &Arc<PuzzleSet>) -> Vec<Trial> {
    let kernels = [
        ("stream-compaction", "reference", None),
        ("block-sum", "reference", None),
        (
            "stream-compaction",
            "workgroup-cursor",
            Some("tests/gpu/solutions/stream-compaction--workgroup-cursor.wgsl"),
        ),
        (
            "tree-reduction",
            "runaway-loop-with-barrier",
            Some("tests/gpu/solutions/tree-reduction--runaway-loop-with-barrier.wgsl"),
        ),
    ];
    kernels
        .into_iter()
        .map(|(slug, label, file)| {
            let s = set.clone();
            trial(format!("helper::{slug}::{label}"), move || {
                let p = s.get(slug).ok_or("no such puzzle")?;
                let source = match file {
                    Some(f) => std::fs::read_to_string(gpu_puzzles_tests::root().join(f)).map_err(|e| format!("{f}: {e}"))?,
                    None => p.solution.clone().ok_or("no reference solution")?,
                };
                // A text of its own, so that no other trial's order checks,
                // kept on this thread's device, answer for the helper.
                let source = format!("{source}\n// judged with a helper\n");
                let browser = RunOptions { cpu_checks: true, ..RunOptions::default() };
                let alone = judged_with(p, &source, None, browser).map_err(Failed::from)?;
                let source_for_helper = format!("{source}// and again\n");
                let helper = InlineHelper::default();
                let gpu = gpu_puzzles_tests::gpu()?;
                let helped = pollster::block_on(gpu_puzzles_runner::judge_with_helper(gpu, p, &[], &source_for_helper, browser, Some(&helper)))
                    .map_err(|e| e.to_string())?;
                for (a, h) in alone.iter().zip(&helped) {
                    if a.outcome.status() != h.outcome.status() {
                        return Err(format!("case {}: alone {}, with the helper {}", a.case, a.outcome.summary(), h.outcome.summary()).into());
                    }
                }
                let asked = helper.asked.lock().map_err(|_| "poisoned")?.clone();
                if label != "runaway-loop-with-barrier" && asked.is_empty() {
                    return Err("the helper was given no order check".into());
                }
                for n in asked {
                    if matches!(helped[n - 1].outcome, Outcome::RunawayLoop { .. }) {
                        return Err(format!("case {n}: its loop never ends, yet the helper was given its order check").into());
                    }
                }
                Ok(())
            })
        })
        .collect()
}
