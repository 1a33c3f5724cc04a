//! Native GPU tests on a real adapter (lavapipe where there is no GPU), one
//! named test each, so `cargo test -p gpu-puzzles-tests map` runs the Map
//! puzzle's tests:
//!
//! - `<slug>::reference` — the reference solution passes every case;
//! - `<slug>::starter` — the starter, as shipped, runs and fails with a
//!   mismatch (it compiles, and its unused bindings are accepted);
//! - `<slug>::<label>` — each file `solutions/<slug>--<label>.wgsl` meets the
//!   expectation on its first line: `// expect: passed`, `failed`,
//!   `config-error`, `compile-error`, `compile-error at LINE:COL`,
//!   `failed in random cases` (passes the written cases, not the random
//!   ones: only a kernel that special-cases the written sizes can, since
//!   the written cases hold every edge of the generator; `seeds.rs` sweeps
//!   every other file over 200 seeds), `memory-error` (every case),
//!   `over-budget`, `without-technique` (right values, but none of the
//!   built-in functions of the puzzle's `[lesson]`) or
//!   `runaway-loop at LINE`; any of these but `failed` may
//!   end in ` in some cases` (at least one case, and the others pass: a
//!   case too small to show the bug, such as a single invocation); an
//!   optional second line `// message: …` names text the summary of every
//!   case that did not pass must contain;
//! - `<slug>::heatmap-*` — the instrumented run's counts show the pattern
//!   the puzzle teaches (see `heatmap_trials`);
//! - `prints::<slug>` — the reference with a `print(…)` added prints the
//!   same lines on the GPU and in the interpreter (`prints.rs`);
//! - `emulate::<slug>::<kernel>` — the interpreter judges as the GPU does
//!   (`emulate.rs`);
//! - `seeds::<slug>::<kernel>` — the interpreter's verdict is the same on
//!   200 seeds' random cases (`seeds.rs`).
//!
//! A machine with no adapter fails every test with a message saying how to
//! get one; nothing passes silently.

use gpu_puzzles_core::judge::{verdict, CaseResult, Outcome, Verdict};
use gpu_puzzles_core::trace::HazardKind;
use gpu_puzzles_core::{Puzzle, PuzzleSet};
use gpu_puzzles_runner::RunOptions;
use gpu_puzzles_tests::{held_solutions, judged, judged_with, shipped_set};
use libtest_mimic::{Arguments, Failed, Trial};
use std::sync::Arc;

#[path = "emulate.rs"]
mod emulate;
#[path = "prints.rs"]
mod prints;
#[path = "seeds.rs"]
mod seeds;

/// The GPU's judgement of the puzzle's written cases, made once per binary
/// ([`judged`]).
fn judge(puzzle: &Puzzle, source: &str) -> Result<Arc<Vec<CaseResult>>, Failed> {
    judged(puzzle, source, None).map_err(Failed::from)
}

/// Seeds of the random cases the tests draw (fixed, so a failure
/// reproduces with `gpu-puzzles check --seed`).
const SEEDS: [u64; 4] = [1, 2, 3, 4];

/// Judges the puzzle's ordinary cases and the random cases of `seed`.
fn judge_random(puzzle: &Puzzle, source: &str, seed: u64) -> Result<Arc<Vec<CaseResult>>, Failed> {
    judged(puzzle, source, Some(seed)).map_err(Failed::from)
}

fn describe(results: &[CaseResult]) -> String {
    results
        .iter()
        .map(|r| format!("case {}: {}", r.case, r.outcome.summary()))
        .collect::<Vec<_>>()
        .join("\n")
}

