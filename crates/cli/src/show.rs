//! `gpu-puzzles show --puzzle P --solution F [--case N] --target T`: a
//! kernel as a driver receives it for one case
//! ([`gpu_puzzles_instrument::translate::for_case`]): the WGSL after the
//! case's placeholders are filled in (`wgsl`), naga's translation to MSL,
//! HLSL, SPIR-V or GLSL, or the instrumented WGSL the judge dispatches
//! (`instrumented`), printed to standard output.

use anyhow::{bail, Context, Result};
use gpu_puzzles_instrument::translate::{for_case, Form};
use std::path::Path;

/// Prints `file` for case `case` (1-based, the puzzle's written cases) of
/// puzzle `slug` in the form `target` names ([`Form::name`]); `Ok(false)`
/// (and naga's message on standard error) when the kernel does not parse
/// or translate.
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
    let Some(form) = Form::from_name(target) else {
        let names: Vec<&str> = Form::ALL.iter().map(|f| f.name()).collect();
        bail!("no target `{target}`: use one of {}", names.join(", "));
    };
    let source = std::fs::read_to_string(file)
        .with_context(|| format!("cannot read the solution {}", file.display()))?;
    match for_case(puzzle, case, &source, form) {
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
