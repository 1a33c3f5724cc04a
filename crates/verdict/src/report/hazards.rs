//! Racecheck hazards grouped by what the student wrote, each group told as
//! one finding with advice that fits it.
//!
//! The racecheck reports pairs of accesses; a beginner's mistake makes many
//! pairs at once (every invocation of `out[0] += x` races with every other).
//! Hazards on the same variable, at the same source lines, in the same
//! dispatch, and either all within workgroups or all across them, are one
//! mistake: [`group_hazards`] puts them together and [`HazardPattern`] names
//! the mistake, so [`hazard_group`] can say it once, in the student's terms.

use super::{at, verb};
use crate::trace::{Hazard, HazardKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// The mistake a group of hazards shows, recognised from the kinds of its
/// hazards and the lines of their accesses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HazardPattern {
    /// Invocations read and write the same element at one line, with write
    /// conflicts among them: a read-modify-write such as `out[0] += x` by
    /// many invocations, which loses updates. No barrier fixes it.
    LostUpdate,
    /// Invocations write the same element with nothing else racing (at one
    /// line or two): only one value survives.
    WriteConflict,
    /// One line both reads an element and writes one that other invocations
    /// read there, with no element written twice: a neighbour's value read
    /// while the neighbour updates it, as in a scan step
    /// `smem[i] = smem[i] + smem[i - d]`.
    NeighbourRead,
    /// A write at one line and a read at another in the same workgroup with
    /// no barrier between them: the missing barrier between two phases.
    MissingBarrier,
    /// Accesses in different workgroups of one dispatch, which no barrier
    /// orders.
    AcrossWorkgroups,
}

/// Hazards that are one mistake: the same variable, lines, dispatch and
/// scope (within or across workgroups).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HazardGroup {
    /// What the mistake is.
    pub pattern: HazardPattern,
    /// The group's hazards, in the order the racecheck listed them; the
    /// first is the example the finding shows.
    pub hazards: Vec<Hazard>,
}

impl HazardGroup {
    /// The example hazard (the first listed).
    pub fn example(&self) -> &Hazard {
        &self.hazards[0]
    }

    /// The distinct elements involved, in ascending order (`None` for a
    /// variable that is not an array).
    pub fn elements(&self) -> BTreeSet<Option<u32>> {
        self.hazards.iter().map(|h| h.element).collect()
    }

    /// The distinct invocations involved, by their number in the dispatch,
    /// with their `workgroup_id`s.
    pub fn invocations(&self) -> std::collections::BTreeMap<u32, [u32; 3]> {
        self.hazards
            .iter()
            .flat_map(|h| [&h.first.invocation, &h.second.invocation])
            .map(|i| (i.id, i.workgroup_id))
            .collect()
    }

    /// The distinct lines of its accesses, ascending (`None` where a line is
    /// not known).
    pub fn lines(&self) -> BTreeSet<Option<usize>> {
        self.hazards
            .iter()
            .flat_map(|h| [h.first.site.map(|s| s.line), h.second.site.map(|s| s.line)])
            .collect()
    }
}

/// What makes two hazards the same mistake.
fn key(h: &Hazard) -> (&str, bool, &str, bool, BTreeSet<Option<usize>>) {
    let lines = [h.first.site.map(|s| s.line), h.second.site.map(|s| s.line)].into_iter().collect();
    (h.space.as_str(), h.workgroup_memory, h.entry_point.as_str(), h.across_workgroups, lines)
}

/// Groups hazards by what the student wrote (variable, lines, dispatch,
/// within or across workgroups), in the order of each group's first hazard,
/// and names each group's pattern.
pub fn group_hazards(hazards: &[Hazard]) -> Vec<HazardGroup> {
    let mut groups: Vec<Vec<Hazard>> = Vec::new();
    for h in hazards {
        match groups.iter_mut().find(|g| key(&g[0]) == key(h)) {
            Some(g) => g.push(h.clone()),
            None => groups.push(vec![h.clone()]),
        }
    }
    groups.into_iter().map(|hazards| HazardGroup { pattern: pattern(&hazards), hazards }).collect()
}

