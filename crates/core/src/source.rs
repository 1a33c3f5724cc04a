//! Positions in a source text: a byte offset as a line and a column, and
//! back. The template maps the substituted text's positions to the
//! student's with these; the loader and the print scan name places with
//! them.

/// A position in the student's own text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourcePos {
    /// Byte offset into the student's text.
    pub offset: usize,
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1, in Unicode scalar values (characters).
    pub column: usize,
}

/// Byte offset where 1-based `line` starts (the text's end if it has fewer).
pub fn offset_of_line(text: &str, line: usize) -> usize {
    if line <= 1 {
        return 0;
    }
    text.match_indices('\n').nth(line - 2).map(|(i, _)| i + 1).unwrap_or(text.len())
}

/// Line and character column (both from 1) of a byte offset; offsets inside
/// a character or past the end are clamped.
pub fn position_of_offset(text: &str, offset: usize) -> SourcePos {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    SourcePos {
        offset,
        line: before.matches('\n').count() + 1,
        column: before[line_start..].chars().count() + 1,
    }
}
