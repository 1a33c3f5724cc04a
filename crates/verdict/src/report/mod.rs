//! Where findings become words: the one place that says what a memory check
//! found, where, why it matters on other devices, and what to try. The page
//! and the command-line tool show these sentences; the data stays in
//! [`crate::trace::Findings`] (and the CLI's JSON).

use crate::trace::{
    AccessKind, Findings, Hazard, HazardAccess, HazardKind, MemoryKind, OutOfBounds, Site,
    LOOP_BUDGET,
};
use serde::{Deserialize, Serialize};

mod hazards;

pub use crate::outcome::{MemoryError, OrderDependent, SubgroupSizeDependent};
pub use hazards::{gist, group_hazards, hazard_group, HazardGroup, HazardPattern};
mod marks;
pub use marks::{finding_marks, FindingMark};

/// The sentence for a result that depends on the subgroup size: the two
/// sizes, the element, and what to try.
pub fn subgroup_size_dependent(s: &SubgroupSizeDependent) -> String {
    let list = |right: bool| {
        let sizes: Vec<String> =
            s.tried.iter().filter(|t| t.1 == right).map(|t| t.0.to_string()).collect();
        match sizes.as_slice() {
            [] => String::new(),
            [one] => one.clone(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
        }
    };
    format!(
        "your result depends on the subgroup size: it is right with {}-lane subgroups but wrong with {}-lane ones ({}[{}] is {}, expected {}). Right with {} lanes, wrong with {}. GPUs run subgroups of 4 to 128 lanes (NVIDIA 32, AMD 32 or 64, Intel 8 to 32, phones 4 to 128): read `subgroup_size` instead of assuming a size, and let a last, partly filled subgroup count only its own lanes.",
        s.right,
        s.wrong,
        s.buffer,
        s.index,
        s.got,
        s.expected,
        list(true),
        list(false)
    )
}

/// The sentence for an order-dependent result: the element, its two values
/// and orders, and what to try.
pub fn order_dependent(o: &OrderDependent) -> String {
    if o.bits {
        return format!(
            "the result's bits depend on the order its values were added in: {}[{}] is {} when {}, but {} when {}. This puzzle asks for the same bits on every Run. Floating-point addition rounds, so (a + b) + c and (a + c) + b can differ in the last bit: a sum through atomics (a compare-and-swap loop on the bits) adds in whatever order invocations and workgroups get there. Combine the values in an order fixed by their indices: a tree in workgroup memory for a workgroup's values, and the workgroups' partial sums in index order in a later entry point.",
            o.buffer, o.index, o.first.1, o.first.0, o.second.1, o.second.0
        );
    }
    format!(
        "the result depends on the order the GPU runs invocations in: {}[{}] is {} when {}, but {} when {}. Some invocations read or write memory that others write, with nothing ordering them; find which, and order them with `workgroupBarrier()`, an atomic, or by giving each invocation its own elements.",
        o.buffer, o.index, o.first.1, o.first.0, o.second.1, o.second.0
    )
}

/// How serious an item of the findings list is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Fails the case.
    Error,
    /// Worth knowing; does not fail the case.
    Note,
}

/// The sentence for a configuration problem: what is wrong, the limit by
/// its WebGPU name, and what to try.
pub fn config_problem(p: &crate::outcome::ConfigProblem) -> String {
    use crate::outcome::ConfigProblem as P;
    const AXES: [&str; 3] = ["x", "y", "z"];
    match p {
        P::WorkgroupSize { axis, size, max } => format!(
            "workgroup size {} = {size} is above this device's limit of {max} (maxComputeWorkgroupSize{}); use a smaller workgroup and more workgroups",
            AXES[*axis],
            AXES[*axis].to_uppercase()
        ),
        P::InvocationsPerWorkgroup { workgroup_size: [x, y, z], max } => format!(
            "a workgroup of {x} × {y} × {z} = {} invocations is above this device's limit of {max} (maxComputeInvocationsPerWorkgroup)",
            *x as u64 * *y as u64 * *z as u64
        ),
        P::Workgroups { axis, count, max } => format!(
            "{count} workgroups along {} is above this device's limit of {max} (maxComputeWorkgroupsPerDimension); give each workgroup more work",
            AXES[*axis]
        ),
        P::CaseWorkgroupMemory { elements, max } => format!(
            "workgroup memory of {elements} elements ({} bytes) is above this device's limit of {max} bytes (maxComputeWorkgroupStorageSize)",
            elements * 4
        ),
        P::ShaderWorkgroupMemory { bytes, max } => format!(
            "the shader declares {bytes} bytes of workgroup memory (`var<workgroup>`), above the {max} bytes WebGPU guarantees (maxComputeWorkgroupStorageSize); size the arrays with {{{{smemSize}}}} or keep less per workgroup"
        ),
        P::StorageBuffers { count, max } => {
            format!("the puzzle binds {count} storage buffers but this device allows {max} (maxStorageBuffersPerShaderStage)")
        }
        P::BufferSize { buffer, bytes, max } => {
            format!("buffer `{buffer}` needs {bytes} bytes, above this device's limit of {max} bytes (maxStorageBufferBindingSize)")
        }
        P::NotGroupZero { group, binding } => format!("`@group({group}) @binding({binding})`: this puzzle binds everything in `@group(0)`"),
        P::UnknownBinding { binding, known } => {
            let known: Vec<String> = known.iter().map(|(name, b)| format!("`{name}` = {b}")).collect();
            format!("`@binding({binding})` is not one of this puzzle's bindings ({}); check the numbers in your declarations", known.join(", "))
        }
        P::UniformForStorage { binding, buffer } => format!(
            "binding {binding} (`{buffer}`) is a storage buffer: declare it `var<storage, read>` or `var<storage, read_write>`, not `var<uniform>`"
        ),
    }
}

