//! The loader on how a buffer is shown (`view`, `format`): a mistake names
//! the file and the field, and an unknown name lists the known ones.

mod common;
use common::{problems_after, replace};

#[test]
fn a_word_format_needs_a_u32_buffer_and_formats_are_named() {
    // Box Blur's `img` is an f32 buffer: no word format applies to it.
    let p = problems_after(|f| {
        replace(
            f,
            "box-blur/puzzle.toml",
            "view = \"image\"",
            "view = \"image\"\nformat = \"f16x2\"",
        );
    });
    assert!(p.contains("box-blur/puzzle.toml") && p.contains("it needs `type = \"u32\"`"), "{p}");
    let p = problems_after(|f| {
        replace(f, "gemv-q8/puzzle.toml", "format = \"i8x4\"", "format = \"i4x8\"");
    });
    assert!(
        p.contains("i4x8") && p.contains("f16x2"),
        "an unknown format names the known ones: {p}"
    );
}

#[test]
fn a_buffer_of_packed_pixels_must_be_u32_and_views_are_named() {
    let p = problems_after(|f| {
        replace(f, "box-blur/puzzle.toml", "view = \"image\"", "view = \"rgba8\"");
    });
    assert!(
        p.contains("box-blur/puzzle.toml")
            && p.contains("`view = \"rgba8\"` needs `type = \"u32\"`"),
        "{p}"
    );
    let p = problems_after(|f| {
        replace(f, "box-blur/puzzle.toml", "view = \"image\"", "view = \"picture\"");
    });
    assert!(
        p.contains("picture") && p.contains("image"),
        "an unknown view names the known ones: {p}"
    );
}
