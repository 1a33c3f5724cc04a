//! Images of a case's 2-D buffers, drawn on a `<canvas>` from the verdict's
//! view models (`gpu_puzzles_verdict::image`): the input, the expected and
//! the actual values, and the difference marking the wrong pixels. A click
//! (or Enter, then the arrow keys) opens the numbers of a 16 × 16 region as
//! a grid, marked on the image.

use gpu_puzzles_core::format::CompareSpec;
use gpu_puzzles_core::model::Values;
use gpu_puzzles_verdict::image::{self, Image, REGION};
use leptos::prelude::*;
use wasm_bindgen::{Clamped, JsCast};

/// Largest width an image is drawn at, in CSS pixels; smaller images are
/// scaled up by a whole factor to at least [`MIN_WIDTH`] (pixelated, so each
/// element stays a sharp square).
const MAX_WIDTH: usize = 384;
/// Smallest width an image is drawn at, in CSS pixels.
const MIN_WIDTH: usize = 160;

/// The CSS width an image `width` pixels across is drawn at.
pub(crate) fn drawn_width(width: usize) -> usize {
    if width >= MIN_WIDTH {
        width.min(MAX_WIDTH)
    } else {
        width * MIN_WIDTH.div_ceil(width.max(1))
    }
}

/// Runs `f`, the work on an image of `pixels` pixels, and keeps how long
/// it took as the root element's `data-{what}-ms`: the milliseconds, a
/// space, and the pixels (the last figure only, so that nothing grows over
/// a long session). `what` is `image-model` (an image's view model from
/// the values), `image-draw` (its pixels put on the canvas) or `frame` (a
/// played frame, both). `tests/e2e/bench-draw.mjs` reads them.
pub(crate) fn timed<T>(what: &str, pixels: usize, f: impl FnOnce() -> T) -> T {
    let now = || web_sys::window().and_then(|w| w.performance()).map(|p| p.now());
    let started = now();
    let out = f();
    if let (Some(a), Some(b)) = (started, now()) {
        if let Some(root) =
            web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element())
        {
            let _ =
                root.set_attribute(&format!("data-{what}-ms"), &format!("{:.3} {pixels}", b - a));
        }
    }
    out
}

/// Puts `img`'s pixels on `canvas` (sized to them).
pub(crate) fn draw(
    canvas: &web_sys::HtmlCanvasElement,
    img: &Image,
) -> Result<(), wasm_bindgen::JsValue> {
    timed("image-draw", img.width * img.height, || put(canvas, img))
}

fn put(canvas: &web_sys::HtmlCanvasElement, img: &Image) -> Result<(), wasm_bindgen::JsValue> {
    canvas.set_width(img.width as u32);
    canvas.set_height(img.height as u32);
    let context = canvas
        .get_context("2d")?
        .ok_or("no 2-D context")?
        .dyn_into::<web_sys::CanvasRenderingContext2d>()?;
    let data = web_sys::ImageData::new_with_u8_clamped_array_and_sh(
        Clamped(&img.rgba),
        img.width as u32,
        img.height as u32,
    )?;
    context.put_image_data(&data, 0.0, 0.0)
}

/// What a region grid compares against: the expected values and the rule.
#[derive(Clone)]
pub struct Against {
    /// The expected values, as long as the shown ones.
    pub expected: Values,
    /// The case's comparison.
    pub compare: CompareSpec,
}

