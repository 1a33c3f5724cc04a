//! `gpu-puzzles check … --images DIR`: each shown case's 2-D buffers as PNG
//! files, the same pictures the page draws (`gpu_puzzles_verdict::image`):
//! the input, the expected and the actual values, and the difference that
//! marks the wrong pixels.

use anyhow::{Context, Result};
use gpu_puzzles_core::format::BufferView;
use gpu_puzzles_core::format::Role;
use gpu_puzzles_core::model::Values;
use gpu_puzzles_core::{Case, Puzzle};
use gpu_puzzles_verdict::image::{self, Image};
use gpu_puzzles_verdict::CaseResult;
use std::path::{Path, PathBuf};

/// True when a buffer with `view`, holding `values` in `shape`, is written:
/// a `[rows, cols]` matrix that is not a plain `u32` one (packed words and
/// indices make no picture) and whose puzzle did not ask for numbers only.
fn pictured(view: BufferView, shape: Option<[u32; 2]>, values: &Values) -> Option<[u32; 2]> {
    let [r, c] = shape?;
    let matrix = r as usize * c as usize == values.len() && !values.is_empty();
    let wanted = match view {
        BufferView::Image | BufferView::Rgba8 => true,
        BufferView::Grid => false,
        BufferView::Auto => !matches!(values, Values::U32(_)),
    };
    (matrix && wanted).then_some([r, c])
}

/// Writes `img` to `path` as an 8-bit RGBA PNG.
fn write_png(path: &Path, img: &Image) -> Result<()> {
    let file =
        std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    let mut encoder =
        png::Encoder::new(std::io::BufWriter::new(file), img.width as u32, img.height as u32);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&img.rgba)?;
    writer.finish()?;
    Ok(())
}

/// Writes the pictures of every shown case of `puzzle` and of the `random`
/// ones (hidden and performance cases show no data) into `dir`, created if
/// missing: `case-N-input-NAME.png`, `case-N-expected-NAME.png`,
/// `case-N-actual-NAME.png` and `case-N-difference-NAME.png`, `N` the
/// case's number as the report gives it. Returns the files written.
///
/// # Errors
/// The folder or a file cannot be written.
pub(crate) fn write_images(
    dir: &Path,
    puzzle: &Puzzle,
    random: &[Case],
    results: &[CaseResult],
) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut written = Vec::new();
    let mut save = |name: String, img: Option<Image>| -> Result<()> {
        if let Some(img) = img {
            let path = dir.join(name);
            write_png(&path, &img)?;
            written.push(path);
        }
        Ok(())
    };
    for (case, result) in puzzle.cases.iter().chain(random).zip(results) {
        if case.hidden || case.is_performance() {
            continue;
        }
        let n = case.number;
        let mut compared = 0;
        for (b, cb) in puzzle.buffers.iter().zip(&case.buffers) {
            if b.role != Role::Output {
                if let Some(shape) = pictured(b.view, cb.shape, &cb.initial) {
                    save(
                        format!("case-{n}-input-{}.png", b.name),
                        image::image_of(&cb.initial, shape, b),
                    )?;
                }
            }
            if !b.role.is_compared() {
                continue;
            }
            let k = compared;
            compared += 1;
            let Some(expected) = cb.expected.as_ref() else { continue };
            let Some(shape) = pictured(b.view, cb.shape, expected) else { continue };
            let expected_image = image::image_of(expected, shape, b);
            // The actual image on the expected image's scale.
            let scale = expected_image.as_ref().map(|i| i.palette);
            save(format!("case-{n}-expected-{}.png", b.name), expected_image)?;
            if let Some(actual) = result.actual.get(k) {
                save(
                    format!("case-{n}-actual-{}.png", b.name),
                    image::image_on(actual, shape, b.view, scale),
                )?;
                save(
                    format!("case-{n}-difference-{}.png", b.name),
                    image::difference(actual, expected, shape, case.compare),
                )?;
            }
        }
    }
    Ok(written)
}

/// Plays every shown written case of several dispatches on `gpu`
/// ([`gpu_puzzles_runner::frames`]) and writes its pictured compared
/// buffers after each frame's step into `dir`, created if missing:
/// `case-N-NAME-step-K.png`, `K` the number of dispatches done, zero-padded,
/// every frame of a buffer on the scale of its expected values, so that
/// the frames compare. Returns a line a case saying what was written and
/// the kernel's steps per second.
///
/// # Errors
/// The folder or a file cannot be written, or the GPU failed.
pub(crate) fn write_frames(
    dir: &Path,
    gpu: &gpu_puzzles_runner::Gpu,
    puzzle: &Puzzle,
    source: &str,
) -> Result<Vec<String>> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut lines = Vec::new();
    for case in
        puzzle.cases.iter().filter(|c| !c.hidden && !c.is_performance() && c.dispatches.len() > 1)
    {
        let played = pollster::block_on(gpu_puzzles_runner::frames(gpu, puzzle, case, source))?;
        let digits = played.after.last().map_or(1, |n| n.to_string().len());
        let mut files = 0;
        for (k, &i) in played.buffers.iter().enumerate() {
            let (b, cb) = (&puzzle.buffers[i], &case.buffers[i]);
            let Some(expected) = cb.expected.as_ref() else { continue };
            let Some(shape) = pictured(b.view, cb.shape, expected) else { continue };
            let scale = image::image_of(expected, shape, b).map(|i| i.palette);
            for (frame, after) in played.frames.iter().zip(&played.after) {
                if let Some(img) = image::image_on(&frame[k], shape, b.view, scale) {
                    write_png(
                        &dir.join(format!(
                            "case-{}-{}-step-{after:0digits$}.png",
                            case.number, b.name
                        )),
                        &img,
                    )?;
                    files += 1;
                }
            }
        }
        let rate = played
            .steps_per_second(case.dispatches.len())
            .map_or("the timer read zero".into(), |r| {
                format!("{r:.0} steps/s of the kernel alone")
            });
        lines.push(format!(
            "frames: case {}, {} of {} steps, {files} PNG files written to {}; {rate}",
            case.number,
            played.frames.len(),
            case.dispatches.len(),
            dir.display()
        ));
    }
    if lines.is_empty() {
        lines.push(format!(
            "frames: no shown case of {} has several dispatches to play",
            puzzle.slug
        ));
    }
    Ok(lines)
}