/// The sentence for an access budget a run went past: which, by how much,
/// where, and what to try.
pub fn budget_exceeded(b: &crate::outcome::BudgetExceeded) -> String {
    use crate::outcome::BudgetExceeded as B;
    // "64", or "100 (`(wgs_x + 2) * (wgs_y + 2)` for this case)".
    let allowed = |limit: &u32, rule: &Option<String>| match rule {
        Some(r) => format!("{limit} (`{r}` for this case)"),
        None => limit.to_string(),
    };
    match b {
        B::ReadsPerInvocation { invocation, reads, limit, rule } => format!(
            "over budget: the invocation with {} read storage buffers {reads} times, and this puzzle allows {} per invocation. Every storage read is a trip to device memory; read each input once and keep it in a variable or in workgroup memory.",
            invocation.describe(),
            allowed(limit, rule)
        ),
        B::ReadsPerWorkgroup { workgroup: [x, y, z], reads, limit, rule } => format!(
            "over budget: workgroup ({x}, {y}, {z}) read storage buffers {reads} times, all its invocations together, and this puzzle allows {} per workgroup. Invocations that need the same element should not each read it from device memory: load each element the workgroup needs once into workgroup memory, `workgroupBarrier()`, and let every invocation read it from there.",
            allowed(limit, rule)
        ),
        B::WritesPerWorkgroup { workgroup: [x, y, z], writes, limit, rule } => format!(
            "over budget: workgroup ({x}, {y}, {z}) wrote storage buffers {writes} times, and this puzzle allows {} per workgroup. Combine the partial results in workgroup memory first, then let one invocation write the workgroup's result.",
            allowed(limit, rule)
        ),
        B::Barriers { invocation, barriers, limit, rule } => format!(
            "over budget: the invocation with {} waited at {barriers} barriers, as did the rest of its workgroup, and this puzzle allows {}. Each barrier stops the whole workgroup until its slowest invocation arrives. Find the barrier that guards nothing here: with two halves of workgroup memory, the barrier after the copy also ends the reads of the half the next copy overwrites.",
            invocation.describe(),
            allowed(limit, rule)
        ),
    }
}

/// The memory error that fails a case, if any, in order of precedence:
/// out-of-bounds writes and atomics, hazards ([`leading_hazard`]),
/// out-of-bounds reads. (A runaway loop is reported before all of them, as
/// its own outcome.)
pub fn memory_error(findings: &Findings) -> Option<MemoryError> {
    let oob = |kind| findings.out_of_bounds_of(kind).next().cloned().map(MemoryError::OutOfBounds);
    oob(AccessKind::Write)
        .or_else(|| oob(AccessKind::Atomic))
        .or_else(|| leading_hazard(&findings.hazards).cloned().map(MemoryError::Hazard))
        .or_else(|| oob(AccessKind::Read))
}

/// The hazard most likely to be the cause of the others, which the verdict
/// leads with: one in the earliest dispatch that has any (what later
/// dispatches read may be its consequence); in it, a hazard between
/// workgroups on a variable with no write conflict in that dispatch; else
/// the first listed (write conflicts come first in [`Findings::hazards`]).
///
/// A hazard between workgroups lets a workgroup read values that depend on
/// the order workgroups ran in, so anything it computes from them, a write
/// conflict among its own invocations included, may be the consequence,
/// different from run to run. When the same variable also has write
/// conflicts (`bins[k] += 1` in every workgroup) they are one mistake, which
/// the write conflict tells better.
pub fn leading_hazard(hazards: &[Hazard]) -> Option<&Hazard> {
    let first = hazards.iter().map(|h| h.dispatch).min()?;
    let in_first = || hazards.iter().filter(move |h| h.dispatch == first);
    let conflicted = |h: &Hazard| {
        in_first().any(|c| {
            c.kind == HazardKind::WriteAfterWrite
                && c.space == h.space
                && c.workgroup_memory == h.workgroup_memory
        })
    };
    in_first().find(|h| h.across_workgroups && !conflicted(h)).or_else(|| in_first().next())
}

