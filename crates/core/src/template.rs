//! Template substitution, as the public WebGPU puzzle site does it, with a
//! column map back to the student's text.
//!
//! `{{workgroupSize}}` becomes `x, y, z`, `{{totalWorkgroups}}` becomes
//! `x, y, z` and `{{smemSize}}` the product of the workgroup memory size.
//! Replacements never contain newlines, so line numbers are unchanged; only
//! columns after a placeholder move, and [`Substituted::to_source`] moves
//! them back. An `enable subgroups;` directive, which naga cannot parse, is
//! blanked in the text naga sees and kept for the browser's compiler.

use crate::model::CaseConfig;
pub use crate::source::{offset_of_line, position_of_offset, SourcePos};

/// The placeholders and what they stand for.
pub const PLACEHOLDERS: [&str; 3] = ["{{workgroupSize}}", "{{totalWorkgroups}}", "{{smemSize}}"];

/// Substituted shader text and the map back to the original.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Substituted {
    /// The WGSL handed to the compiler.
    pub text: String,
    /// Replacements, in text order: (byte offset in the original, length of
    /// the placeholder in bytes, length of the replacement in bytes).
    edits: Vec<(usize, usize, usize)>,
    /// `enable` directives naga cannot parse (`enable subgroups;`), blanked
    /// in [`Substituted::text`] ([`crate::wgsl::blank_enables`]) and put
    /// back by [`Substituted::compiler_text`].
    pub enables: Vec<crate::wgsl::BlankedDirective>,
    /// The shader's `print(…);` statements, in text order (their numbers are
    /// their places here).
    pub prints: Vec<crate::print::PrintSite>,
}

