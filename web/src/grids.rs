//! Grids of numbers: a buffer's values in rows, as an HTML table a screen
//! reader can walk (row and column headers, the wrong cells named in
//! words as well as marked), in a focusable scroll region.

use gpu_puzzles_verdict::grid::Grid;
use leptos::prelude::*;

/// A grid's header row and rows as markup (see [`gpu_puzzles_core::markup`]): per
/// cell `<td data-value data-index title>`, class `mismatch` where the
/// value differs from the expected one.
fn grid_rows(
    rows: &[Vec<gpu_puzzles_verdict::grid::Cell>],
    matrix: bool,
    cols: usize,
    (first_row, first_col): (usize, usize),
) -> String {
    use gpu_puzzles_core::markup::element;
    let mut out = String::with_capacity(rows.iter().map(Vec::len).sum::<usize>() * 64);
    if matrix {
        out.push_str("<thead><tr><th></th>");
        for c in first_col..first_col + cols {
            element(&mut out, "th", &[("scope", "col")], Some(&c.to_string()));
        }
        out.push_str("</tr></thead>");
    }
    out.push_str("<tbody>");
    for (r, row) in rows.iter().enumerate() {
        let head = if matrix {
            (first_row + r).to_string()
        } else {
            row.first().map(|c| c.index.to_string()).unwrap_or_default()
        };
        out.push_str("<tr>");
        element(&mut out, "th", &[("scope", "row")], Some(&head));
        for cell in row {
            let title = match &cell.expected {
                Some(e) => format!("[{}] expected {e}, got {}", cell.index, cell.text),
                None => format!("[{}] = {}", cell.index, cell.text),
            };
            let index = cell.index.to_string();
            let mut attributes = vec![
                ("data-value", cell.text.as_str()),
                ("data-index", index.as_str()),
                ("title", title.as_str()),
            ];
            // A wrong cell says so in words too, for a screen reader (its
            // colour and outline are only seen).
            let spoken =
                cell.expected.as_ref().map(|e| format!("{}, wrong: expected {e}", cell.text));
            if let Some(spoken) = &spoken {
                attributes.insert(0, ("class", "mismatch"));
                attributes.push(("aria-label", spoken.as_str()));
            }
            element(&mut out, "td", &attributes, Some(&cell.text));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody>");
    out
}

/// A grid of numbers: a `<figure>` named `testid`, its caption (`label`,
/// the shape, the mismatches) and the table.
pub(crate) fn grid_view(testid: String, label: String, g: Grid) -> impl IntoView {
    let caption = format!("{label} · {}", g.label);
    let mismatches = g.mismatches;
    let note = g.truncated().then(|| {
        format!(
            "showing the first {} of {} elements",
            g.rows.iter().map(Vec::len).sum::<usize>(),
            g.len
        )
    });
    let matrix = g.matrix;
    let cols = g.cols;
    let region = format!("{label}, scrollable");
    let origin = g.origin;
    view! {
        <figure class="grid" data-testid=testid>
            <figcaption>
                {caption}
                {(mismatches > 0).then(|| view! { <span class="mismatch-count">{format!(" · {mismatches} differ")}</span> })}
            </figcaption>
            // Focusable, so that a keyboard can scroll a grid wider than
            // the page (WCAG 2.1.1; axe's scrollable-region-focusable).
            <div class="grid-scroll" tabindex="0" role="region" aria-label=region>
                <table role="grid" aria-label=label inner_html=grid_rows(&g.rows, matrix, cols, origin)></table>
            </div>
            {note.map(|n| view! { <p class="truncated">{n}</p> })}
        </figure>
    }
}