fn pattern(hazards: &[Hazard]) -> HazardPattern {
    let one_line = key(&hazards[0]).4.len() == 1;
    let conflicts = hazards.iter().any(|h| h.kind == HazardKind::WriteAfterWrite);
    let reads = hazards.iter().any(|h| h.kind != HazardKind::WriteAfterWrite);
    match (one_line, conflicts, reads) {
        (true, true, true) => HazardPattern::LostUpdate,
        _ if hazards[0].across_workgroups => HazardPattern::AcrossWorkgroups,
        (_, true, false) => HazardPattern::WriteConflict,
        (true, false, _) => HazardPattern::NeighbourRead,
        _ => HazardPattern::MissingBarrier,
    }
}

/// `out[3]`; `smem[1]` and `smem[2]`; or the first two elements and how
/// many more: `bins[0]`, `bins[1]` and 4 more elements of `bins`.
fn elements(g: &HazardGroup) -> String {
    let space = &g.example().space;
    let all: Vec<u32> = g.elements().into_iter().flatten().collect();
    match all.as_slice() {
        [] => format!("`{space}`"),
        [e] => format!("`{space}[{e}]`"),
        [first @ .., last] if all.len() <= 4 => {
            let list: Vec<String> = first.iter().map(|e| format!("`{space}[{e}]`")).collect();
            format!("{} and `{space}[{last}]`", list.join(", "))
        }
        [a, b, rest @ ..] => {
            format!("`{space}[{a}]`, `{space}[{b}]` and {} more elements of `{space}`", rest.len())
        }
    }
}

/// How to refer back to the elements: "it" or "them".
fn pronoun(g: &HazardGroup) -> &'static str {
    if g.elements().len() > 1 {
        "them"
    } else {
        "it"
    }
}

/// "8 invocations of workgroup (0, 0, 0)" or "12 invocations in 3 workgroups".
fn who(g: &HazardGroup, more: bool) -> String {
    let invocations = g.invocations();
    let workgroups: BTreeSet<[u32; 3]> = invocations.values().copied().collect();
    let least = if more { "at least " } else { "" };
    match workgroups.iter().next() {
        Some([x, y, z]) if workgroups.len() == 1 => {
            format!("{least}{} invocations of workgroup ({x}, {y}, {z})", invocations.len())
        }
        _ => format!("{least}{} invocations in {} workgroups", invocations.len(), workgroups.len()),
    }
}

/// "at line 9", "at lines 12 and 14", or where no line is known, what the
/// access was.
fn lines(g: &HazardGroup) -> String {
    let known: Vec<usize> = g.lines().into_iter().flatten().collect();
    match known.as_slice() {
        [] => " (at no line of the shader: an access the compiler added, such as workgroup memory's zero initialisation)".to_string(),
        [l] => format!(" at line {l}"),
        [a, b] => format!(" at lines {a} and {b}"),
        many => format!(" at lines {}", many.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")),
    }
}

/// One pair of the group, naming the element: "For example, the invocation
/// with … wrote `out[0]` at line 9, and the invocation with … read it at
/// line 9."
fn example(h: &Hazard) -> String {
    let element = match h.element {
        Some(e) => format!("`{}[{e}]`", h.space),
        None => format!("`{}`", h.space),
    };
    let side = |a: &crate::trace::HazardAccess, what: &str| {
        format!(
            "the invocation with {} {} {what}{}",
            a.invocation.describe(),
            verb(a.kind),
            at(a.site)
        )
    };
    format!("For example, {}, and {}.", side(&h.first, &element), side(&h.second, "it"))
}

fn barrier(h: &Hazard) -> &'static str {
    if h.workgroup_memory {
        "workgroupBarrier()"
    } else {
        "storageBarrier()"
    }
}

