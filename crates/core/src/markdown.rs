//! Puzzle Markdown to HTML, with raw HTML shown as text.

use pulldown_cmark::{html, Event, Options, Parser};

/// Renders Markdown (CommonMark with tables and strikethrough) to HTML. Raw
/// HTML in the source is escaped and shown as text, so puzzle files cannot
/// inject markup; link and image targets with a scheme other than `http`,
/// `https` and `mailto` (such as `javascript:`) are dropped.
pub fn to_safe_html(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let events = Parser::new_ext(markdown, options).map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        Event::Start(pulldown_cmark::Tag::Link { link_type, dest_url, title, id }) => {
            Event::Start(pulldown_cmark::Tag::Link {
                link_type,
                dest_url: safe_url(dest_url),
                title,
                id,
            })
        }
        Event::Start(pulldown_cmark::Tag::Image { link_type, dest_url, title, id }) => {
            Event::Start(pulldown_cmark::Tag::Image {
                link_type,
                dest_url: safe_url(dest_url),
                title,
                id,
            })
        }
        other => other,
    });
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events);
    out
}

/// The URL itself when its scheme is safe, else an empty one.
fn safe_url(url: pulldown_cmark::CowStr<'_>) -> pulldown_cmark::CowStr<'_> {
    if is_safe_url(&url) {
        url
    } else {
        "".into()
    }
}

fn is_safe_url(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    match lower.split_once(':') {
        Some((scheme, _))
            if !scheme.contains('/') && !scheme.contains('#') && !scheme.contains('?') =>
        {
            matches!(scheme, "http" | "https" | "mailto")
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_html_is_shown_as_text() {
        let html = to_safe_html("Hi <script>alert(1)</script>\n\n<img src=x onerror=alert(1)>");
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("&lt;script&gt;"));
    }

    #[test]
    fn javascript_links_are_dropped() {
        let html =
            to_safe_html("[x](javascript:alert(1)) [y](https://gpuweb.github.io/gpuweb/wgsl/)");
        assert!(!html.contains("javascript:"), "{html}");
        assert!(html.contains("https://gpuweb.github.io"));
    }

    #[test]
    fn code_and_emphasis_render() {
        assert_eq!(
            to_safe_html("`out[i]` is *ours*"),
            "<p><code>out[i]</code> is <em>ours</em></p>\n"
        );
    }
}
