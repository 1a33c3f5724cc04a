//! `[[promise]]`: the ranges a statement promises, as data.

use serde::Deserialize;

/// `[[promise]]`: one range the statement promises, as data. Every case,
/// written, hidden, drawn at random or timed, falls inside it (performance
/// cases inside `performance` where it is given), and the written cases
/// reach both of its ends; the loader refuses a set where one does not.
/// The statement's `{{sizes}}` line is replaced by a list of the puzzle's
/// promises, and `{{performance_sizes}}` by those with a `performance`
/// range.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromiseSpec {
    /// The quantity: `invocations` (per workgroup, the product of
    /// `workgroup_size`), `workgroup_size.x` (`.y`, `.z`), `workgroups` (the
    /// product of the count dispatched), `workgroups.x` (`.y`, `.z`),
    /// `workgroup_memory` (elements, `{{smemSize}}`),
    /// `<uniform>.<field>` (a field's value), `len(<buffer>)` (a storage
    /// buffer's element count), `rows(<buffer>)` and `cols(<buffer>)` (of
    /// its `shape`), or `<buffer>` (the initial values of an input).
    pub of: String,
    /// What the quantity is, in the statement's words, e.g. `"rows of the
    /// batch"`; the rendered list starts with it.
    pub what: String,
    /// `[lowest, highest]`, both included: every ordinary case's quantity
    /// lies within, and the written ones reach both ends.
    pub range: [f64; 2],
    /// `[lowest, highest]` of the performance cases where they go beyond
    /// `range`; they must then reach both ends. Performance cases are held
    /// to `range` when absent.
    #[serde(default)]
    pub performance: Option<[f64; 2]>,
    /// Names of written cases outside the range (a worked example with
    /// small integers, say), named in the rendered list.
    #[serde(default)]
    pub except: Vec<String>,
    /// Words added after the range, e.g. `"not always a power of two"`.
    #[serde(default)]
    pub note: Option<String>,
}
