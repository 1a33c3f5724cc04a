//! What the loader reports: a [`Problem`] naming the file, line and field,
//! and the helpers that make one from a message, a format version or a TOML
//! error.

use crate::format::FORMAT_VERSION;
use std::fmt;

/// Something wrong with a puzzle file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Path relative to the puzzles folder (or `shaders/…` for solutions).
    pub file: String,
    /// Line, from 1, where known.
    pub line: Option<usize>,
    /// Column, from 1, where known.
    pub column: Option<usize>,
    /// The field, e.g. `case 3 › buffers.a`, where there is one.
    pub field: Option<String>,
    /// What is wrong and, where it helps, what to do.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(col) = self.column {
                write!(f, ":{col}")?;
            }
        }
        if let Some(field) = &self.field {
            write!(f, ": {field}")?;
        }
        write!(f, ": {}", self.message)
    }
}

pub(crate) fn problem(
    file: &str,
    line: Option<usize>,
    field: Option<&str>,
    message: &str,
) -> Problem {
    Problem {
        file: file.to_string(),
        line,
        column: None,
        field: field.map(str::to_string),
        message: message.to_string(),
    }
}

pub(crate) fn version_problem(file: &str, found: u32) -> Problem {
    problem(file, None, Some("format_version"), &format!("is {found}, but this build reads format_version {FORMAT_VERSION}; see puzzles/FORMAT.md"))
}

pub(crate) fn toml_problem(file: &str, text: &str, e: &toml::de::Error) -> Problem {
    let pos = e.span().map(|s| crate::source::position_of_offset(text, s.start));
    // The field: the key that starts the offending line, e.g. `workgroup_size`.
    let field = pos
        .and_then(|p| text.lines().nth(p.line - 1))
        .and_then(|l| l.split_once('='))
        .map(|(k, _)| k.trim().to_string())
        .filter(|k| !k.is_empty() && !k.starts_with('['));
    Problem {
        file: file.to_string(),
        line: pos.map(|p| p.line),
        column: pos.map(|p| p.column),
        field,
        message: e.message().trim().to_string(),
    }
}

/// Line numbers of each `[[name]]` table header in a TOML text, in order.
pub(crate) fn header_lines(text: &str, name: &str) -> Vec<usize> {
    let header = format!("[[{name}]]");
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with(&header))
        .map(|(i, _)| i + 1)
        .collect()
}

/// Collects the problems of one manifest, each naming its file.
pub(super) struct Validator {
    pub(super) file: String,
    pub(super) problems: Vec<Problem>,
}

impl Validator {
    pub(super) fn at(&mut self, line: Option<usize>, field: &str, message: &str) {
        self.problems.push(problem(&self.file, line, Some(field), message));
    }
}

/// Whether `s` is a WGSL identifier (letters, digits, `_`, not starting
/// with a digit).
pub(super) fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