/// The finding for a group of hazards: what the student did, in one
/// sentence with the variable, the lines and how many invocations, then one
/// example pair, then the advice that fits the pattern. `more` says the
/// racecheck found more hazards than it listed (so the counts are lower
/// bounds).
pub fn hazard_group(g: &HazardGroup, more: bool) -> String {
    let h = g.example();
    let memory = if h.workgroup_memory { "workgroup memory" } else { "a storage buffer" };
    let at_lines = lines(g);
    let what = elements(g);
    let it = pronoun(g);
    let head = match g.pattern {
        HazardPattern::LostUpdate => format!(
            "lost update: {what} ({memory}): {} read and write {it}{at_lines} at the same time, so one invocation's update can overwrite another's and be lost.",
            who(g, more)
        ),
        HazardPattern::WriteConflict => {
            format!("write conflict: {what} ({memory}): {} write {it}{at_lines} with nothing ordering them, so only one value survives, and which one depends on the GPU.", who(g, more))
        }
        HazardPattern::NeighbourRead => format!(
            "{}: {what} ({memory}): {} read elements{at_lines} that other invocations write at the same line, with no `{}` between the read and the write, so a read may see the old value or the new one.",
            kind_name(h.kind),
            who(g, more),
            barrier(h)
        ),
        HazardPattern::MissingBarrier => {
            let (w, r) = match h.kind {
                HazardKind::ReadAfterWrite => (h.first.site, h.second.site),
                _ => (h.second.site, h.first.site),
            };
            let order = match h.kind {
                HazardKind::ReadAfterWrite => format!("an invocation writes an element{} and another reads the same element{}", at(w), at(r)),
                _ => format!("an invocation reads an element{} and another then overwrites it{}", at(r), at(w)),
            };
            format!("{}: {what} ({memory}): {order}, with no `{}` between them, so the read may see the value from before or after the write ({} take part).", kind_name(h.kind), barrier(h), who(g, more))
        }
        HazardPattern::AcrossWorkgroups => format!(
            "{}: {what} ({memory}): invocations in different workgroups of one dispatch of `{}` access {it}{at_lines}, and some write ({} take part). Nothing orders workgroups within a dispatch (no barrier reaches across them), so on another GPU or another run the order changes.",
            kind_name(h.kind),
            h.entry_point,
            who(g, more)
        ),
    };
    let advice = match g.pattern {
        HazardPattern::LostUpdate => {
            " No barrier fixes this. Let each invocation write its own element and add them up afterwards (a reduction, as in Tree Reduction), or use `atomicAdd` on an `atomic<u32>` or `atomic<i32>` (WGSL has no atomic f32)."
                .to_string()
        }
        HazardPattern::WriteConflict => " Let exactly one invocation write each element (guard the write, e.g. with `if (local_id.x == 0u)`), or combine the values with atomics.".to_string(),
        HazardPattern::NeighbourRead => format!(
            " Read the neighbour's value into a local variable, then `{b}`, then write, then `{b}` again before the next step: every invocation must reach both barriers.",
            b = barrier(h)
        ),
        HazardPattern::MissingBarrier => format!(
            " Put a `{}` between the two lines, where every invocation of the workgroup reaches it (not inside an `if` that only some take).",
            barrier(h)
        ),
        HazardPattern::AcrossWorkgroups => " Pass values between workgroups through a second dispatch (another entry point), or use atomics.".to_string(),
    };
    format!("{head} {}{advice}", example(h))
}

/// The group in a few words, the same in every case where the student's
/// mistake shows: the pattern, the variable and the lines, e.g.
/// ``lost update on `out` at line 9``.
pub fn gist(g: &HazardGroup) -> String {
    let name = match g.pattern {
        HazardPattern::LostUpdate => "lost update",
        HazardPattern::WriteConflict => "write conflict",
        HazardPattern::AcrossWorkgroups => "race across workgroups",
        _ => kind_name(g.example().kind),
    };
    format!("{name} on `{}`{}", g.example().space, lines(g))
}

