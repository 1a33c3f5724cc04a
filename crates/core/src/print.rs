//! `print(…)` in a student's shader: where the statements are, and how they
//! are rewritten into WGSL the compilers accept. The lines a run prints are
//! read back by `gpu_puzzles_verdict::print`.
//!
//! WGSL has no strings and no print, so the site gives one: a statement
//! `print(a, b, …);` with any number of values, each a scalar (`f32`,
//! `i32`, `u32`, `bool`) or a vector of them. The log shows each value
//! beside its own text (`i = 3, sum = 10.5`), so no label is needed. It is
//! a statement, like a call of a function that returns nothing; a shader
//! that declares a function of its own named `print` keeps it.
//!
//! Template substitution ([`crate::template::substitute`]) rewrites each
//! print, keeping every argument at its place in the text (so compiler
//! messages point into the student's lines), into
//!
//! ```wgsl
//! { var _gp_print_3_0 = a; var _gp_print_3_1 = b; _gp_print(3u); }
//! ```
//!
//! and appends `fn _gp_print(site: u32) {}`. Compiled as it is, the call
//! does nothing (what a performance case times: the compiler drops it and
//! any value computed only for it). The instrumentation pass and the CPU
//! interpreter replace each call by a log record of the named variables
//! ([`value_name`]), with the invocation that printed them. Variables, not
//! `let`s: naga gives a `let` of an existing value no expression of its
//! own, only a second name for the first one's (which replaces it), so
//! `print(i)` would rename `i`; a `var` holds a copy at the print.
//!
//! The log is bounded by [`LOG_WORDS`] a case: lines past it are counted,
//! not kept (`PrintLog::dropped` in `gpu_puzzles_verdict`).

use serde::{Deserialize, Serialize};

/// The function each print becomes a call of; its one argument is the
/// print's number ([`PrintSite::id`]).
pub const PRINT_FUNCTION: &str = "_gp_print";

/// The declaration appended to a shader that prints.
pub const PRINT_DECLARATION: &str = "\nfn _gp_print(site: u32) {}\n";

/// Words of the log a case keeps: each line takes [`LINE_HEADER_WORDS`] and
/// one word per printed component, so 8,192 lines of one number fit. Past
/// it lines are counted and dropped, whatever the GPU's order.
pub const LOG_WORDS: u64 = 1 << 15;

/// Words before a line's values: print number + 1, entry point, invocation
/// (row-major number over the dispatch).
pub const LINE_HEADER_WORDS: u64 = 3;

/// The name of the variable holding value `arg` of print `site` in the
/// rewritten text.
pub fn value_name(site: u32, arg: usize) -> String {
    format!("_gp_print_{site}_{arg}")
}

/// The print number and argument a rewritten value's name holds
/// ([`value_name`]), if it is one.
pub fn parse_value_name(name: &str) -> Option<(u32, usize)> {
    let (site, arg) = name.strip_prefix("_gp_print_")?.split_once('_')?;
    Some((site.parse().ok()?, arg.parse().ok()?))
}

/// A compiler's message about the copy a print makes of its values (which
/// names `_gp_print_…`, a name the student never wrote), said in the
/// student's terms; any other message as it is. A compiler refuses the copy
/// when the value is a pointer, an atomic or a runtime-sized array.
pub fn explain(message: String) -> String {
    if message.contains("_gp_print_") {
        "print shows numbers, booleans and vectors of them, and this value is not one: print the value a pointer points at (`*p`), `atomicLoad(&x)` for an atomic, or one element of an array (`a[i]`)".to_string()
    } else {
        message
    }
}

/// A print statement in the student's text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrintSite {
    /// Its number: prints are numbered from 0 in text order.
    pub id: u32,
    /// Line of `print`, from 1.
    pub line: usize,
    /// Column of `print`, from 1, in characters.
    pub column: usize,
    /// Byte offset of `print` in the student's text.
    pub offset: usize,
    /// Each argument's text, trimmed, as the log labels its value.
    pub args: Vec<String>,
}

/// A print found in the text, with the byte ranges the rewrite replaces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found {
    pub(crate) site: PrintSite,
    /// Byte offset of `print`.
    pub(crate) start: usize,
    /// Byte offset of `(`.
    pub(crate) open: usize,
    /// Byte offsets of the top-level commas between arguments.
    pub(crate) commas: Vec<usize>,
    /// Byte offset of `)`.
    pub(crate) close: usize,
    /// Byte offset just past the `;` that ends the statement.
    pub(crate) end: usize,
}

