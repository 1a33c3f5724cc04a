//! Photographs as case inputs: `buffers.<name> = { image = "camera", shape =
//! [rows, cols] }` (FORMAT.md, "Photographs").
//!
//! The files live in `puzzles/images/` (`<name>.png`, with `LICENSES.md`
//! recording where each comes from). [`super::read_dir`] holds a PNG's bytes
//! base64-encoded in the set's [`Files`], which map paths to text. When the
//! set loads, each written case's photograph is decoded, converted to grey
//! (the `image` crate's luma, ITU-R BT.709 weights), centre-cropped to the
//! aspect of the case's shape and resized to exactly `rows × cols` with a
//! Lanczos-3 filter (`image::imageops`), and becomes the case's literal
//! `values`: one integer 0..=255 per pixel, row-major. So the model, the
//! page and the judge see ordinary values; the page never decodes a
//! photograph.

use super::Files;
use crate::format::BufferInit;
#[cfg(not(target_arch = "wasm32"))]
use serde::Deserialize as _;

/// The folder of `puzzles/` that holds the photographs.
pub const IMAGES_DIR: &str = "images";

/// The files `puzzles/images/` may hold besides `*.png`.
pub const IMAGES_TEXT_FILES: [&str; 1] = ["LICENSES.md"];

/// The key of photograph `name` in [`Files`].
fn key(name: &str) -> String {
    format!("{IMAGES_DIR}/{name}.png")
}

/// The photographs a set holds, by name (file stem), sorted.
fn names(files: &Files) -> Vec<&str> {
    let prefix = format!("{IMAGES_DIR}/");
    files.keys().filter_map(|k| k.strip_prefix(&prefix)?.strip_suffix(".png")).collect()
}

/// Replaces a buffer's `image` (with its `levels`) by the photograph's grey
/// levels as literal `values`; leaves any other buffer as it is.
///
/// # Errors
/// A sentence for the field: `levels` without `image`, `image` beside other
/// contents or without a `shape`, a name with no `images/<name>.png` (the
/// message lists those there), a file that is not a PNG, or `levels` out of
/// 0..=255 or reversed.
pub(super) fn resolve(files: &Files, init: &mut BufferInit) -> Result<(), String> {
    let Some(name) = init.image.take() else {
        return match init.levels {
            Some(_) => Err("`levels` goes with `image`: it maps a photograph's grey levels".into()),
            None => Ok(()),
        };
    };
    if init.values.is_some()
        || init.arange.is_some()
        || init.fill.is_some()
        || init.random.is_some()
        || init.offsets.is_some()
    {
        return Err(
            "give only one of `image`, `values`, `arange`, `fill`, `random` and `offsets`".into()
        );
    }
    let Some([rows, cols]) = init.shape else {
        return Err(format!(
            "`image = \"{name}\"` needs `shape = [rows, cols]`: the photograph is resized to it"
        ));
    };
    if rows == 0 || cols == 0 {
        return Err("a photograph needs at least one row and one column".into());
    }
    crate::generate::check_len(rows.saturating_mul(cols))?;
    let [lo, hi] = init.levels.take().unwrap_or([0, 255]);
    if lo > hi || hi > 255 {
        return Err(format!("`levels` is [{lo}, {hi}]: give [lo, hi] with lo ≤ hi ≤ 255"));
    }
    let Some(encoded) = files.get(&key(&name)) else {
        return Err(format!(
            "no photograph `{name}`: puzzles/{IMAGES_DIR}/ holds {}",
            list(&names(files))
        ));
    };
    let grey =
        decode_grey(encoded, rows, cols).map_err(|e| format!("puzzles/{}: {e}", key(&name)))?;
    // lo + round(v·(hi − lo)/255), in integers: (2·v·(hi − lo) + 255) / 510
    // is round-half-up of v·(hi − lo)/255.
    let span = hi - lo;
    init.values = Some(
        grey.into_iter().map(|v| f64::from(lo + (2 * u32::from(v) * span + 255) / 510)).collect(),
    );
    Ok(())
}