pub(super) fn at(site: Option<Site>) -> String {
    site.map(|s| format!(" at line {}", s.line)).unwrap_or_default()
}

pub(super) fn verb(kind: AccessKind) -> &'static str {
    match kind {
        AccessKind::Read => "read",
        AccessKind::Write => "wrote",
        AccessKind::Atomic => "accessed atomically",
    }
}

/// The sentence for an out-of-bounds group: the first access, the count,
/// why it went unnoticed here and what to try.
pub fn out_of_bounds(o: &OutOfBounds) -> String {
    let what = match o.kind {
        AccessKind::Read => "read",
        AccessKind::Write => "write",
        AccessKind::Atomic => "atomic access",
    };
    let first = o.first.first();
    let (who, index, line) = match first {
        Some(a) => (
            format!("the invocation with {}", a.invocation.describe()),
            a.index.to_string(),
            at(a.site),
        ),
        None => ("an invocation".to_string(), "…".to_string(), String::new()),
    };
    let many =
        if o.total > 1 { format!(" ({} such accesses in all)", o.total) } else { String::new() };
    let noun = o.memory.noun();
    let head = if o.space.is_empty() {
        format!("out-of-bounds {what}{line}: {who} {} element {index} of an unnamed {noun}, which has {} elements{many}.", verb(o.kind), o.elements)
    } else {
        format!("out-of-bounds {what}{line}: {who} {} `{}[{index}]`, but the {noun} `{}` has {} elements{many}.", verb(o.kind), o.space, o.space, o.elements)
    };
    let named = if o.space.is_empty() { format!("the {noun}") } else { format!("`{}`", o.space) };
    let why = match (o.kind, o.memory) {
        (AccessKind::Read, MemoryKind::Storage | MemoryKind::Uniform | MemoryKind::Workgroup) => format!(
            " It only looks right here: WebGPU lets a device return 0 or any element of {named} for such a read (wgpu and Safari on Metal clamp the index), so the value differs between devices, and on other GPU APIs the read sees other memory or faults. Guard the read with the {noun}'s length, even when the value goes unused."
        ),
        (AccessKind::Read, _) => format!(
            " It only looks right here: WGSL lets a device give any value of the element's type for such an index (wgpu and Chrome clamp it to the last element), so the value differs between devices. Guard the index with the length of {named}, even when the value goes unused."
        ),
        (AccessKind::Write | AccessKind::Atomic, MemoryKind::Storage | MemoryKind::Uniform | MemoryKind::Workgroup) => format!(
            " WebGPU dropped or redirected it, so the output may still look right; on other GPU APIs it would overwrite other memory. Guard the access with the {noun}'s length."
        ),
        (AccessKind::Write | AccessKind::Atomic, _) => format!(
            " WGSL lets a device drop it or write another element of {named} instead (wgpu and Chrome clamp the index), so what the variable holds afterwards differs between devices. Guard the index with the length of {named}."
        ),
    };
    head + &why
}

fn side(a: &HazardAccess) -> String {
    format!("the invocation with {} {} it{}", a.invocation.describe(), verb(a.kind), at(a.site))
}

/// The sentence for a hazard: its kind, the element, both invocations and
/// lines, why nothing orders them, and what to try.
pub fn hazard(h: &Hazard) -> String {
    let name = match h.kind {
        HazardKind::WriteAfterWrite => "write conflict",
        HazardKind::ReadAfterWrite => "read-after-write race",
        HazardKind::WriteAfterRead => "write-after-read race",
    };
    let memory = if h.workgroup_memory { "workgroup memory" } else { "a storage buffer" };
    let at = match h.element {
        Some(e) => format!("{}[{e}]", h.space),
        None => h.space.clone(),
    };
    let head = format!("{name}: `{at}` ({memory}): {}, and {}", side(&h.first), side(&h.second));
    let why = if h.across_workgroups {
        format!(
            ", in different workgroups of one dispatch of `{}`. Nothing orders workgroups within a dispatch (no barrier reaches across them), so on another GPU or another run the order changes.",
            h.entry_point
        )
    } else {
        let barrier = if h.workgroup_memory { "workgroupBarrier()" } else { "storageBarrier()" };
        format!(", with no `{barrier}` between them, so the GPU may run them in either order.")
    };
    let fix = match (h.kind, h.across_workgroups) {
        (HazardKind::WriteAfterWrite, _) => " Let exactly one invocation write each element, or use atomics.".to_string(),
        (_, true) => " Pass values between workgroups through a second dispatch (another entry point), or use atomics.".to_string(),
        (HazardKind::ReadAfterWrite, false) => {
            let b = if h.workgroup_memory { "workgroupBarrier()" } else { "storageBarrier()" };
            format!(" Put a `{b}` after the write and before the read, where every invocation reaches it.")
        }
        (HazardKind::WriteAfterRead, false) => {
            let b = if h.workgroup_memory { "workgroupBarrier()" } else { "storageBarrier()" };
            format!(" Put a `{b}` after the read and before the write (a scan needs one between reading a neighbour and updating its own element).")
        }
    };
    head + &why + &fix
}

