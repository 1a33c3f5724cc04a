//! Photographs as case inputs (`image = "camera"`, FORMAT.md "Photographs"),
//! on the shipped set: the shipped photographs decode to the case's shape,
//! and each mistake a host can make names the file and the field.

use gpu_puzzles_core::load::{load_puzzle_set, read_dir, Files};
use std::path::Path;

fn shipped() -> Files {
    read_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../puzzles"))
        .expect("puzzles/ is readable")
}

/// The shipped set with Box Blur's first case's input replaced by `with`.
fn box_blur_with(with: &str) -> Result<gpu_puzzles_core::PuzzleSet, String> {
    let mut files = shipped();
    let text = files.get_mut("box-blur/puzzle.toml").expect("Box Blur is shipped");
    let from =
        "buffers.a = { random = { len = 64, min = 0, max = 9, seed = 2401 }, shape = [8, 8] }";
    assert!(text.contains(from), "Box Blur's first case is as this test knows it");
    *text = text.replacen(from, &format!("buffers.a = {with}"), 1);
    load_puzzle_set(&files, None)
        .map_err(|ps| ps.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n"))
}

#[test]
fn every_shipped_photograph_decodes_and_has_its_licence_recorded() {
    let files = shipped();
    let licences = files.get("images/LICENSES.md").expect("images/LICENSES.md records the sources");
    let photos: Vec<&String> =
        files.keys().filter(|k| k.starts_with("images/") && k.ends_with(".png")).collect();
    assert!(!photos.is_empty(), "puzzles/images/ holds photographs");
    for key in photos {
        let name = &key["images/".len()..];
        assert!(licences.contains(&format!("`{name}`")), "LICENSES.md has a row for {name}");
        let stem = name.trim_end_matches(".png");
        let set =
            box_blur_with(&format!("{{ image = \"{stem}\", shape = [8, 8], levels = [0, 9] }}"))
                .unwrap_or_else(|p| panic!("{stem} as Box Blur's input: {p}"));
        let case = &set.puzzles.iter().find(|p| p.slug == "box-blur").expect("listed").cases[0];
        let input = case.buffers[0].initial.as_f32().expect("f32 input");
        assert_eq!(input.len(), 64, "{stem}: resized to 8 × 8");
        assert!(
            input.iter().all(|v| (0.0..=9.0).contains(v) && v.fract() == 0.0),
            "{stem}: integer levels 0..=9"
        );
        let distinct: std::collections::BTreeSet<u32> = input.iter().map(|&v| v as u32).collect();
        assert!(distinct.len() >= 3, "{stem}: a photograph, not a flat field: {input:?}");
    }
}

#[test]
fn mistakes_with_photographs_name_the_file_and_the_field() {
    let p = box_blur_with("{ image = \"no-such-photo\", shape = [8, 8] }").expect_err("refused");
    assert!(
        p.contains("box-blur/puzzle.toml")
            && p.contains("case 1 › buffers.a")
            && p.contains("no photograph `no-such-photo`")
            && p.contains("`camera`"),
        "{p}"
    );
    let p = box_blur_with("{ image = \"camera\", len = 64 }").expect_err("refused");
    assert!(p.contains("needs `shape = [rows, cols]`"), "{p}");
    // Levels 0..=255 break the promise of values in 0..=9: the promise check reads the photograph.
    let p = box_blur_with("{ image = \"camera\", shape = [8, 8] }").expect_err("refused");
    assert!(
        p.contains("case 1") && p.contains("outside the promise") && p.contains("from 0 to 9"),
        "{p}"
    );

    let mut files = shipped();
    files.insert("images/notes.txt".into(), "a stray".into());
    let p = load_puzzle_set(&files, None).map(|_| ()).expect_err("refused");
    assert!(
        p.iter().any(|x| x.to_string().contains("images/notes.txt")
            && x.to_string().contains("only photographs")),
        "{p:?}"
    );

    let mut files = shipped();
    let index = files.get_mut("index.toml").expect("index");
    *index = index.replacen("\"map\", ", "\"map\", \"images\", ", 1);
    let p = load_puzzle_set(&files, None).map(|_| ()).expect_err("refused");
    assert!(p.iter().any(|x| x.to_string().contains("folder of photographs")), "{p:?}");
}

#[test]
fn a_random_case_cannot_draw_a_photograph() {
    let mut files = shipped();
    let text = files.get_mut("box-blur/puzzle.toml").expect("Box Blur");
    let start = text.find("[generator.case]").expect("Box Blur has a generator");
    let line = text[start..].find("buffers.a = ").map(|i| start + i).expect("its input");
    let end = line + text[line..].find('\n').expect("a line");
    text.replace_range(line..end, "buffers.a = { image = \"camera\", shape = [\"=r\", \"=c\"] }");
    let p = load_puzzle_set(&files, None).map(|_| ()).expect_err("refused");
    assert!(p.iter().any(|x| x.to_string().contains("only for written cases")), "{p:?}");
}

/// The judge's worker in the page loads puzzles from an embedded copy of
/// the files, with every photograph written in as values: the puzzle it
/// loads is the one the set loads.
#[test]
fn a_set_with_its_photographs_written_in_loads_the_same_puzzles() {
    let mut files = shipped();
    let text = files.get_mut("box-blur/puzzle.toml").expect("Box Blur");
    let from =
        "buffers.a = { random = { len = 64, min = 0, max = 9, seed = 2401 }, shape = [8, 8] }";
    *text = text.replacen(
        from,
        "buffers.a = { image = \"camera\", shape = [8, 8], levels = [0, 9] }",
        1,
    );
    let resolved = gpu_puzzles_core::load::with_photographs_resolved(&files).expect("resolves");
    assert!(resolved.keys().all(|k| !k.ends_with(".png")), "the PNG files are left out");
    assert!(!resolved["box-blur/puzzle.toml"].contains("image ="), "written in as values");
    let json = |f: &Files, slug: &str| {
        let p = gpu_puzzles_core::load::load_one_puzzle(f, slug)
            .unwrap_or_else(|e| panic!("{slug} loads: {e:?}"));
        serde_json::to_string(&p).expect("serialises")
    };
    for slug in ["box-blur", "map", "jacobi"] {
        assert_eq!(json(&resolved, slug), json(&files, slug), "{slug}");
    }
    let photos: Vec<&str> = shipped()
        .iter()
        .filter(|(k, t)| k.ends_with("/puzzle.toml") && t.contains("image = \""))
        .map(|(k, _)| k.trim_end_matches("/puzzle.toml"))
        .map(|s| s.to_owned().leak() as &str)
        .collect();
    let all = gpu_puzzles_core::load::with_photographs_resolved(&shipped()).expect("resolves");
    for slug in photos {
        assert_eq!(
            json(&all, slug),
            json(&shipped(), slug),
            "{slug}, a shipped puzzle with photographs"
        );
    }
}
