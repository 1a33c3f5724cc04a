//! What the instrumented runs record, checked on real runs: the heat-map
//! patterns the puzzles teach (`<slug>::heatmap-*`) and the racecheck's
//! hazards (`racecheck::*`).

use super::judge;
use gpu_puzzles_core::PuzzleSet;
use gpu_puzzles_tests::trial;
use gpu_puzzles_verdict::trace::HazardKind;
use libtest_mimic::{Failed, Trial};
use std::sync::Arc;

/// The instrumented run of a reference solution, case by case.
fn traced(
    set: &PuzzleSet,
    slug: &str,
) -> Result<Vec<(gpu_puzzles_core::Case, gpu_puzzles_verdict::trace::Findings)>, Failed> {
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
pub(crate) fn heatmap_trials(set: &Arc<PuzzleSet>) -> Vec<Trial> {
    let s = set.clone();
    let guards = trial("guards::heatmap-idle-invocations-write-nothing", move || {
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
    let prefix = trial("prefix-sum::heatmap-only-invocation-0-writes", move || {
        for (case, f) in traced(&s, "prefix-sum")? {
            let wg = case.config.workgroup_size[0] as usize;
            for (k, writer) in f.buffers[1].writer.iter().enumerate() {
                let inv = writer
                    .ok_or_else(|| format!("case {}: out[{k}] never written", case.number))?;
                let ids = gpu_puzzles_verdict::trace::invocation(inv, &case.config);
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
    let shared = trial("shared::heatmap-workgroup-memory-is-used", move || {
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
pub(crate) fn racecheck_trials(set: &Arc<PuzzleSet>) -> Vec<Trial> {
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
            trial(name, move || {
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
pub(crate) fn whole_vec4_trial(set: &Arc<PuzzleSet>) -> Trial {
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
    trial("racecheck::whole-vec4-elements-count-every-word", move || {
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
                gpu_puzzles_verdict::trace::LOOP_BUDGET,
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
