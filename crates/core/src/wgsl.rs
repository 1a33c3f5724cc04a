//! A light scan of the resource declarations in a student's WGSL.
//!
//! WebGPU requires a bind group layout entry to match the shader's access
//! mode exactly (`var<storage, read>` needs a read-only storage entry), and a
//! pipeline built with an automatic layout only lists the bindings the shader
//! statically uses. To accept both `read` and `read_write` declarations as
//! well as declared-but-unused bindings, the runner builds an explicit layout
//! from what this scan finds. It is not a parser: it strips comments and
//! reads `@group(g) @binding(b) var<space, access>` sequences. Anything it
//! misreads surfaces as a pipeline error from the real compiler.

use std::collections::BTreeMap;

/// How a shader declares a binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Declared {
    /// `var<storage>` or `var<storage, read>`.
    StorageRead,
    /// `var<storage, read_write>`.
    StorageReadWrite,
    /// `var<uniform>`.
    Uniform,
}

/// A declared binding: group, binding and address space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Declaration {
    /// `@group(g)`.
    pub group: u32,
    /// `@binding(b)`.
    pub binding: u32,
    /// Address space and access mode.
    pub declared: Declared,
}

/// Scans `source` for resource declarations, keyed by binding number (the
/// last one wins if a binding is declared twice; the compiler reports that).
pub fn declarations(source: &str) -> BTreeMap<u32, Declaration> {
    let text = strip_comments(source);
    let mut out = BTreeMap::new();
    let mut group = None;
    let mut binding = None;
    let mut rest = text.as_str();
    while let Some(at) = rest.find(['@', 'v', ';', '{', '}']) {
        rest = &rest[at..];
        if let Some(after) = rest.strip_prefix('@') {
            let after = after.trim_start();
            let name_len =
                after.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(after.len());
            let (name, tail) = after.split_at(name_len);
            let value = attribute_value(tail);
            match name {
                "group" => group = value,
                "binding" => binding = value,
                _ => {}
            }
            rest = &after[name_len..];
        } else if rest.starts_with("var")
            && !is_ident_char(rest[3..].chars().next())
            && starts_token(&text, text.len() - rest.len())
        {
            let tail = rest[3..].trim_start();
            if let (Some(args), Some(b)) = (tail.strip_prefix('<'), binding) {
                let inner: String =
                    args.chars().take_while(|&c| c != '>').filter(|c| !c.is_whitespace()).collect();
                let mut parts = inner.split(',');
                let declared = match (parts.next(), parts.next()) {
                    (Some("storage"), None | Some("read")) => Some(Declared::StorageRead),
                    (Some("storage"), Some("read_write")) => Some(Declared::StorageReadWrite),
                    (Some("uniform"), _) => Some(Declared::Uniform),
                    _ => None,
                };
                if let Some(declared) = declared {
                    out.insert(b, Declaration { group: group.unwrap_or(0), binding: b, declared });
                }
            }
            group = None;
            binding = None;
            rest = &rest[3..];
        } else {
            if !rest.starts_with('v') {
                group = None;
                binding = None;
            }
            rest = &rest[1..];
        }
    }
    out
}

