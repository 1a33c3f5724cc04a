//! `gpu-puzzles show --puzzle P --solution F [--case N] --target T`: a
//! kernel as a driver receives it for one case — the WGSL after the case's
//! placeholders are filled in (`wgsl`), naga's translation to MSL, HLSL,
//! SPIR-V or GLSL (`gpu_puzzles_instrument::translate`), or the
//! instrumented WGSL the judge dispatches (`instrumented`: the memory
//! checks, counters and loop budget added) — printed to standard output.

use anyhow::{bail, Context, Result};
use gpu_puzzles_core::template::substitute;
use gpu_puzzles_instrument::translate::{translate, Target};
use gpu_puzzles_instrument::{Options, Shader, Traced};
use std::path::Path;

/// The forms `--target` names, besides [`Target::ALL`]'s.
pub const OTHER_FORMS: [&str; 2] = ["wgsl", "instrumented"];

/// Prints `file` for case `case` (1-based, the puzzle's written cases) of
/// puzzle `slug` in the form `target` names; `Ok(false)` (and naga's
/// message on standard error) when the kernel does not parse or translate.
///
/// # Errors
/// An unknown puzzle, target or case number, or an unreadable file.
pub fn show(root: &Path, slug: &str, file: &Path, case: usize, target: &str) -> Result<bool> {
    let set = crate::load(root)?;
    let puzzle = set
        .puzzles
        .iter()
        .find(|p| p.slug == slug)
        .with_context(|| format!("no puzzle `{slug}` (see `gpu-puzzles list`)"))?;
    let Some(case) = case.checked_sub(1).and_then(|k| puzzle.cases.get(k)) else {
        bail!("`{slug}` has cases 1 to {}; there is no case {case}", puzzle.cases.len());
    };
    let forms: Vec<&str> =
        OTHER_FORMS.iter().copied().chain(Target::ALL.map(Target::name)).collect();
    if !forms.contains(&target) {
        bail!("no target `{target}`: use one of {}", forms.join(", "));
    }
    let source = std::fs::read_to_string(file)
        .with_context(|| format!("cannot read the solution {}", file.display()))?;
    let text = substitute(&source, &case.config).text;
    if target == "wgsl" {
        print!("{text}");
        return Ok(true);
    }
    let shader = match Shader::parse(&text) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{}: {e}", file.display());
            return Ok(false);
        }
    };
    let written = if target == "instrumented" {
        let traced: Vec<Traced> = puzzle
            .buffers
            .iter()
            .zip(&case.buffers)
            .map(|(b, cb)| Traced { binding: b.binding, len: cb.initial.len() as u32 })
            .collect();
        let entry_points: Vec<&str> = puzzle.entry_points.iter().map(String::as_str).collect();
        shader
            .instrument(&traced, &case.config, &entry_points, Options { racecheck: true })
            .and_then(|i| i.wgsl())
            .map_err(|e| e.to_string())
    } else {
        let target = Target::from_name(target).expect("checked above");
        let entry = puzzle.entry_points.first().map_or("main", String::as_str);
        translate(&shader, entry, target)
    };
    match written {
        Ok(text) => {
            print!("{text}");
            Ok(true)
        }
        Err(e) => {
            eprintln!("{}: {e}", file.display());
            Ok(false)
        }
    }
}
