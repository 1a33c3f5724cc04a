//! The failing cases' findings across a Run: the verdict bar's distinct
//! findings, and a mistake repeated in later cases told in full once.

use super::{CaseReport, CaseStatus, NoteKind};

/// The failing cases' findings for the verdict bar: each failing case's
/// summary under its title, a mistake repeated in later cases (the same
/// [`CaseReport::finding`], or the same summary) once; a memory error or
/// runaway loop before wrong values, since it explains them.
pub(super) fn distinct_findings(cases: &[CaseReport]) -> Vec<String> {
    let mut seen: Vec<(&Option<String>, &str)> = Vec::new();
    let mut out: Vec<(bool, String)> = Vec::new();
    for c in cases.iter().filter(|c| c.status == CaseStatus::Failed) {
        let Some(summary) = c.summary.as_deref() else { continue };
        if seen.iter().any(|(f, s)| (c.finding.is_some() && *f == &c.finding) || *s == summary) {
            continue;
        }
        seen.push((&c.finding, summary));
        let serious =
            matches!(c.outcome, "memory-error" | "runaway-loop" | "compile-error" | "config-error");
        out.push((!serious, format!("{}: {summary}", c.title)));
    }
    // Stable: cases keep their order within each rank.
    out.sort_by_key(|(rank, _)| *rank);
    out.into_iter().map(|(_, s)| s).collect()
}

/// A race that fails several cases is told in full in the first; each later
/// case says it in a few words and points back, and the first names them all.
pub(super) fn say_repeated_findings_once(cases: &mut [CaseReport]) {
    // (gist, the first case's index, the later cases' titles)
    let mut firsts: Vec<(String, usize, Vec<String>)> = Vec::new();
    for i in 0..cases.len() {
        let Some(gist) = cases[i].finding.clone() else { continue };
        match firsts.iter_mut().find(|(g, _, _)| *g == gist) {
            Some((_, first, later)) => {
                let first_title = cases[*first].title.clone();
                later.push(cases[i].title.clone());
                cases[i].summary = Some(format!("{gist}: the same mistake as in {first_title}, where the finding is told in full."));
            }
            None => firsts.push((gist, i, Vec::new())),
        }
    }
    // The other findings of a case ("also: …") once too: a later case's is
    // shortened to its kind and variable when an earlier case said it.
    let mut said: Vec<(String, String)> = Vec::new();
    for c in cases.iter_mut() {
        for n in c.notes.iter_mut().filter(|n| n.kind == NoteKind::Finding) {
            let Some(key) = finding_key(&n.text) else { continue };
            match said.iter().find(|(k, _)| *k == key) {
                Some((_, title)) => n.text = format!("{key}: as in {title}."),
                None => said.push((key, c.title.clone())),
            }
        }
    }
    for (_, first, later) in firsts.into_iter().filter(|(_, _, l)| !l.is_empty()) {
        if let Some(s) = &mut cases[first].summary {
            let n = later.len();
            s.push_str(&format!(
                " The same mistake fails {n} more case{}: {}.",
                if n == 1 { "" } else { "s" },
                later.join(", ")
            ));
        }
    }
}

/// What an "also:" finding is about, for telling a repeated one: its label,
/// kind and the variable it names without indices ("also: read-after-write
/// race on `w`"); `None` for other notes.
fn finding_key(text: &str) -> Option<String> {
    let rest = text.strip_prefix("also: ")?;
    let (kind, after) = rest.split_once(": ")?;
    let name = after.strip_prefix('`')?.split(['`', '[', '.']).next()?;
    Some(format!("also: {kind} on `{name}`"))
}
