//! HTML and SVG markup built as text, for the site's large static parts
//! (grid cells, heat-map cells): one `innerHTML` per table or SVG instead of
//! a DOM call per element, attribute and text node. Block Sum's grids and
//! heat maps have thousands of cells, and building them node by node from
//! wasm was most of the time from results judged to results rendered.
//!
//! Everything interpolated goes through [`esc`].

use std::fmt::Write as _;

/// `s` with `&`, `<`, `>`, `"` and `'` escaped, safe as HTML or SVG text and
/// as a quoted attribute value.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Appends `<tag a="v" …>text</tag>` to `out`, every attribute value and the
/// text escaped; `text` `None` makes an empty element.
pub fn element(out: &mut String, tag: &str, attributes: &[(&str, &str)], text: Option<&str>) {
    let _ = write!(out, "<{tag}");
    for (name, value) in attributes {
        let _ = write!(out, " {name}=\"{}\"", esc(value));
    }
    out.push('>');
    if let Some(t) = text {
        out.push_str(&esc(t));
    }
    let _ = write!(out, "</{tag}>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_text_and_attributes() {
        assert_eq!(esc(r#"a<b>&"c"'d"#), "a&lt;b&gt;&amp;&quot;c&quot;&#39;d");
        let mut out = String::new();
        element(
            &mut out,
            "td",
            &[("title", "[3] expected 1 < 2"), ("data-value", "7")],
            Some("7 & <x>"),
        );
        assert_eq!(
            out,
            r#"<td title="[3] expected 1 &lt; 2" data-value="7">7 &amp; &lt;x&gt;</td>"#
        );
    }
}