fn check_expectation(puzzle: &Puzzle, source: &str) -> Result<(), Failed> {
    let expect = source
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// expect:"))
        .map(str::trim)
        .ok_or("the file's first line must be `// expect: …`")?;
    let results = judge(puzzle, source)?;
    // Performance cases skipped after a failure, or not run on this software
    // adapter, say nothing about the shader.
    let judged: Vec<&CaseResult> = results
        .iter()
        .filter(|r| !matches!(r.outcome, Outcome::Skipped { .. } | Outcome::Omitted { .. }))
        .collect();
    // `… in some cases`: at least one case shows it and every other case
    // passes (a case the bug cannot show in: one invocation cannot race,
    // a length equal to the invocation count needs no guard).
    let (expect, some) = match expect.strip_suffix(" in some cases") {
        Some(e) if e != "failed" => (e, true),
        _ => (expect, false),
    };
    let all = |f: &dyn Fn(&Outcome) -> bool| {
        !judged.is_empty()
            && if some {
                judged.iter().any(|r| f(&r.outcome))
                    && judged.iter().all(|r| f(&r.outcome) || matches!(r.outcome, Outcome::Passed))
            } else {
                judged.iter().all(|r| f(&r.outcome))
            }
    };
    if let Some(text) =
        source.lines().nth(1).and_then(|l| l.strip_prefix("// message:")).map(str::trim)
    {
        if let Some(r) = judged.iter().find(|r| {
            (expect == "passed" || !r.outcome.passed()) && !r.outcome.summary().contains(text)
        }) {
            return Err(format!(
                "case {}: the summary lacks `{text}`: {}",
                r.case,
                r.outcome.summary()
            )
            .into());
        }
    }
    let ok = match expect {
        // A correct solution also passes random cases (the reference's
        // trial checks every seed; one is enough here).
        "passed" => {
            verdict(&results) == Verdict::Passed
                && verdict(&judge_random(puzzle, source, SEEDS[0])?) == Verdict::Passed
        }
        "failed" => {
            verdict(&results) == Verdict::Failed
                && all(&|o| {
                    !matches!(o, Outcome::CompileError { .. } | Outcome::ConfigError { .. })
                })
        }
        "config-error" => all(&|o| matches!(o, Outcome::ConfigError { .. })),
        "compile-error" => all(&|o| matches!(o, Outcome::CompileError { .. })),
        "memory-error" => all(&|o| matches!(o, Outcome::MemoryError { .. })),
        // Fits the written cases only: the random cases must catch it.
        "failed in random cases" => {
            let mut caught = false;
            for seed in SEEDS {
                caught |= verdict(&judge_random(puzzle, source, seed)?) == Verdict::Failed;
            }
            verdict(&results) == Verdict::Passed && caught
        }
        "over-budget" => all(&|o| matches!(o, Outcome::OverBudget { .. })),
        // Right values without the puzzle's technique: on the written
        // cases and on a seed's random cases alike.
        "without-technique" => {
            let without = |o: &Outcome| matches!(o, Outcome::WithoutTechnique { .. });
            let random = judge_random(puzzle, source, SEEDS[0])?;
            all(&without)
                && random
                    .iter()
                    .filter(|r| {
                        !matches!(r.outcome, Outcome::Skipped { .. } | Outcome::Omitted { .. })
                    })
                    .all(|r| without(&r.outcome))
        }
        other if other.starts_with("runaway-loop at ") => {
            let line: usize = other["runaway-loop at ".len()..].parse().map_err(|_| "bad line")?;
            all(&|o| matches!(o, Outcome::RunawayLoop { line: Some(l), .. } if *l == line))
        }
        other => match other.strip_prefix("compile-error at ") {
            Some(pos) => {
                let (line, col) = pos.split_once(':').ok_or("expected `LINE:COL`")?;
                let (line, col): (usize, usize) =
                    (line.parse().map_err(|_| "bad line")?, col.parse().map_err(|_| "bad column")?);
                all(&|o| match o {
                    Outcome::CompileError { diagnostics } => diagnostics
                        .first()
                        .is_some_and(|d| d.line == Some(line) && d.column == Some(col)),
                    _ => false,
                })
            }
            None => return Err(format!("unknown expectation `{other}`").into()),
        },
    };
    if ok {
        Ok(())
    } else {
        Err(format!("expected {expect}, got:\n{}", describe(&results)).into())
    }
}

