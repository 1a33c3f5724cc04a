//! Where a Run's first failing finding happened in the student's code, for
//! the editor to mark as it marks compile errors.

use super::{failing_group, gist, MemoryError};
use crate::outcome::{CaseResult, Outcome};
use crate::trace::AccessKind;

fn word(kind: AccessKind) -> &'static str {
    match kind {
        AccessKind::Read => "read",
        AccessKind::Write => "write",
        AccessKind::Atomic => "atomic access",
    }
}

/// A place in the student's code that a finding names, for the editor to
/// mark as it marks compile errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FindingMark {
    /// Where: line and column, from 1, in characters.
    pub site: crate::trace::Site,
    /// The first access of a race (or the only place of any other
    /// finding); `false` for a race's second access.
    pub first: bool,
    /// What happened there, in one sentence.
    pub message: String,
}

/// The places the first failing finding of a Run names: a race's accesses
/// (every distinct line of its group, first accesses and second accesses
/// told apart), an out-of-bounds access, or a loop that never ends; the
/// first case that fails with one of these gives them. Empty when no case
/// failed that way.
pub fn finding_marks(results: &[CaseResult]) -> Vec<FindingMark> {
    for r in results {
        let mut marks: Vec<FindingMark> = Vec::new();
        let mut mark = |site: Option<crate::trace::Site>, first: bool, message: String| {
            if let Some(site) = site {
                if !marks.iter().any(|m| m.site == site && m.first == first) {
                    marks.push(FindingMark { site, first, message });
                }
            }
        };
        match &r.outcome {
            Outcome::MemoryError { error: MemoryError::Hazard(h), .. } => {
                let group = r
                    .findings
                    .as_ref()
                    .and_then(|f| failing_group(f, &MemoryError::Hazard(h.clone())));
                let what = group.as_ref().map_or_else(|| format!("race on `{}`", h.space), gist);
                let hazards = group.map_or_else(|| vec![h.clone()], |g| g.hazards);
                for h in &hazards {
                    mark(
                        h.first.site,
                        true,
                        format!("{what}: the first access, a {}", word(h.first.kind)),
                    );
                    mark(
                        h.second.site,
                        false,
                        format!("{what}: the second access, a {}", word(h.second.kind)),
                    );
                }
            }
            Outcome::MemoryError { error: MemoryError::OutOfBounds(o), .. } => {
                for a in o.first.iter().take(1) {
                    mark(
                        a.site,
                        true,
                        format!(
                            "out-of-bounds {} of `{}`: index {}, but it has {} elements",
                            word(o.kind),
                            o.space,
                            a.index,
                            o.elements
                        ),
                    );
                }
            }
            Outcome::RunawayLoop { line: Some(line), .. } => {
                mark(
                    Some(crate::trace::Site { line: *line, column: 1 }),
                    true,
                    "this loop ran past the loop budget: it may never end".into(),
                );
            }
            _ => {}
        }
        if !marks.is_empty() {
            return marks;
        }
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{Hazard, HazardAccess, HazardKind, Invocation, Site};

    #[test]
    fn a_race_marks_both_accesses_once_per_line() {
        let inv = |x| Invocation { id: x, workgroup_id: [0, 0, 0], local_invocation_id: [x, 0, 0] };
        let access = |x, line| HazardAccess {
            invocation: inv(x),
            kind: AccessKind::Write,
            site: Some(Site { line, column: 5 }),
        };
        let hazard = |a, b| Hazard {
            kind: HazardKind::WriteAfterWrite,
            space: "total".into(),
            workgroup_memory: true,
            element: Some(0),
            entry_point: "main".into(),
            dispatch: 0,
            across_workgroups: false,
            first: access(a, 16),
            second: access(b, 16),
        };
        let findings = crate::trace::Findings {
            hazards: vec![hazard(0, 1), hazard(1, 2)],
            hazard_total: 2,
            ..Default::default()
        };
        let error = MemoryError::Hazard(hazard(0, 1));
        let r = CaseResult {
            case: 1,
            hidden: false,
            outcome: Outcome::MemoryError { message: String::new(), error },
            actual: vec![],
            warnings: vec![],
            timing: Default::default(),
            instrumented_timing: None,
            findings: Some(findings),
            instrumentation: None,
            reference_timing: None,
            comparison_timings: vec![],
            cpu_ms: None,
        };
        let marks = finding_marks(&[r]);
        assert_eq!(marks.len(), 2, "{marks:?}");
        assert!(marks[0].first && !marks[1].first);
        assert!(marks[0].message.starts_with("write conflict on `total`"), "{}", marks[0].message);
        assert_eq!(marks[0].site, Site { line: 16, column: 5 });
    }
}