/// The message of the memory error that fails a case: for a hazard, the
/// finding of its whole group among `findings`' hazards
/// ([`hazard_group`]); otherwise [`memory_error_message`].
pub fn memory_error_summary(findings: &Findings, e: &MemoryError) -> String {
    match (failing_group(findings, e), e) {
        (Some(g), _) => hazard_group(&g, findings.hazard_total as usize > findings.hazards.len()),
        (None, MemoryError::Hazard(h)) => hazard(h),
        (None, _) => memory_error_message(e),
    }
}

/// The group of hazards that the memory error failing a case belongs to,
/// when that error is a hazard.
pub fn failing_group(findings: &Findings, e: &MemoryError) -> Option<HazardGroup> {
    match e {
        MemoryError::Hazard(h) => {
            group_hazards(&findings.hazards).into_iter().find(|g| g.hazards.contains(h))
        }
        _ => None,
    }
}

/// The message of a memory error.
pub fn memory_error_message(e: &MemoryError) -> String {
    match e {
        MemoryError::OutOfBounds(o) => out_of_bounds(o),
        MemoryError::Hazard(h) => hazard(h),
        MemoryError::OrderDependent(o) => order_dependent(o),
        MemoryError::SubgroupSizeDependent(s) => subgroup_size_dependent(s),
    }
}

/// The message of a runaway loop.
pub fn runaway_loop(line: Option<usize>, invocation: &crate::trace::Invocation) -> String {
    let at = line.map(|n| format!(" at line {n}")).unwrap_or_default();
    format!(
        "the loop{at} ran more than {LOOP_BUDGET} times in the invocation with {}, so it was stopped. Check that its condition eventually becomes false (a loop variable that never changes, or that `*=` keeps at 0?).",
        invocation.describe()
    )
}

/// Why a case has no heat maps or memory checks, for the page and the CLI.
pub fn unchecked(u: &crate::outcome::Unchecked) -> String {
    use crate::outcome::Unchecked;
    match u {
        Unchecked::PerformanceCase => {
            "performance cases are timed without the instrumentation (it would slow the kernel being measured); the other cases have heat maps and memory checks".into()
        }
        Unchecked::Unsupported { why } => format!("the instrumentation cannot handle this shader ({why}), so it was judged on its values alone; please report it"),
        Unchecked::DeviceRejected { message } => {
            format!("this device's compiler rejected the instrumented shader ({message}), so it was judged on its values alone; this is a gap in the checker, please report it")
        }
        Unchecked::TraceTooLarge { bytes, limit } => {
            format!("the trace would need {bytes} bytes, more than this device's {limit}-byte buffer limit, so it was judged on its values alone")
        }
    }
}

/// Every finding as a list item: errors (each fails the case) and notes
/// (checks that did not run). The page's findings list and the CLI print
/// these.
pub fn finding_items(f: &Findings) -> Vec<(Level, String)> {
    let mut items = Vec::new();
    if let Some(l) = &f.runaway_loop {
        items.push((Level::Error, runaway_loop(l.line, &l.invocation)));
    }
    for kind in [AccessKind::Write, AccessKind::Atomic, AccessKind::Read] {
        for o in f.out_of_bounds_of(kind) {
            items.push((Level::Error, out_of_bounds(o)));
        }
    }
    let more = f.hazard_total as usize > f.hazards.len();
    for g in group_hazards(&f.hazards) {
        items.push((Level::Error, hazard_group(&g, more)));
    }
    if more {
        items.push((
            Level::Note,
            format!("The racecheck found {} hazards in all; the first {} were grouped into the findings.", f.hazard_total, f.hazards.len()),
        ));
    }
    for u in &f.unchecked {
        items.push((Level::Note, format!("Not checked: {u}.")));
    }
    items
}

/// Expected text lives beside the tests (`tests/snapshots/`), as naga and
/// rust-analyzer keep theirs; `UPDATE_SNAPSHOTS=1` rewrites it.
#[cfg(test)]
pub(crate) fn snapshot(name: &str, actual: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{} is missing: run with UPDATE_SNAPSHOTS=1", path.display()));
    assert_eq!(actual, expected, "{name} differs from {}", path.display());
}

#[cfg(test)]
mod tests;