fn kind_name(kind: HazardKind) -> &'static str {
    match kind {
        HazardKind::WriteAfterWrite => "write conflict",
        HazardKind::ReadAfterWrite => "read-after-write race",
        HazardKind::WriteAfterRead => "write-after-read race",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{invocation_in_workgroup, HazardAccess, Site};
    use gpu_puzzles_core::CaseConfig;

    const CONFIG: CaseConfig =
        CaseConfig { workgroup_size: [4, 1, 1], workgroups: [2, 1, 1], workgroup_memory: None };

    /// A hazard of `kind` on `space[element]` between local invocations
    /// `a` (at `lines.0`) and `b` (at `lines.1`), of workgroups `wa` and `wb`.
    fn hazard(
        kind: HazardKind,
        space: &str,
        element: u32,
        (a, wa, la): (u32, u32, usize),
        (b, wb, lb): (u32, u32, usize),
    ) -> Hazard {
        let (ka, kb) = kind.accesses();
        let side = |local, wg, kind, line| HazardAccess {
            invocation: invocation_in_workgroup(wg, local, &CONFIG),
            kind,
            site: Some(Site { line, column: 5 }),
        };
        Hazard {
            kind,
            space: space.into(),
            workgroup_memory: space == "smem",
            element: Some(element),
            entry_point: "main".into(),
            dispatch: 0,
            across_workgroups: wa != wb,
            first: side(a, wa, ka, la),
            second: side(b, wb, kb, lb),
        }
    }

    #[test]
    fn each_mistake_is_one_finding_with_its_own_advice() {
        use HazardKind::{ReadAfterWrite as Raw, WriteAfterRead as War, WriteAfterWrite as Waw};
        let cases: Vec<(&str, Vec<Hazard>, HazardPattern)> = vec![
            // `out[0] += a[i]` by every invocation: conflicts and reads at one line.
            (
                "accumulation into one element",
                vec![
                    hazard(Waw, "out", 0, (0, 0, 9), (1, 0, 9)),
                    hazard(Waw, "out", 0, (1, 0, 9), (2, 0, 9)),
                    hazard(War, "out", 0, (3, 0, 9), (0, 0, 9)),
                ],
                HazardPattern::LostUpdate,
            ),
            // `if (true) { total = x; }` by every invocation.
            (
                "two writers",
                vec![
                    hazard(Waw, "smem", 0, (0, 0, 16), (1, 0, 16)),
                    hazard(Waw, "smem", 0, (1, 0, 16), (2, 0, 16)),
                ],
                HazardPattern::WriteConflict,
            ),
            // `smem[i] = smem[i] + smem[i - d]` with no barrier inside the step.
            (
                "a scan's neighbour read",
                vec![
                    hazard(Raw, "smem", 1, (1, 0, 12), (2, 0, 12)),
                    hazard(War, "smem", 2, (3, 0, 12), (2, 0, 12)),
                ],
                HazardPattern::NeighbourRead,
            ),
            // Products stored at line 12, summed at line 14, no barrier.
            (
                "a missing barrier between phases",
                vec![
                    hazard(Raw, "smem", 3, (3, 0, 12), (0, 0, 14)),
                    hazard(Raw, "smem", 2, (2, 0, 12), (0, 0, 14)),
                ],
                HazardPattern::MissingBarrier,
            ),
            // Block sums written by one workgroup and read by the next, one dispatch.
            (
                "a race across workgroups",
                vec![hazard(Raw, "block_sums", 0, (3, 0, 20), (0, 1, 25))],
                HazardPattern::AcrossWorkgroups,
            ),
        ];
        let mut text = String::new();
        for (name, hazards, want) in cases {
            let groups = group_hazards(&hazards);
            assert_eq!(groups.len(), 1, "{name}: {groups:?}");
            assert_eq!(groups[0].pattern, want, "{name}");
            text +=
                &format!("{name} ({})\n{}\n\n", gist(&groups[0]), hazard_group(&groups[0], false));
        }
        crate::report::snapshot("hazard_groups", &text);
    }

    #[test]
    fn different_lines_or_variables_are_different_findings() {
        let hazards = [
            hazard(HazardKind::ReadAfterWrite, "smem", 3, (3, 0, 12), (0, 0, 14)),
            hazard(HazardKind::ReadAfterWrite, "smem", 3, (3, 0, 20), (0, 0, 22)),
            hazard(HazardKind::ReadAfterWrite, "out", 3, (3, 0, 12), (0, 0, 14)),
            hazard(HazardKind::ReadAfterWrite, "smem", 1, (1, 0, 12), (0, 0, 14)),
        ];
        let groups = group_hazards(&hazards);
        assert_eq!(groups.iter().map(|g| g.hazards.len()).collect::<Vec<_>>(), [2, 1, 1]);
        assert_eq!(groups[0].elements().len(), 2);
        assert!(
            hazard_group(&groups[0], true)
                .contains("at least 3 invocations of workgroup (0, 0, 0)"),
            "{}",
            hazard_group(&groups[0], true)
        );
    }
}
