//! `print(…)` on a real adapter and in the CPU interpreter
//! (`gpu_puzzles_core::print`): every reference solution, with a print of
//! its entry points' top-level `let`s added before each entry point ends,
//! must print the same lines on the GPU (the instrumented run's log) and in
//! the interpreter, case by case on the shown cases (those the page prints
//! for), and keep its verdict and its heat maps.
//! One named test per puzzle, `prints::<slug>`, and `prints::bounded`: a
//! print in a loop of 10,000 iterations keeps the log's bound on both
//! sides, with the verdict unchanged; `prints::refused`: a print of a
//! pointer or an array is a compile error at its line, in the student's
//! terms. Performance cases are left out (they run uninstrumented, so they
//! print nothing).

use gpu_puzzles_core::print::LOG_WORDS;
use gpu_puzzles_core::{Puzzle, PuzzleSet};
use gpu_puzzles_interp::emulate;
use gpu_puzzles_tests::{gpu, judged, trial};
use gpu_puzzles_verdict::print::{PrintLine, PrintLog, PrintScalar};
use gpu_puzzles_verdict::CaseResult;
use libtest_mimic::{Failed, Trial};
use std::sync::Arc;

/// `source` with `print(<the top-level lets>);` before the closing brace
/// of each `@compute` function (a `let` of a pointer is left out).
pub fn with_prints(source: &str) -> String {
    let b = source.as_bytes();
    let mut inserts: Vec<(usize, String)> = Vec::new();
    let mut search = 0;
    while let Some(at) = source[search..].find("@compute").map(|k| k + search) {
        // The body's brace: the first after `fn` (the attributes before it
        // may hold `{{workgroupSize}}`).
        let Some(open) =
            source[at..].find("fn ").and_then(|f| source[at + f..].find('{').map(|k| k + at + f))
        else {
            break;
        };
        let (mut depth, mut parens, mut i) = (0i32, 0i32, open);
        let mut names = Vec::new();
        while i < b.len() {
            match b[i] {
                b'/' if b.get(i + 1) == Some(&b'/') => {
                    i += source[i..].find('\n').unwrap_or(b.len() - i);
                    continue;
                }
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                b'(' => parens += 1,
                b')' => parens -= 1,
                b'l' if depth == 1
                    && parens == 0
                    && source[i..].starts_with("let ")
                    && (i == 0 || !b[i - 1].is_ascii_alphanumeric()) =>
                {
                    let rest = &source[i + 4..];
                    let name: String = rest
                        .trim_start()
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    let init = rest.split_once('=').map_or("", |(_, v)| v.trim_start());
                    if !name.is_empty() && !init.starts_with('&') {
                        names.push(name);
                    }
                }
                _ => {}
            }
            i += 1;
        }
        inserts.push((i, format!("    print({});\n", names.join(", "))));
        search = i.min(b.len());
        if search >= b.len() {
            break;
        }
    }
    let mut out = source.to_string();
    for (at, text) in inserts.into_iter().rev() {
        out.insert_str(at, &text);
    }
    out
}

/// Whether two printed components agree: integers and booleans exactly,
/// floats to a relative 1e-4 (the GPU's `exp` and fused multiply-adds
/// differ from the CPU's in the last bits; NaN agrees with NaN).
fn same(a: &PrintScalar, b: &PrintScalar) -> bool {
    match (a, b) {
        (PrintScalar::F32(x), PrintScalar::F32(y)) => {
            (x.is_nan() && y.is_nan())
                || x == y
                || (x - y).abs() <= 1e-4 * x.abs().max(y.abs()).max(1.0)
        }
        _ => a == b,
    }
}

fn same_line(a: &PrintLine, b: &PrintLine) -> bool {
    a.site == b.site
        && a.entry_point == b.entry_point
        && a.invocation == b.invocation
        && a.values.len() == b.values.len()
        && a.values
            .iter()
            .zip(&b.values)
            .all(|(x, y)| x.0.len() == y.0.len() && x.0.iter().zip(&y.0).all(|(p, q)| same(p, q)))
}

