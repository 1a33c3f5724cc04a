//! `gpu-puzzles check … --seeds FIRST..LAST`: one solution judged with the
//! random cases of every seed of a range, to find the seeds on which its
//! verdict changes.

use anyhow::Result;
use gpu_puzzles_core::load::random_cases;
use gpu_puzzles_core::Puzzle;
use gpu_puzzles_runner::{judge_with, Gpu, RunOptions};
use gpu_puzzles_verdict::judge::{verdict, Verdict};
use serde::Serialize;

/// One seed's verdict in a sweep, and the first random case that failed.
#[derive(Serialize)]
struct SeedVerdict {
    seed: u64,
    status: Verdict,
    /// The first failing random case: its name and summary.
    #[serde(skip_serializing_if = "Option::is_none")]
    failed: Option<String>,
}

/// `--seeds`: the written cases are judged once; each seed's random cases
/// are judged on their own and added to them. Prints each seed whose
/// verdict differs from the first seed's, then the count and the time.
/// `Ok(true)` when every seed passed.
pub(crate) fn sweep_seeds(
    gpu: &Gpu,
    puzzle: &Puzzle,
    source: &str,
    seeds: std::ops::RangeInclusive<u64>,
    json: bool,
) -> Result<bool> {
    let started = std::time::Instant::now();
    let written = pollster::block_on(judge_with(gpu, puzzle, &[], source, RunOptions::default()))?;
    if let Some(r) = written.iter().find(|r| r.outcome.failed()) {
        let case = &puzzle.cases[r.case - 1];
        if json {
            println!(
                "{}",
                serde_json::json!({ "puzzle": puzzle.slug, "status": Verdict::Failed, "written_case_failed": format!("case {}: {}", r.case, r.outcome.summary()), "seeds": [] })
            );
        } else {
            println!(
                "{}: written case {} ({}) fails: {}",
                puzzle.title,
                r.case,
                case.name,
                r.outcome.summary()
            );
            println!("  so the verdict is failed on every seed; no random case was drawn");
        }
        return Ok(false);
    }
    // Only the random cases, numbered after the written ones as in a Run.
    let mut only_random = puzzle.clone();
    only_random.cases.clear();
    let mut verdicts = Vec::new();
    for seed in seeds.clone() {
        let random = random_cases(puzzle, seed).map_err(anyhow::Error::msg)?;
        let results = pollster::block_on(judge_with(
            gpu,
            &only_random,
            &random,
            source,
            RunOptions::default(),
        ))?;
        let status = verdict(&written.iter().chain(&results).cloned().collect::<Vec<_>>());
        let failed = results.iter().find(|r| r.outcome.failed()).map(|r| {
            let name = random
                .iter()
                .find(|c| c.number == r.case)
                .map_or("a random case", |c| c.name.as_str());
            format!("{name}: {}", r.outcome.summary())
        });
        verdicts.push(SeedVerdict { seed, status, failed });
    }
    let first = verdicts.first().map(|v| v.status).unwrap_or(Verdict::Passed);
    let differing: Vec<&SeedVerdict> = verdicts.iter().filter(|v| v.status != first).collect();
    let secs = started.elapsed().as_secs_f64();
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(
                &serde_json::json!({ "puzzle": puzzle.slug, "seeds": verdicts, "seconds": secs })
            )?
        );
    } else {
        println!(
            "{}: seeds {}..={} on {}",
            puzzle.title,
            seeds.start(),
            seeds.end(),
            gpu.adapter().name
        );
        let word = |v: Verdict| if v == Verdict::Passed { "passed" } else { "failed" };
        let show = |v: &SeedVerdict| {
            println!(
                "  seed {}: {}{}",
                v.seed,
                word(v.status),
                v.failed.as_ref().map(|f| format!(" ({f})")).unwrap_or_default()
            )
        };
        if let Some(v) = verdicts.first() {
            show(v);
        }
        for v in &differing {
            show(v);
        }
        if differing.is_empty() {
            println!(
                "  the same verdict, {}, on all {} seeds ({secs:.1} s)",
                word(first),
                verdicts.len()
            );
        } else {
            println!(
                "  {} of {} seeds give a verdict other than seed {}'s ({secs:.1} s)",
                differing.len(),
                verdicts.len(),
                seeds.start()
            );
        }
    }
    Ok(verdicts.iter().all(|v| v.status == Verdict::Passed))
}
