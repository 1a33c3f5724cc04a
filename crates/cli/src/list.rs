//! `gpu-puzzles list` and `gpu-puzzles export`: the puzzle set as a
//! listing for people and as data for other tools.

use anyhow::Result;
use gpu_puzzles_core::PuzzleSet;
use serde::Serialize;
use std::io::Write;

/// The puzzle set as plain JSON data.
pub(crate) fn export(set: &PuzzleSet) -> serde_json::Value {
    use serde_json::json;
    let puzzles: Vec<_> = set
        .puzzles
        .iter()
        .map(|p| {
            let cases: Vec<_> = p
                .cases
                .iter()
                .map(|c| {
                    let buffers: Vec<_> = p
                        .buffers
                        .iter()
                        .zip(&c.buffers)
                        .map(|(b, cb)| {
                            // Performance cases hold millions of elements: their
                            // data stays out of the export (`null`).
                            let data: Option<Vec<f64>> = (!c.is_performance()).then(|| (0..cb.initial.len()).map(|i| cb.initial.get(i)).collect());
                            json!({ "name": b.name, "binding": b.binding, "type": b.element.wgsl(), "role": format!("{:?}", b.role), "data": data })
                        })
                        .collect();
                    let uniforms: Vec<_> =
                        p.uniforms.iter().zip(&c.uniforms).map(|(u, bytes)| json!({ "name": u.name, "binding": u.binding, "bytes": bytes })).collect();
                    json!({
                        "case": c.number,
                        "workgroupSize": c.config.workgroup_size,
                        "workgroups": c.config.workgroups,
                        "smemSize": c.config.workgroup_memory_elements(),
                        "buffers": buffers,
                        "uniforms": uniforms,
                        "performance": c.performance.map(|p| json!({ "flops": p.flops, "bytes": p.bytes })),
                    })
                })
                .collect();
            json!({ "number": p.number, "slug": p.slug, "title": p.title, "entryPoints": p.entry_points, "solution": p.solution, "cases": cases })
        })
        .collect();
    json!({ "puzzles": puzzles })
}

/// Every puzzle's number, slug and title under its chapter, or the same
/// rows as JSON with `json`.
pub(crate) fn list(set: &PuzzleSet, json: bool) -> Result<()> {
    #[derive(Serialize)]
    struct Row<'a> {
        number: usize,
        slug: &'a str,
        title: &'a str,
        /// The chapter's title; absent for a set without chapters.
        #[serde(skip_serializing_if = "Option::is_none")]
        chapter: Option<&'a str>,
        cases: usize,
        hidden: usize,
    }
    let rows: Vec<Row> = set
        .puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| Row {
            number: p.number,
            slug: &p.slug,
            title: &p.title,
            chapter: set.chapter_of(i).map(|c| c.title.as_str()),
            cases: p.cases.len(),
            hidden: p.cases.iter().filter(|c| c.hidden).count(),
        })
        .collect();
    if json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        // Written line by line; a reader that stops early (`| head`) ends the
        // listing quietly.
        let mut out = std::io::stdout().lock();
        let written = rows.iter().enumerate().try_for_each(|(i, r)| {
            if let Some(c) = set.chapters.iter().find(|c| c.first == i) {
                writeln!(out, "{}{} ({} puzzles)", if i == 0 { "" } else { "\n" }, c.title, c.len)?;
            }
            writeln!(out, "{:>3}  {:<22} {}", r.number, r.slug, r.title)
        });
        match written {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e.into()),
            _ => {}
        }
    }
    Ok(())
}