std::thread_local! {
    /// Calls of [`substitute`] on this thread ([`substitutions`]).
    static SUBSTITUTIONS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many times [`substitute`] has run on the calling thread: the tests
/// count a Run's substitutions with it (one per distinct prepared case).
pub fn substitutions() -> usize {
    SUBSTITUTIONS.with(std::cell::Cell::get)
}

/// The text each placeholder is replaced with for this configuration.
pub fn replacements(config: &CaseConfig) -> [String; 3] {
    let v = |a: [u32; 3]| format!("{}, {}, {}", a[0], a[1], a[2]);
    [v(config.workgroup_size), v(config.workgroups), config.workgroup_memory_elements().to_string()]
}

/// Replaces every placeholder in `source` for `config`, and rewrites every
/// `print(…);` statement ([`crate::print`]) into WGSL the compilers accept,
/// appending the print function's declaration when there is one.
pub fn substitute(source: &str, config: &CaseConfig) -> Substituted {
    SUBSTITUTIONS.with(|n| n.set(n.get() + 1));
    let reps = replacements(config);
    let mut pending: Vec<(usize, usize, String)> = Vec::new();
    let mut rest = 0;
    while let Some(found) = next_placeholder(&source[rest..]) {
        let (at, which) = (rest + found.0, found.1);
        pending.push((at, PLACEHOLDERS[which].len(), reps[which].clone()));
        rest = at + PLACEHOLDERS[which].len();
    }
    let prints = crate::print::find(source);
    pending.extend(prints.iter().flat_map(crate::print::Found::edits));
    pending.sort_by_key(|e| e.0);
    let mut text = String::with_capacity(source.len() + 32 + 48 * prints.len());
    let mut edits = Vec::with_capacity(pending.len());
    let mut rest = 0;
    for (at, len, with) in pending {
        text.push_str(&source[rest..at]);
        text.push_str(&with);
        edits.push((at, len, with.len()));
        rest = at + len;
    }
    text.push_str(&source[rest..]);
    if !prints.is_empty() {
        text.push_str(crate::print::PRINT_DECLARATION);
    }
    let enables = crate::wgsl::blank_enables(&mut text);
    Substituted { text, edits, enables, prints: prints.into_iter().map(|f| f.site).collect() }
}

fn next_placeholder(s: &str) -> Option<(usize, usize)> {
    PLACEHOLDERS.iter().enumerate().filter_map(|(i, p)| s.find(p).map(|at| (at, i))).min()
}

impl Substituted {
    /// Whether the shader enables WGSL's `subgroups` extension.
    pub fn uses_subgroups(&self) -> bool {
        self.enables.iter().any(|d| d.extensions.iter().any(|e| e == "subgroups"))
    }

    /// The text for a browser's compiler: [`Substituted::text`] with the
    /// blanked `enable` directives back in place (same offsets).
    pub fn compiler_text(&self) -> std::borrow::Cow<'_, str> {
        if self.enables.is_empty() {
            std::borrow::Cow::Borrowed(&self.text)
        } else {
            std::borrow::Cow::Owned(crate::wgsl::restore_enables(&self.text, &self.enables))
        }
    }

    /// Maps a byte offset in [`Substituted::text`] back to a byte offset in
    /// the original. An offset inside a replacement maps to the start of its
    /// placeholder.
    pub fn to_source_offset(&self, offset: usize) -> usize {
        let mut shift: isize = 0;
        for &(orig_at, orig_len, new_len) in &self.edits {
            let new_at = (orig_at as isize + shift) as usize;
            if offset < new_at {
                break;
            }
            if offset < new_at + new_len {
                return orig_at;
            }
            shift += new_len as isize - orig_len as isize;
        }
        (offset as isize - shift).max(0) as usize
    }

    /// Maps a 1-based (line, column in bytes) position of the substituted
    /// text, as compilers report it, to the student's text.
    pub fn to_source(&self, original: &str, line: usize, column_bytes: usize) -> SourcePos {
        let offset = offset_of_line(&self.text, line) + column_bytes.saturating_sub(1);
        position_of_offset(original, self.to_source_offset(offset.min(self.text.len())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> CaseConfig {
        CaseConfig {
            workgroup_size: [16, 1, 1],
            workgroups: [2, 1, 1],
            workgroup_memory: Some([8, 2, 1]),
        }
    }

    #[test]
    fn substitutes_every_placeholder_like_the_public_site() {
        let s = substitute(
            "const wgs = vec3({{workgroupSize}});\nconst twg = vec3({{totalWorkgroups}});\nvar<workgroup> smem: array<f32, {{smemSize}}>;",
            &config(),
        );
        assert_eq!(s.text, "const wgs = vec3(16, 1, 1);\nconst twg = vec3(2, 1, 1);\nvar<workgroup> smem: array<f32, 16>;");
    }

    #[test]
    fn smem_is_one_without_workgroup_memory() {
        let c = CaseConfig { workgroup_memory: None, ..config() };
        assert_eq!(substitute("{{smemSize}}", &c).text, "1");
    }

    #[test]
    fn columns_after_a_placeholder_map_back() {
        let src = "@compute @workgroup_size({{workgroupSize}}) fn main(x: foo) {}";
        let s = substitute(src, &config());
        let col_in_text = s.text.find("foo").unwrap() + 1;
        let p = s.to_source(src, 1, col_in_text);
        assert_eq!(p.column, src.find("foo").unwrap() + 1);
        assert_eq!(&src[p.offset..p.offset + 3], "foo");
    }

    #[test]
    fn a_position_inside_a_replacement_points_at_the_placeholder() {
        let src = "a {{smemSize}} b {{workgroupSize}} c";
        let s = substitute(src, &config());
        let inside = s.text.find("16, 1").unwrap() + 2;
        assert_eq!(s.to_source_offset(inside), src.find("{{workgroupSize}}").unwrap());
        assert_eq!(s.to_source_offset(s.text.len() - 1), src.len() - 1);
    }

    #[test]
    fn lines_are_kept_and_columns_count_characters() {
        let src = "// é\nlet x = {{smemSize}}; bad";
        let s = substitute(src, &config());
        assert_eq!(s.text.lines().count(), src.lines().count());
        let col = s.text.lines().nth(1).unwrap().find("bad").unwrap() + 1;
        let p = s.to_source(src, 2, col);
        assert_eq!((p.line, p.column), (2, src.lines().nth(1).unwrap().find("bad").unwrap() + 1));
        assert_eq!(position_of_offset(src, 4), SourcePos { offset: 3, line: 1, column: 4 });
    }

    #[test]
    fn a_print_keeps_lines_and_its_arguments_map_back() {
        let src = "fn main() {\n  print(x, {{smemSize}} + bad);\n}";
        let s = substitute(src, &config());
        assert_eq!(s.prints.len(), 1);
        assert!(s.text.ends_with(crate::print::PRINT_DECLARATION));
        assert_eq!(
            s.text.lines().nth(1).unwrap(),
            "  { var _gp_print_0_0 = x; var _gp_print_0_1 =  16 + bad; _gp_print(0u); }"
        );
        let col = s.text.lines().nth(1).unwrap().find("bad").unwrap() + 1;
        let p = s.to_source(src, 2, col);
        assert_eq!((p.line, &src[p.offset..p.offset + 3]), (2, "bad"));
    }
}