fn is_ident_char(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// True when the character before `offset` cannot continue an identifier,
/// so that a `var` found there starts a token (not the end of `myvar`).
fn starts_token(text: &str, offset: usize) -> bool {
    !is_ident_char(text[..offset].chars().next_back())
}

/// Parses `(123)` (with optional spaces and a `u`/`i` suffix).
fn attribute_value(tail: &str) -> Option<u32> {
    let inner = tail.trim_start().strip_prefix('(')?;
    let end = inner.find(')')?;
    inner[..end].trim().trim_end_matches(['u', 'i']).parse().ok()
}

/// Replaces `//` line comments and (nested) `/* */` block comments with
/// spaces, keeping every byte offset and newline.
pub fn strip_comments(source: &str) -> String {
    let bytes = source.as_bytes();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    let mut depth = 0usize;
    let mut line_comment = false;
    while i < bytes.len() {
        let two = &bytes[i..(i + 2).min(bytes.len())];
        if line_comment {
            if bytes[i] == b'\n' {
                line_comment = false;
            }
        } else if two == b"/*" {
            depth += 1;
            out.push_str("  ");
            i += 2;
            continue;
        } else if depth > 0 && two == b"*/" {
            depth -= 1;
            out.push_str("  ");
            i += 2;
            continue;
        } else if depth == 0 && two == b"//" {
            line_comment = true;
        }
        let c = source[i..].chars().next().expect("in bounds at a char boundary");
        if (line_comment || depth > 0) && c != '\n' {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            out.push(c);
        }
        i += c.len_utf8();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_access_modes_and_ignores_comments() {
        let src = "@group(0) @binding(0) var<storage, read> a : array<f32>;\n\
                   // @group(0) @binding(5) var<storage, read_write> nope : array<f32>;\n\
                   /* @binding(6) var<uniform> no: u32; */\n\
                   @group(0)\n@binding(1)\nvar < storage , read_write > out : array<f32>;\n\
                   @group(0) @binding(2) var<storage> b : array<f32>;\n\
                   @group(0) @binding(3u) var<uniform> params : Params;\n\
                   var<workgroup> smem: array<f32, 8>;\n\
                   fn f() { var x: f32; }";
        let d = declarations(src);
        assert_eq!(d.keys().copied().collect::<Vec<_>>(), [0, 1, 2, 3]);
        assert_eq!(d[&0].declared, Declared::StorageRead);
        assert_eq!(d[&1].declared, Declared::StorageReadWrite);
        assert_eq!(d[&2].declared, Declared::StorageRead);
        assert_eq!(d[&3].declared, Declared::Uniform);
    }

    #[test]
    fn group_is_recorded() {
        let d = declarations("@group(1) @binding(0) var<storage, read_write> a: array<u32>;");
        assert_eq!(d[&0].group, 1);
    }

    #[test]
    fn stripping_keeps_offsets() {
        let src = "a /* é */ b // c\nd";
        let s = strip_comments(src);
        assert_eq!(s.len(), src.len());
        assert_eq!(s.find('d'), src.find('d'));
        assert!(!s.contains('c'));
    }
}

/// Whether `source` uses subgroups: it enables the extension, or names a
/// subgroup built-in value or function outside comments. A quick test on
/// text, for choosing how to judge before anything is parsed.
pub fn uses_subgroups(source: &str) -> bool {
    let code = strip_comments(source);
    code.contains("subgroup") || code.contains("quadBroadcast") || code.contains("quadSwap")
}

/// The built-in functions of WGSL's `subgroups` extension, by their WGSL
/// names (<https://www.w3.org/TR/WGSL/#subgroup-builtin-functions> and the
/// quad functions after them): the names a puzzle's `[lesson]` may ask
/// for. `subgroupBarrier` is a synchronization built-in and not listed.
pub const SUBGROUP_BUILTINS: [&str; 25] = [
    "subgroupAdd",
    "subgroupExclusiveAdd",
    "subgroupInclusiveAdd",
    "subgroupMul",
    "subgroupExclusiveMul",
    "subgroupInclusiveMul",
    "subgroupMin",
    "subgroupMax",
    "subgroupAnd",
    "subgroupOr",
    "subgroupXor",
    "subgroupAll",
    "subgroupAny",
    "subgroupBallot",
    "subgroupElect",
    "subgroupBroadcast",
    "subgroupBroadcastFirst",
    "subgroupShuffle",
    "subgroupShuffleUp",
    "subgroupShuffleDown",
    "subgroupShuffleXor",
    "quadBroadcast",
    "quadSwapX",
    "quadSwapY",
    "quadSwapDiagonal",
];

/// The `enable` extensions the shader compilers of browsers know but naga
/// 30's WGSL parser refuses ("enable-extension is not yet supported"): the
/// directive is blanked before naga parses the text, and the subgroup
/// built-ins themselves, which naga parses without it, still need the
/// device's `subgroups` feature (gfx-rs/wgpu#7474, #8202).
pub const NAGA_UNPARSED_EXTENSIONS: [&str; 1] = ["subgroups"];

/// One `enable …;` directive blanked out of a shader's text: its byte
/// offset and its original text (the same length as the blank).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlankedDirective {
    /// Byte offset of `enable` in the text.
    pub offset: usize,
    /// The directive as written, up to and including its `;`.
    pub text: String,
    /// The extensions it names.
    pub extensions: Vec<String>,
}

/// Blanks (with spaces, keeping every byte offset and newline) each
/// `enable` directive at the head of `text` that names an extension of
/// [`NAGA_UNPARSED_EXTENSIONS`], and returns what it blanked. Directives
/// (`enable`, `requires`, `diagnostic`) may only come before the first
/// declaration (WGSL §4), so scanning stops at the first other token.
pub fn blank_enables(text: &mut String) -> Vec<BlankedDirective> {
    let code = strip_comments(text);
    let mut blanked = Vec::new();
    let mut at = 0;
    loop {
        let rest = &code[at..];
        let start = at + (rest.len() - rest.trim_start().len());
        let word_end = code[start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(code.len(), |k| start + k);
        let word = &code[start..word_end];
        if !matches!(word, "enable" | "requires" | "diagnostic") {
            break;
        }
        let Some(semi) = code[word_end..].find(';').map(|k| word_end + k) else { break };
        if word == "enable" {
            let extensions: Vec<String> = code[word_end..semi]
                .split(',')
                .map(|e| e.trim().to_string())
                .filter(|e| !e.is_empty())
                .collect();
            if extensions.iter().any(|e| NAGA_UNPARSED_EXTENSIONS.contains(&e.as_str())) {
                blanked.push(BlankedDirective {
                    offset: start,
                    text: text[start..=semi].to_string(),
                    extensions,
                });
            }
        }
        at = semi + 1;
    }
    for d in &blanked {
        let blank: String = d.text.chars().map(|c| if c == '\n' { '\n' } else { ' ' }).collect();
        // Spaces are one byte; a directive is ASCII, so lengths agree.
        if blank.len() == d.text.len() {
            text.replace_range(d.offset..d.offset + d.text.len(), &blank);
        }
    }
    blanked
}

/// `text` with the directives [`blank_enables`] took out put back in their
/// places: the WGSL a browser's compiler needs.
pub fn restore_enables(text: &str, blanked: &[BlankedDirective]) -> String {
    let mut out = text.to_string();
    for d in blanked {
        if out.get(d.offset..d.offset + d.text.len()).is_some_and(|s| s.trim().is_empty()) {
            out.replace_range(d.offset..d.offset + d.text.len(), &d.text);
        }
    }
    out
}

#[cfg(test)]
mod enable_tests {
    use super::*;

    #[test]
    fn blanks_subgroups_and_puts_it_back() {
        let src =
            "// a comment\nenable subgroups;\ndiagnostic(off, derivative_uniformity);\nfn f() {}\n";
        let mut text = src.to_string();
        let b = blank_enables(&mut text);
        assert_eq!(b.len(), 1);
        assert_eq!(b[0].extensions, ["subgroups"]);
        assert_eq!(text.len(), src.len());
        assert!(!text.contains("enable"));
        assert_eq!(restore_enables(&text, &b), src);
    }

    #[test]
    fn leaves_other_extensions_and_comments_alone() {
        for src in [
            "enable f16;\nfn f() {}",
            "// enable subgroups;\nfn f() {}",
            "fn f() {}\nenable subgroups;",
        ] {
            let mut text = src.to_string();
            assert!(blank_enables(&mut text).is_empty(), "{src}");
            assert_eq!(text, src);
        }
    }
}
