//! The set's index (`index.toml`): the puzzles' order and the chapters
//! that group it.

use super::{header_lines, problem, Problem, INDEX_FILE};
use crate::format::IndexFile;
use crate::model::Chapter;
use std::collections::BTreeSet;

/// The set's order and its chapters, from `order = [...]` or from the
/// `[[chapter]]` tables (one of the two), with a problem for each chapter
/// without a title or puzzles and each title given twice.
pub(super) fn index_order(
    index: &IndexFile,
    text: &str,
    problems: &mut Vec<Problem>,
) -> (Vec<String>, Vec<Chapter>) {
    match (&index.order, index.chapter.is_empty()) {
        (Some(order), true) => return (order.clone(), Vec::new()),
        (Some(_), false) => problems.push(problem(
            INDEX_FILE,
            None,
            Some("order"),
            "give the puzzles either in `order` or in `[[chapter]]` tables, not both",
        )),
        (None, true) => problems.push(problem(
            INDEX_FILE,
            None,
            Some("chapter"),
            "lists no puzzles: add `[[chapter]]` tables, each with a `title` and its `puzzles`",
        )),
        (None, false) => {}
    }
    let lines = header_lines(text, "chapter");
    let (mut order, mut chapters, mut titles) = (Vec::new(), Vec::new(), BTreeSet::new());
    for (i, c) in index.chapter.iter().enumerate() {
        let (field, line) = (format!("chapter {}", i + 1), lines.get(i).copied());
        if c.title.trim().is_empty() {
            problems.push(problem(
                INDEX_FILE,
                line,
                Some(&format!("{field} › title")),
                "is empty: give the chapter a heading",
            ));
        } else if !titles.insert(c.title.as_str()) {
            problems.push(problem(
                INDEX_FILE,
                line,
                Some(&format!("{field} › title")),
                &format!("`{}` is the title of an earlier chapter too", c.title),
            ));
        }
        if c.puzzles.is_empty() {
            problems.push(problem(
                INDEX_FILE,
                line,
                Some(&format!("{field} › puzzles")),
                "is empty: a chapter holds at least one puzzle",
            ));
        }
        chapters.push(Chapter { title: c.title.clone(), first: order.len(), len: c.puzzles.len() });
        order.extend(c.puzzles.iter().cloned());
    }
    (order, chapters)
}
