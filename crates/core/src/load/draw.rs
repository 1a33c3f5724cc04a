//! Random cases drawn for a Run: each checked as a written case is, and
//! [`DrawError`] for one the checks reject.

use super::problems::Validator;
use super::validate::Interface;
use crate::model::{Case, Puzzle, RandomCases};
use std::fmt;

/// Cases a generator draws when the set is loaded, to check it.
pub(super) const GENERATOR_SAMPLES: usize = 24;

/// Why random case `case` (from 1) of the Run with seed `run_seed` could
/// not be drawn: the generator's error, or what the loader's check of the
/// drawn case found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawError {
    /// The random case, from 1.
    pub case: usize,
    /// The Run's seed.
    pub run_seed: u64,
    /// What went wrong.
    pub reason: DrawFailure,
}

/// What went wrong in a [`DrawError`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DrawFailure {
    /// The generator could not draw the case.
    Generator(crate::random::GeneratorError),
    /// The drawn case fails the checks every written case passes.
    Invalid {
        /// The checks' messages.
        problems: Vec<String>,
    },
}

impl fmt::Display for DrawError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.reason {
            DrawFailure::Generator(e) => write!(f, "{e}"),
            DrawFailure::Invalid { problems } => f.write_str(&problems.join("; ")),
        }
    }
}

impl std::error::Error for DrawError {}

/// Draws random case `k` of the Run with seed `run_seed`, numbered after the
/// puzzle's `fixed` cases, and checks it as a written case is checked.
pub(super) fn draw_case(
    random: &RandomCases,
    interface: &Interface,
    fixed: usize,
    run_seed: u64,
    k: usize,
) -> Result<Case, DrawError> {
    let error = |reason| DrawError { case: k + 1, run_seed, reason };
    let spec =
        random.generator.draw_for_run(run_seed, k).map_err(|e| error(DrawFailure::Generator(e)))?;
    let number = fixed + k + 1;
    let mut v = Validator { file: String::new(), problems: Vec::new() };
    match v.check_case(&spec, number, None, interface, random.compare) {
        Some(mut case) if v.problems.is_empty() => {
            case.name = format!("random case {} (seed {run_seed})", k + 1);
            case.hidden = true;
            case.random_seed = Some(run_seed);
            Ok(case)
        }
        _ => Err(error(DrawFailure::Invalid {
            problems: v.problems.iter().map(|p| p.message.clone()).collect(),
        })),
    }
}

/// The random cases of one Run with seed `run_seed`: the puzzle's
/// generator's count of them, numbered after its written cases, hidden
/// (a front end shows one that fails, with the seed). The same seed draws
/// the same cases on every platform. Empty when the puzzle has no
/// generator.
///
/// # Errors
/// [`DrawError`] for a drawn case the loader rejects (the set's check draws
/// samples, so this means a rare draw the samples missed), naming it.
pub fn random_cases(puzzle: &Puzzle, run_seed: u64) -> Result<Vec<Case>, DrawError> {
    let Some(random) = &puzzle.generator else { return Ok(Vec::new()) };
    (0..random.generator.count)
        .map(|k| {
            let interface = Interface {
                buffers: &puzzle.buffers,
                uniforms: &puzzle.uniforms,
                plan: &puzzle.dispatch_plan,
                reference: random.reference,
                names_reference: random.reference.is_some(),
            };
            draw_case(random, &interface, puzzle.cases.len(), run_seed, k)
        })
        .collect()
}