/// One buffer as an image: `values` with `shape` (`[rows, cols]`, row-major),
/// `img` drawn from them (or their difference from `against`), a caption
/// with the scale's legend and the counts, and the region grid on demand.
/// `testid` names the figure (`image-…`); the region's grid is
/// `{testid}-region`.
pub fn image_view(
    testid: String,
    label: String,
    img: Image,
    values: Values,
    shape: [u32; 2],
    against: Option<Against>,
) -> impl IntoView {
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let (width, height) = (img.width, img.height);
    let legend = img.palette.legend();
    let special = img.special_counts();
    let wrong = img.wrong;
    let described = format!(
        "{label}, {height} × {width}, drawn as an image ({legend}){}. Press Enter to open the numbers of a region, then the arrow keys to move it.",
        if special.is_empty() { String::new() } else { format!("; {special}") }
    );
    Effect::new(move |_| {
        if let Some(c) = canvas.get() {
            if let Err(e) = draw(&c, &img) {
                leptos::logging::warn!("the image could not be drawn: {e:?}");
            }
        }
    });
    // The region's top-left element, once one is open.
    let region = RwSignal::new(None::<(usize, usize)>);
    let (rows, cols) = (height, width);
    let clamp = move |top: usize, left: usize| {
        (top.min(rows.saturating_sub(REGION)), left.min(cols.saturating_sub(REGION)))
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        let Some(c) = canvas.get_untracked() else { return };
        let (w, h) = (c.client_width().max(1) as f64, c.client_height().max(1) as f64);
        let x = ((ev.offset_x() as f64 / w) * cols as f64).floor().max(0.0) as usize;
        let y = ((ev.offset_y() as f64 / h) * rows as f64).floor().max(0.0) as usize;
        region.set(Some(clamp(y.saturating_sub(REGION / 2), x.saturating_sub(REGION / 2))));
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let step = REGION / 2;
        let now = region.get_untracked();
        let next = match (ev.key().as_str(), now) {
            ("Enter" | " ", None) => Some((0, 0)),
            ("Escape", Some(_)) => None,
            ("ArrowDown", Some((t, l))) => Some(clamp(t + step, l)),
            ("ArrowUp", Some((t, l))) => Some((t.saturating_sub(step), l)),
            ("ArrowRight", Some((t, l))) => Some(clamp(t, l + step)),
            ("ArrowLeft", Some((t, l))) => Some((t, l.saturating_sub(step))),
            _ => return,
        };
        ev.prevent_default();
        region.set(next);
    };
    let grid_testid = format!("{testid}-region");
    let region_label = label.clone();
    let numbers = move || {
        region.get().map(|(top, left)| {
            let g = image::region(
                &values,
                shape,
                against.as_ref().map(|a| &a.expected),
                against.as_ref().map_or_else(CompareSpec::default, |a| a.compare),
                top,
                left,
            );
            crate::grids::grid_view(grid_testid.clone(), format!("{region_label}, region"), g)
        })
    };
    // The region's outline over the image, in percentages of its size.
    let outline = move || {
        region.get().map(|(top, left)| {
            let pct = |a: usize, of: usize| a as f64 * 100.0 / of.max(1) as f64;
            let style = format!(
                "left:{:.3}%;top:{:.3}%;width:{:.3}%;height:{:.3}%",
                pct(left, cols),
                pct(top, rows),
                pct(REGION.min(cols - left), cols),
                pct(REGION.min(rows - top), rows)
            );
            view! { <div class="image-region" style=style aria-hidden="true"></div> }
        })
    };
    let css_width = drawn_width(width);
    view! {
        <figure class="image" data-testid=testid data-width=width data-height=height>
            <figcaption>
                {format!("{label} · {height} × {width}")}
                {wrong.filter(|&w| w > 0).map(|w| view! { <span class="mismatch-count" data-testid="image-wrong">{format!(" · {w} wrong pixel{}", if w == 1 { "" } else { "s" })}</span> })}
                {wrong.filter(|&w| w == 0).map(|_| view! { <span data-testid="image-wrong">" · no wrong pixel"</span> })}
            </figcaption>
            <div class="image-frame" style=format!("width:{css_width}px")>
                <canvas
                    node_ref=canvas
                    tabindex="0"
                    role="img"
                    aria-label=described
                    on:click=on_click
                    on:keydown=on_key
                ></canvas>
                {outline}
            </div>
            <p class="image-legend">{legend}</p>
            {(!special.is_empty()).then(|| view! { <p class="image-special" data-testid="image-special">{special.clone()}</p> })}
            {numbers}
        </figure>
    }
}
