//! The lesson check: a puzzle's `[lesson]` names the built-in functions of
//! the technique it teaches, and a kernel whose outputs are right but that
//! calls none of them fails with the puzzle's sentence. Which functions a
//! kernel calls comes from its parsed module (the runner reads it with
//! naga: `gpu_puzzles_instrument::Shader::subgroup_builtins`), so a name in
//! a comment or in a function no entry point calls does not count.

use super::Outcome;
use gpu_puzzles_core::model::Puzzle;

/// The outcome of a kernel that calls the built-in functions `called` (WGSL
/// names, [`gpu_puzzles_core::wgsl::SUBGROUP_BUILTINS`]), on a case whose outputs were
/// right: [`Outcome::WithoutTechnique`] when the puzzle has a `[lesson]`
/// and `called` holds none of its `calls_any`; `None` otherwise.
pub fn lesson_outcome<'a>(
    puzzle: &Puzzle,
    called: impl IntoIterator<Item = &'a str>,
) -> Option<Outcome> {
    let lesson = puzzle.lesson.as_ref()?;
    let called: Vec<&str> = called.into_iter().collect();
    if lesson.calls_any.iter().any(|w| called.contains(&w.as_str())) {
        return None;
    }
    let wanted = lesson.calls_any.iter().map(|w| format!("`{w}`")).collect::<Vec<_>>();
    let instead = match called.as_slice() {
        [] => "This kernel calls no subgroup built-in function.".to_string(),
        some => format!(
            "This kernel calls {} and none of {}.",
            some.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", "),
            wanted.join(", ")
        ),
    };
    Some(Outcome::WithoutTechnique {
        wanted: lesson.calls_any.clone(),
        message: format!(
            "The values are right, but not by the technique this puzzle teaches. {} {instead}",
            lesson.message.trim()
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kernel_passes_with_any_of_the_wanted_calls_and_fails_without() {
        let set = crate::shipped_set();
        let puzzle = set.get("ballot").expect("the shipped set has Ballot");
        let lesson = puzzle.lesson.as_ref().expect("Ballot has a lesson");
        assert_eq!(lesson_outcome(puzzle, ["subgroupAdd", lesson.calls_any[0].as_str()]), None);
        match lesson_outcome(puzzle, ["subgroupExclusiveAdd"]) {
            Some(Outcome::WithoutTechnique { wanted, message }) => {
                assert_eq!(wanted, lesson.calls_any);
                assert!(message.contains(lesson.message.trim()), "{message}");
                assert!(message.contains("calls `subgroupExclusiveAdd` and none of"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        let none = lesson_outcome(puzzle, []).expect("no call at all");
        assert!(none.summary().contains("calls no subgroup built-in"), "{}", none.summary());
        // A puzzle without a lesson never fails this way.
        assert_eq!(lesson_outcome(set.get("map").unwrap(), []), None);
    }
}