/// `files` with every written case's photograph replaced by its literal
/// `values` (and `images/*.png` left out): what a reader of the set that
/// cannot decode images gets, the judge's worker in the page, whose loader
/// runs on an embedded copy of the files. A manifest without a photograph
/// is kept as written; one with a photograph is written again from its
/// parsed TOML (its comments dropped).
///
/// # Errors
/// Each photograph that does not resolve, and each manifest that is not
/// TOML, as [`super::load_puzzle_set`] reports them.
#[cfg(not(target_arch = "wasm32"))]
pub fn with_photographs_resolved(files: &Files) -> Result<Files, Vec<super::Problem>> {
    let mut out = Files::new();
    let mut problems = Vec::new();
    for (path, text) in files {
        if path.starts_with(&format!("{IMAGES_DIR}/")) && path.ends_with(".png") {
            continue;
        }
        if !path.ends_with("/puzzle.toml") || !text.contains("image") {
            out.insert(path.clone(), text.clone());
            continue;
        }
        let mut manifest: toml::Table = match toml::from_str(text) {
            Ok(t) => t,
            Err(e) => {
                problems.push(super::toml_problem(path, text, &e));
                continue;
            }
        };
        let mut changed = false;
        let cases = manifest.get_mut("case").and_then(toml::Value::as_array_mut);
        for (i, case) in cases.into_iter().flatten().enumerate() {
            let buffers = case.get_mut("buffers").and_then(toml::Value::as_table_mut);
            for (name, buffer) in buffers.into_iter().flatten() {
                let Some(table) = buffer.as_table_mut().filter(|t| t.contains_key("image")) else {
                    continue;
                };
                let resolved = BufferInit::deserialize(toml::Value::Table(table.clone()))
                    .map_err(|e| e.to_string())
                    .and_then(|mut init| resolve(files, &mut init).map(|()| init.values));
                match resolved {
                    Ok(Some(values)) => {
                        table.remove("image");
                        table.remove("levels");
                        let values = values.into_iter().map(|v| toml::Value::Integer(v as i64));
                        table.insert("values".into(), toml::Value::Array(values.collect()));
                        changed = true;
                    }
                    Ok(None) => {}
                    Err(e) => problems.push(super::problem(
                        path,
                        None,
                        Some(&format!("case {} › buffers.{name}", i + 1)),
                        &e,
                    )),
                }
            }
        }
        let text = if changed {
            toml::to_string(&manifest).map_err(|e| {
                vec![super::problem(path, None, None, &format!("cannot be written again: {e}"))]
            })?
        } else {
            text.clone()
        };
        out.insert(path.clone(), text);
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// The names as a sentence: "`a` and `b`", or "no photograph".
fn list(names: &[&str]) -> String {
    match names {
        [] => "no photograph".into(),
        [only] => format!("only `{only}`"),
        [rest @ .., last] => {
            let rest: Vec<String> = rest.iter().map(|n| format!("`{n}`")).collect();
            format!("{} and `{last}`", rest.join(", "))
        }
    }
}

/// A base64-encoded PNG as `rows × cols` grey levels, row-major: converted to
/// luma, the largest centred region with the shape's aspect kept, resized
/// with Lanczos-3.
#[cfg(not(target_arch = "wasm32"))]
fn decode_grey(encoded: &str, rows: u32, cols: u32) -> Result<Vec<u8>, String> {
    use base64::Engine as _;
    use image::imageops::{self, FilterType};
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .map_err(|e| format!("not base64 as the loader stores it: {e}"))?;
    let decoded = image::load_from_memory_with_format(&bytes, image::ImageFormat::Png)
        .map_err(|e| format!("cannot be decoded as a PNG: {e}"))?;
    let grey = decoded.to_luma8();
    let (w, h) = grey.dimensions();
    // The largest w' × h' inside w × h with w'/h' = cols/rows, centred.
    let (cw, ch) = if u64::from(w) * u64::from(rows) >= u64::from(h) * u64::from(cols) {
        (((u64::from(h) * u64::from(cols)) / u64::from(rows)).max(1) as u32, h)
    } else {
        (w, ((u64::from(w) * u64::from(rows)) / u64::from(cols)).max(1) as u32)
    };
    let cropped = imageops::crop_imm(&grey, (w - cw) / 2, (h - ch) / 2, cw, ch).to_image();
    Ok(imageops::resize(&cropped, cols, rows, FilterType::Lanczos3).into_raw())
}

/// The page's build never loads a set; only native builds decode photographs.
#[cfg(target_arch = "wasm32")]
fn decode_grey(_: &str, _: u32, _: u32) -> Result<Vec<u8>, String> {
    Err("photographs are decoded when a set loads natively (the CLI or the site's build)".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;

    /// A 4 × 2 grey PNG whose rows are 0, 85, 170, 255 (two pixels each).
    fn ramp_png() -> String {
        let pixels: Vec<u8> = [0u8, 85, 170, 255].iter().flat_map(|&v| [v, v]).collect();
        let img = image::GrayImage::from_raw(2, 4, pixels).expect("8 pixels");
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Png).expect("encodes");
        base64::engine::general_purpose::STANDARD.encode(out.into_inner())
    }

    fn files() -> Files {
        Files::from([("images/ramp.png".to_string(), ramp_png())])
    }

    fn init(toml: &str) -> BufferInit {
        toml::from_str(toml).expect("a buffer init")
    }

    #[test]
    fn a_photograph_at_its_own_size_keeps_its_levels() {
        let mut b = init("image = \"ramp\"\nshape = [4, 2]");
        resolve(&files(), &mut b).expect("resolves");
        assert_eq!(b.values, Some(vec![0., 0., 85., 85., 170., 170., 255., 255.]));
        assert!(b.image.is_none());
    }

    #[test]
    fn levels_map_0_to_255_onto_lo_to_hi_rounded() {
        let mut b = init("image = \"ramp\"\nshape = [4, 2]\nlevels = [100, 150]");
        resolve(&files(), &mut b).expect("resolves");
        // 100 + round(v · 50 / 255): 0 → 100, 85 → 116.67 → 117, 170 → 133.33 → 133, 255 → 150.
        assert_eq!(b.values, Some(vec![100., 100., 117., 117., 133., 133., 150., 150.]));
    }

    #[test]
    fn a_shape_of_another_aspect_is_cropped_from_the_centre() {
        // 4 × 2 cropped to a 1 × 1 aspect keeps rows 1..3 (85 and 170), resized to 2 × 2.
        let mut b = init("image = \"ramp\"\nshape = [2, 2]");
        resolve(&files(), &mut b).expect("resolves");
        let v = b.values.expect("values");
        assert_eq!(v.len(), 4);
        assert!(v.iter().all(|&x| (60.0..=195.0).contains(&x)), "{v:?} keeps the middle rows only");
        assert!(v[0] < v[2], "{v:?}: the top row stays darker than the bottom row");
    }

    #[test]
    fn mistakes_are_named() {
        let e = |t: &str| resolve(&files(), &mut init(t)).expect_err("refused");
        assert!(e("image = \"cat\"\nshape = [2, 2]").contains("holds only `ramp`"));
        assert!(e("image = \"ramp\"").contains("needs `shape"));
        assert!(e("image = \"ramp\"\nshape = [2, 2]\nfill = 1.0").contains("only one of"));
        assert!(e("levels = [0, 9]\nlen = 4").contains("goes with `image`"));
        assert!(e("image = \"ramp\"\nshape = [2, 2]\nlevels = [9, 3]").contains("lo ≤ hi"));
        let bad = Files::from([("images/ramp.png".to_string(), "AAAA".to_string())]);
        let msg =
            resolve(&bad, &mut init("image = \"ramp\"\nshape = [2, 2]")).expect_err("refused");
        assert!(msg.contains("cannot be decoded as a PNG"), "{msg}");
    }
}