impl Found {
    /// The rewrite as edits of the original text, in order: (byte offset,
    /// bytes replaced, replacement).
    pub(crate) fn edits(&self) -> Vec<(usize, usize, String)> {
        let id = self.site.id;
        let n = self.site.args.len();
        let mut edits = Vec::with_capacity(n + 2);
        let head =
            if n == 0 { "{ ".to_string() } else { format!("{{ var {} = ", value_name(id, 0)) };
        edits.push((self.start, self.open + 1 - self.start, head));
        for (k, &c) in self.commas.iter().enumerate() {
            // A trailing comma ends the list: nothing follows it.
            let next = if k + 1 < n {
                format!("; var {} = ", value_name(id, k + 1))
            } else {
                String::new()
            };
            edits.push((c, 1, next));
        }
        let tail = if n == 0 {
            format!("{PRINT_FUNCTION}({id}u); }}")
        } else {
            format!("; {PRINT_FUNCTION}({id}u); }}")
        };
        edits.push((self.close, self.end - self.close, tail));
        edits
    }
}

/// Every print statement in `source`, in text order. A `print(` that is
/// not a statement of its own (inside an expression, or not followed by
/// `;`) is left alone, for the compiler to report; so is every print of a
/// shader that declares its own `fn print`.
pub(crate) fn find(source: &str) -> Vec<Found> {
    let tokens = tokens(source);
    if tokens.windows(2).any(|w| w[0].text(source) == "fn" && w[1].text(source) == "print") {
        return Vec::new();
    }
    let mut found = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i];
        let statement_start = i == 0 || matches!(tokens[i - 1].text(source), ";" | "{" | "}");
        if t.text(source) != "print"
            || !statement_start
            || tokens.get(i + 1).is_none_or(|o| o.text(source) != "(")
        {
            i += 1;
            continue;
        }
        match arguments(source, &tokens, i + 1) {
            Some((commas, close))
                if tokens.get(close + 1).is_some_and(|s| s.text(source) == ";") =>
            {
                let open = tokens[i + 1].start;
                let mut bounds = vec![open + 1];
                bounds.extend(commas.iter().map(|&c| tokens[c].start + 1));
                let mut args: Vec<String> = bounds
                    .iter()
                    .zip(commas.iter().map(|&c| tokens[c].start).chain([tokens[close].start]))
                    .map(|(&a, b)| source[a..b].trim().to_string())
                    .collect();
                if args.last().is_some_and(|a| a.is_empty()) {
                    args.pop();
                }
                let pos = crate::source::position_of_offset(source, t.start);
                found.push(Found {
                    site: PrintSite {
                        id: found.len() as u32,
                        line: pos.line,
                        column: pos.column,
                        offset: t.start,
                        args,
                    },
                    start: t.start,
                    open,
                    commas: commas.iter().map(|&c| tokens[c].start).collect(),
                    close: tokens[close].start,
                    end: tokens[close + 1].start + 1,
                });
                i = close + 2;
            }
            _ => i += 1,
        }
    }
    found
}

/// The print statements of `source` ([`find`]), as the log labels them.
pub fn sites(source: &str) -> Vec<PrintSite> {
    find(source).into_iter().map(|f| f.site).collect()
}

/// The top-level commas of the argument list opening at token `open` (a
/// `(`), and the token of its `)`; `None` when it never closes. Parentheses,
/// brackets and the angle brackets of a type (`array<f32, 4>`) nest.
fn arguments(source: &str, tokens: &[Token], open: usize) -> Option<(Vec<usize>, usize)> {
    let mut depth = 0usize;
    let mut angles = 0usize;
    let mut commas = Vec::new();
    for k in open..tokens.len() {
        match tokens[k].text(source) {
            "(" | "[" => depth += 1,
            ")" | "]" => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some((commas, k));
                }
            }
            "<" if k > 0 && is_templated(tokens[k - 1].text(source)) => angles += 1,
            ">" if angles > 0 => angles -= 1,
            "," if depth == 1 && angles == 0 => commas.push(k),
            _ => {}
        }
    }
    None
}

/// Whether an identifier takes a template list (`vec2<f32>`, `array<u32, 4>`).
fn is_templated(word: &str) -> bool {
    matches!(word, "array" | "vec2" | "vec3" | "vec4" | "ptr" | "atomic" | "bitcast")
        || word.starts_with("mat")
}

/// A token: an identifier, a number, or one punctuation character.
#[derive(Debug, Clone, Copy)]
struct Token {
    start: usize,
    end: usize,
}

impl Token {
    fn text<'s>(&self, source: &'s str) -> &'s str {
        &source[self.start..self.end]
    }
}

/// The text's tokens, comments and white space skipped (block comments
/// nest, as in WGSL).
fn tokens(source: &str) -> Vec<Token> {
    let b = source.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if b[i..].starts_with(b"//") {
            i += b[i..].iter().position(|&c| c == b'\n').unwrap_or(b.len() - i);
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
                i += 1;
            }
            out.push(Token { start, end: i });
        } else {
            out.push(Token { start: i, end: i + 1 });
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests;