fn log_of(r: &CaseResult) -> Result<&PrintLog, Failed> {
    r.findings
        .as_ref()
        .map(|f| &f.prints)
        .ok_or_else(|| Failed::from(format!("case {}: no findings", r.case)))
}

/// The puzzle with its performance cases left out.
fn without_performance(puzzle: &Puzzle) -> Puzzle {
    let mut p = puzzle.clone();
    p.cases.retain(|c| !c.is_performance());
    p
}

/// The puzzle with its shown cases only: those before the first hidden or
/// performance case (so each keeps its number). The page shows prints for
/// these alone (a hidden case shows no data), and the hidden ones are the
/// largest, whose instrumented shaders lavapipe would compile again for
/// prints alone.
fn shown_cases(puzzle: &Puzzle) -> Puzzle {
    let mut p = puzzle.clone();
    let shown = p.cases.iter().take_while(|c| !c.hidden && !c.is_performance()).count();
    p.cases.truncate(shown);
    p
}

fn compare(puzzle: &Puzzle, source: &str) -> Result<(), Failed> {
    let plain = judged(puzzle, source, None).map_err(Failed::from)?;
    let puzzle = &shown_cases(puzzle);
    let printing = with_prints(source);
    let on_gpu = judged(puzzle, &printing, None).map_err(Failed::from)?;
    let size = gpu()
        .map_err(Failed::from)?
        .adapter()
        .subgroup_sizes
        .map_or(gpu_puzzles_interp::subgroup::DEFAULT_SIZE, |(min, _)| min);
    let on_cpu = emulate::judge_puzzle_at(puzzle, &[], &printing, size)
        .map_err(|e| Failed::from(format!("the interpreter could not judge it: {}", e.message)))?;
    let mut problems = Vec::new();
    let mut lines = 0;
    for (g, c) in on_gpu.iter().zip(on_cpu.iter()) {
        if !g.outcome.passed() || !c.outcome.passed() {
            problems.push(format!(
                "case {}: with prints, GPU {} and CPU {}",
                g.case,
                g.outcome.summary(),
                c.outcome.summary()
            ));
            continue;
        }
        // The heat maps are the plain run's.
        let before = plain
            .iter()
            .find(|p| p.case == g.case)
            .and_then(|p| p.findings.as_ref())
            .map(|f| &f.buffers);
        if before != g.findings.as_ref().map(|f| &f.buffers) {
            problems.push(format!("case {}: the heat maps differ with prints", g.case));
        }
        let (gl, cl) = (log_of(g)?, log_of(c)?);
        if gl.lines.len() + gl.dropped as usize != cl.lines.len() + cl.dropped as usize {
            problems.push(format!(
                "case {}: {} lines printed on the GPU, {} in the interpreter",
                g.case,
                gl.lines.len() + gl.dropped as usize,
                cl.lines.len() + cl.dropped as usize
            ));
        } else if gl.dropped == 0 {
            if let Some((k, (a, b))) =
                gl.lines.iter().zip(&cl.lines).enumerate().find(|(_, (a, b))| !same_line(a, b))
            {
                problems.push(format!(
                    "case {}: line {k} differs:\n  GPU: {a:?}\n  CPU: {b:?}",
                    g.case
                ));
            }
            lines += gl.lines.len();
        }
    }
    if lines == 0 && problems.is_empty() {
        problems.push("no line was printed and compared".into());
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n").into())
    }
}