fn main() {
    let args = Arguments::from_args();
    let set: Arc<PuzzleSet> = Arc::new(shipped_set());
    assert!(!set.puzzles.is_empty(), "no puzzles found");
    let mut trials = Vec::new();
    for (i, p) in set.puzzles.iter().enumerate() {
        let slug = p.slug.clone();
        let s = set.clone();
        trials.push(Trial::test(format!("{slug}::reference"), move || {
            let p = &s.puzzles[i];
            let source = p.solution.as_deref().ok_or("no reference solution in shaders/")?;
            let results = judge(p, source)?;
            if verdict(&results) != Verdict::Passed {
                return Err(format!("the reference solution fails:\n{}", describe(&results)).into());
            }
            for r in results.iter().filter(|r| !p.cases[r.case - 1].is_performance()) {
                let f = r.findings.as_ref().ok_or_else(|| {
                    format!("case {}: no findings: {:?}", r.case, r.instrumentation)
                })?;
                if f.fails() || !f.unchecked.is_empty() {
                    return Err(format!(
                        "case {}: the reference solution has findings: {f:?}",
                        r.case
                    )
                    .into());
                }
            }
            Ok(())
        }));
        let s = set.clone();
        trials.push(Trial::test(format!("{slug}::reference-random-cases"), move || {
            let p = &s.puzzles[i];
            let source = p.solution.as_deref().ok_or("no reference solution in shaders/")?;
            for seed in SEEDS {
                let results = judge_random(p, source, seed)?;
                for r in results.iter().filter(|r| r.case > p.cases.len()) {
                    if !r.outcome.passed() {
                        return Err(format!(
                            "seed {seed}, case {}: {}",
                            r.case,
                            r.outcome.summary()
                        )
                        .into());
                    }
                    let f = r.findings.as_ref().ok_or_else(|| {
                        format!(
                            "seed {seed}, case {}: no findings: {:?}",
                            r.case, r.instrumentation
                        )
                    })?;
                    if f.fails() {
                        return Err(format!("seed {seed}, case {}: findings: {f:?}", r.case).into());
                    }
                }
            }
            Ok(())
        }));
        for k in 0..p.comparisons.len() {
            let s = set.clone();
            trials.push(Trial::test(format!("{slug}::comparison-{}", k + 1), move || {
                // A comparison kernel is slow on purpose, never wrong; a
                // budget or the lesson may refuse its approach.
                let p = &s.puzzles[i];
                let results = judge(p, &p.comparisons[k].source)?;
                let right = |r: &CaseResult| {
                    r.outcome.right_values()
                        || matches!(r.outcome, Outcome::Skipped { .. } | Outcome::Omitted { .. })
                };
                if verdict(&results) == Verdict::Passed || results.iter().all(right) {
                    Ok(())
                } else {
                    Err(format!(
                        "comparison kernel `{}` fails:\n{}",
                        p.comparisons[k].label,
                        describe(&results)
                    )
                    .into())
                }
            }));
        }
        let s = set.clone();
        trials.push(Trial::test(format!("{slug}::starter"), move || {
            let p = &s.puzzles[i];
            let results = judge(p, &p.starter)?;
            // Wrong outputs on every ordinary case (a starter that races, like
            // Histogram's, is caught by the memory check), and so no timing.
            // A racing starter is right where nothing can race: a case of one
            // invocation in all may pass.
            let wrong =
                |o: &Outcome| matches!(o, Outcome::Mismatch { .. } | Outcome::MemoryError { .. });
            let single = |c: &gpu_puzzles_core::Case| {
                c.config.workgroup_size.iter().chain(&c.config.workgroups).all(|&d| d == 1)
            };
            let ok = results.iter().all(|r| {
                let case = &p.cases[r.case - 1];
                if case.is_performance() {
                    matches!(r.outcome, Outcome::Skipped { .. })
                } else {
                    wrong(&r.outcome) || (single(case) && r.outcome.passed())
                }
            }) && verdict(&results) == Verdict::Failed;
            if ok {
                Ok(())
            } else {
                Err(format!(
                    "the starter must compile, run and give wrong outputs on every case:\n{}",
                    describe(&results)
                )
                .into())
            }
        }));
    }
    trials.extend(heatmap_trials(&set));
    trials.extend(racecheck_trials(&set));
    trials.extend(cpu_checks_trials(&set));
    trials.extend(helper_trials(&set));
    trials.extend(emulate::trials(&set));
    trials.extend(seeds::trials(&set));
    trials.extend(prints::trials(&set));
    for held in held_solutions() {
        let i = set
            .position(&held.slug)
            .unwrap_or_else(|| panic!("{}--{}: no puzzle `{}`", held.slug, held.label, held.slug));
        let s = set.clone();
        trials.push(Trial::test(format!("{}::{}", held.slug, held.label), move || {
            check_expectation(&s.puzzles[i], &held.source)
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}

/// The instrumented run of a reference solution, case by case.
fn traced(
    set: &PuzzleSet,
    slug: &str,
) -> Result<Vec<(gpu_puzzles_core::Case, gpu_puzzles_core::trace::Findings)>, Failed> {
    let p = set.get(slug).ok_or("no such puzzle")?;
    let results = judge(p, p.solution.as_deref().ok_or("no solution")?)?;
    results
        .iter()
        .map(|r| {
            let f = r
                .findings
                .clone()
                .ok_or_else(|| format!("case {}: no findings: {:?}", r.case, r.instrumentation))?;
            Ok((p.cases[r.case - 1].clone(), f))
        })
        .collect()
}

/// Heat-map patterns the puzzles teach, checked on the counts of real
/// instrumented runs of the reference solutions.
fn heatmap_trials(set: &Arc<PuzzleSet>) -> Vec<Trial> {
    let s = set.clone();
    let guards = Trial::test("guards::heatmap-idle-invocations-write-nothing", move || {
        for (case, f) in traced(&s, "guards")? {
            let len = case.buffers[0].initial.len();
            for (id, counts) in f.invocations.iter().enumerate() {
                let want = u32::from(id < len);
                if counts[1] != want {
                    return Err(format!(
                        "case {}: invocation {id} made {} global writes, expected {want}",
                        case.number, counts[1]
                    )
                    .into());
                }
            }
            if f.buffers[1].writes.iter().any(|&w| w != 1) {
                return Err(format!(
                    "case {}: every element of out is written once: {:?}",
                    case.number, f.buffers[1].writes
                )
                .into());
            }
        }
        Ok(())
    });
    let s = set.clone();
    let prefix = Trial::test("prefix-sum::heatmap-only-invocation-0-writes", move || {
        for (case, f) in traced(&s, "prefix-sum")? {
            let wg = case.config.workgroup_size[0] as usize;
            for (k, writer) in f.buffers[1].writer.iter().enumerate() {
                let inv = writer
                    .ok_or_else(|| format!("case {}: out[{k}] never written", case.number))?;
                let ids = gpu_puzzles_core::trace::invocation(inv, &case.config);
                if ids.local_invocation_id[0] != 0 || ids.workgroup_id[0] as usize != k {
                    return Err(format!(
                        "case {}: out[{k}] written by {}",
                        case.number,
                        ids.describe()
                    )
                    .into());
                }
            }
            for (id, counts) in f.invocations.iter().enumerate() {
                if (counts[1] > 0) != (id % wg == 0) {
                    return Err(format!(
                        "case {}: invocation {id} made {} global writes",
                        case.number, counts[1]
                    )
                    .into());
                }
            }
        }
        Ok(())
    });
    let s = set.clone();
    let shared = Trial::test("shared::heatmap-workgroup-memory-is-used", move || {
        for (case, f) in traced(&s, "shared")? {
            let len = case.buffers[0].initial.len();
            for (id, c) in f.invocations.iter().enumerate().take(len) {
                if c[2] != 1 || c[3] != 1 {
                    return Err(format!(
                        "case {}: invocation {id}: {} workgroup reads, {} writes",
                        case.number, c[2], c[3]
                    )
                    .into());
                }
            }
        }
        Ok(())
    });
    vec![guards, prefix, shared]
}

/// The racecheck of a write looks at three shadows (the last writer, the
/// highest and the lowest reader of the interval) and records the first
/// race it finds in that order. These shaders race on purpose in
/// Shared's cases; each hazard must name the lines of both accesses.
fn racecheck_trials(set: &Arc<PuzzleSet>) -> Vec<Trial> {
    // Line 5 is the first statement of `main` in both.
    const HEAD: &str = "@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;
@compute @workgroup_size({{workgroupSize}}) fn main(@builtin(local_invocation_id) l: vec3<u32>) {
";
    // Every invocation writes smem[0]: writes after writes.
    let after_write = format!("{HEAD}    smem[0] = 1.0;\n    workgroupBarrier();\n}}\n");
    // Every invocation reads smem[0]; the last one then writes it. Where
    // the GPU ran the reads first, the write finds the other readers in
    // the lowest-reader shadow (the highest reader is the writer itself).
    let after_read = format!("{HEAD}    let x = smem[0];\n    if (l.x == {{{{workgroupSize}}}}.x - 1u) {{ smem[0] = 2.0; }}\n    workgroupBarrier();\n}}\n")
        .replace("{{workgroupSize}}.x", "vec3({{workgroupSize}}).x");
    let cases: [(&str, String, &[HazardKind], [usize; 2]); 2] = [
        (
            "racecheck::write-after-write-names-both-writes",
            after_write,
            &[HazardKind::WriteAfterWrite],
            [5, 5],
        ),
        (
            "racecheck::read-and-write-name-both-lines",
            after_read,
            &[HazardKind::WriteAfterRead, HazardKind::ReadAfterWrite],
            [5, 6],
        ),
    ];
    cases
        .into_iter()
        .map(|(name, source, kinds, lines)| {
            let s = set.clone();
            Trial::test(name, move || {
                let p = s.get("shared").ok_or("no puzzle `shared`")?;
                let results = judge(p, &source)?;
                let mut seen = 0;
                for r in results.iter().filter(|r| p.cases[r.case - 1].config.workgroup_size[0] > 1) {
                    let f = r.findings.as_ref().ok_or_else(|| format!("case {}: no findings: {:?}", r.case, r.instrumentation))?;
                    if f.hazards.is_empty() {
                        return Err(format!("case {}: no hazard found: {:?}", r.case, r.outcome).into());
                    }
                    for h in &f.hazards {
                        let mut got = [h.first.site.map(|s| s.line), h.second.site.map(|s| s.line)];
                        got.sort();
                        if !kinds.contains(&h.kind) || got != lines.map(Some) || !h.workgroup_memory {
                            return Err(format!("case {}: expected {kinds:?} on lines {lines:?} in workgroup memory, got {h:?}", r.case).into());
                        }
                    }
                    seen += 1;
                }
                if seen == 0 {
                    return Err("no case of Shared has more than one invocation per workgroup".into());
                }
                Ok(())
            })
        })
        .chain(std::iter::once(whole_vec4_trial(set)))
        .collect()
}

/// Every invocation writes the same `vec4` of a workgroup array touched
/// only in whole elements, which the racecheck checks on its first word
/// (`gpu_puzzles_instrument`'s `whole_element_globals`): the hazards must
/// name that element, and count every word, as the interpreter counts them.
fn whole_vec4_trial(set: &Arc<PuzzleSet>) -> Trial {
    const SOURCE: &str = "@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> tile: array<vec4<f32>, 2>;
@compute @workgroup_size({{workgroupSize}}) fn main(@builtin(local_invocation_id) l: vec3<u32>, @builtin(global_invocation_id) g: vec3<u32>) {
    tile[1] = vec4(a[g.x]);
    workgroupBarrier();
    let t = tile[1];
    out[g.x] = t.x + t.w - a[g.x];
}
";
    let s = set.clone();
    Trial::test("racecheck::whole-vec4-elements-count-every-word", move || {
        let p = s.get("shared").ok_or("no puzzle `shared`")?;
        let results = judge(p, SOURCE)?;
        let mut seen = 0;
        for r in results.iter().filter(|r| p.cases[r.case - 1].config.workgroup_size[0] > 1) {
            let f = r
                .findings
                .as_ref()
                .ok_or_else(|| format!("case {}: no findings: {:?}", r.case, r.instrumentation))?;
            if f.hazards.is_empty()
                || f.hazards.iter().any(|h| {
                    h.kind != HazardKind::WriteAfterWrite
                        || h.element != Some(1)
                        || h.space != "tile"
                })
            {
                return Err(format!(
                    "case {}: expected writes after writes of tile[1], got {:?}",
                    r.case, f.hazards
                )
                .into());
            }
            let case = &p.cases[r.case - 1];
            let cpu = gpu_puzzles_interp::emulate::lockstep_at(
                p,
                case,
                SOURCE,
                32,
                gpu_puzzles_core::trace::LOOP_BUDGET,
            )
            .map_err(|e| {
                format!("case {}: the interpreter could not run it: {}", r.case, e.message)
            })?;
            let cpu_total = cpu.findings.as_ref().map(|f| f.hazard_total);
            if cpu_total != Some(f.hazard_total) || f.hazard_total % 4 != 0 {
                return Err(
                    format!("case {}: the GPU counted {} hazards, the interpreter {cpu_total:?}; both must count all 4 words", r.case, f.hazard_total).into()
                );
            }
            seen += 1;
        }
        if seen == 0 {
            return Err("no case of Shared has more than one invocation per workgroup".into());
        }
        Ok(())
    })
}

/// A browser judges with [`RunOptions::cpu_checks`]: a case the CPU
/// interpreter finds clean runs as written, with the interpreter's
/// findings; any other runs instrumented. Every reference, starter and held
/// solution must get the same outcome in every case both ways (a
/// reference's random cases too), and where the CPU checked a case, the same heat-map counts
/// as the GPU's trace.
fn cpu_checks_trials(set: &Arc<PuzzleSet>) -> Vec<Trial> {
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
            Trial::test(format!("cpu-checks::{slug}::{label}"), move || {
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
                for (g, c) in gpu.iter().zip(cpu.iter()) {
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
fn helper_trials(set: &Arc<PuzzleSet>) -> Vec<Trial> {
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
            Trial::test(format!("helper::{slug}::{label}"), move || {
                let p = s.get(slug).ok_or("no such puzzle")?;
                let source = match file {
                    Some(f) => std::fs::read_to_string(gpu_puzzles_tests::root().join(f)).map_err(|e| format!("{f}: {e}"))?,
                    None => p.solution.clone().ok_or("no reference solution")?,
                };
                // A text of its own, so that no other trial's order checks,
                // kept on the shared device, answer for the helper.
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