/// A print in a loop of 10,000 iterations, in every invocation: the log
/// keeps at most [`LOG_WORDS`] words and counts the rest, and Map is still
/// solved.
fn bounded(set: &PuzzleSet) -> Result<(), Failed> {
    let map = without_performance(set.get("map").ok_or("no puzzle `map`")?);
    let source = map.solution.clone().ok_or("no reference")?.replace(
        "out[i] = a[i] + 10.0;",
        "for (var k = 0u; k < 10000u; k++) { print(k, a[i]); }\n    out[i] = a[i] + 10.0;",
    );
    if !source.contains("print(k") {
        return Err("Map's reference no longer has the line this test edits".into());
    }
    let on_gpu = judged(&map, &source, None).map_err(Failed::from)?;
    let size = gpu()
        .map_err(Failed::from)?
        .adapter()
        .subgroup_sizes
        .map_or(gpu_puzzles_interp::subgroup::DEFAULT_SIZE, |(min, _)| min);
    let on_cpu =
        emulate::judge_puzzle_at(&map, &[], &source, size).map_err(|e| Failed::from(e.message))?;
    for r in on_gpu.iter().chain(on_cpu.iter()) {
        let log = log_of(r)?;
        let words: u64 = log.lines.iter().map(PrintLine::words).sum();
        let invocations = r.findings.as_ref().map_or(0, |f| f.invocations.len()) as u64;
        if !r.outcome.passed()
            || words > LOG_WORDS
            || log.dropped == 0
            || log.lines.len() as u64 + log.dropped != 10_000 * invocations
        {
            return Err(format!(
                "case {}: {} with {} lines kept ({words} words) and {} dropped",
                r.case,
                r.outcome.summary(),
                log.lines.len(),
                log.dropped
            )
            .into());
        }
    }
    Ok(())
}

/// A print of a pointer or of an array is a compile error, said in the
/// student's terms at the print's line, on the GPU and in the interpreter.
fn refused(set: &PuzzleSet) -> Result<(), Failed> {
    let map = without_performance(set.get("map").ok_or("no puzzle `map`")?);
    let reference = map.solution.clone().ok_or("no reference")?;
    for (value, what) in [
        ("var v = a[i];\n    let p = &v;\n    print(p);", "pointer"),
        ("let arr = array<f32, 2>(a[i], 1.0);\n    print(arr);", "array"),
    ] {
        let source = reference
            .replace("out[i] = a[i] + 10.0;", &format!("{value}\n    out[i] = a[i] + 10.0;"));
        let line = source
            .lines()
            .position(|l| l.trim_start().starts_with("print("))
            .ok_or("the edit did not apply")?
            + 1;
        let on_gpu = judged(&map, &source, None).map_err(Failed::from)?;
        let on_cpu = emulate::judge_puzzle_at(
            &map,
            &[],
            &source,
            gpu_puzzles_interp::subgroup::DEFAULT_SIZE,
        )
        .map_err(|e| Failed::from(e.message))?;
        for r in on_gpu.iter().chain(on_cpu.iter()) {
            let ok = match &r.outcome {
                gpu_puzzles_verdict::Outcome::CompileError { diagnostics } => {
                    diagnostics.first().is_some_and(|d| {
                        d.message.starts_with("print shows numbers") && d.line == Some(line)
                    })
                }
                _ => false,
            };
            if !ok {
                return Err(format!(
                    "a print of a {what}, case {}: {}",
                    r.case,
                    r.outcome.summary()
                )
                .into());
            }
        }
    }
    Ok(())
}

/// `prints::<slug>` for every puzzle, `prints::bounded` and `prints::refused`.
pub fn trials(set: &Arc<PuzzleSet>) -> Vec<Trial> {
    let mut trials: Vec<Trial> = set
        .puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let s = set.clone();
            trial(format!("prints::{}", p.slug), move || {
                let p = &s.puzzles[i];
                compare(p, p.solution.as_deref().ok_or("no reference")?)
            })
        })
        .collect();
    let s = set.clone();
    trials.push(trial("prints::bounded", move || bounded(&s)));
    let s = set.clone();
    trials.push(trial("prints::refused", move || refused(&s)));
    trials
}
