//! The on-disk puzzle format, as deserialized from TOML.
//!
//! These types mirror the files field by field; `puzzles/FORMAT.md` documents
//! the same fields for puzzle authors. They are checked and turned into the
//! validated model ([`crate::model`]) by [`crate::load`]. Unknown fields are
//! rejected so that a typo in a manifest is an error, not a silent default.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub use gpu_puzzles_values::ElementType;

mod promise;
mod shown;
pub use promise::PromiseSpec;
pub use shown::{BufferView, WordFormat};

/// The only `format_version` this crate reads. Bump it when a manifest that
/// was valid before would change meaning.
pub const FORMAT_VERSION: u32 = 1;

/// `puzzles/index.toml`: the puzzle folders in the order students meet
/// them, either grouped into chapters or as one plain list.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndexFile {
    /// Must equal [`FORMAT_VERSION`].
    pub format_version: u32,
    /// A plain list of puzzle folder names (which are also the puzzles'
    /// slugs), for a set without chapters. Give this or `chapter`, not both.
    #[serde(default)]
    pub order: Option<Vec<String>>,
    /// The chapters, in order (`[[chapter]]` tables). The order of the set is
    /// the first chapter's puzzles, then the second's, and so on; puzzle
    /// numbers are positions in that order, from 1, and run on across
    /// chapters.
    #[serde(default)]
    pub chapter: Vec<ChapterFile>,
}

/// One `[[chapter]]` of `puzzles/index.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChapterFile {
    /// Heading shown above the chapter's puzzles, e.g. `"Reductions and scans"`.
    pub title: String,
    /// Puzzle folder names, in order; every puzzle is in exactly one chapter.
    pub puzzles: Vec<String>,
}

/// `puzzles/<slug>/puzzle.toml`: one puzzle's manifest.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestFile {
    /// Must equal [`FORMAT_VERSION`].
    pub format_version: u32,
    /// Title shown in the list and on the puzzle page, e.g. `"Map"`.
    pub title: String,
    /// Hints, revealed one at a time; at least two. Markdown.
    #[serde(default)]
    pub hints: Vec<String>,
    /// Name of the CPU reference function (see `gpu_puzzles_reference`) that
    /// computes the expected outputs of every case that does not give them
    /// literally.
    #[serde(default)]
    pub reference: Option<String>,
    /// Default output comparison for every case; exact when absent.
    #[serde(default)]
    pub compare: Option<CompareSpec>,
    /// Storage buffers, in any order; bindings must be unique within group 0.
    #[serde(rename = "buffer", default)]
    pub buffers: Vec<BufferSpec>,
    /// Uniform buffers: structs of 4-byte scalar fields.
    #[serde(rename = "uniform", default)]
    pub uniforms: Vec<UniformSpec>,
    /// Entry points dispatched in this order for every case, each with the
    /// case's workgroup size and count, over the same bindings; storage
    /// buffer writes of one dispatch are visible to the next (WebGPU orders
    /// dispatches in a pass). `["main"]` when absent.
    #[serde(default)]
    pub entry_points: Option<Vec<String>>,
    /// The dispatches of every case, in order, instead of `entry_points`:
    /// an entry point may be dispatched several times, each time with its
    /// own values of a per-dispatch uniform ([`DispatchSpec`]). The entry
    /// points are then those named here, in order of first appearance.
    #[serde(rename = "dispatch", default)]
    pub dispatches: Vec<DispatchSpec>,
    /// Memory-access budget, checked by the instrumented run's per-invocation
    /// counters.
    #[serde(default)]
    pub budget: Option<BudgetSpec>,
    /// The technique the puzzle teaches, as built-in functions a kernel
    /// must call: a correct kernel that calls none of them fails.
    #[serde(default)]
    pub lesson: Option<LessonSpec>,
    /// On a hardware adapter, a performance case passes only when the
    /// student's kernel reaches this fraction of the reference solution's
    /// rate (its median time over the student's), e.g. `0.7`; in (0, 1].
    #[serde(default)]
    pub performance_target: Option<f64>,
    /// The outputs must be the same bits on every Run, whatever order the
    /// invocations and workgroups run in ([`crate::Puzzle::deterministic`]).
    #[serde(default)]
    pub deterministic: bool,
    /// Comparison kernels, timed on the performance cases next to the
    /// student's and the reference solution's.
    #[serde(rename = "comparison", default)]
    pub comparisons: Vec<ComparisonSpec>,
    /// Test cases, in display order.
    #[serde(rename = "case", default)]
    pub cases: Vec<CaseSpec>,
    /// Random cases drawn fresh on every Run ([`crate::random`]).
    #[serde(default)]
    pub generator: Option<GeneratorSpec>,
    /// What the statement promises of every case: ranges of sizes,
    /// workgroup sizes and values, rendered into the statement and checked
    /// against every case ([`PromiseSpec`]).
    #[serde(rename = "promise", default)]
    pub promises: Vec<PromiseSpec>,
}

/// `[[dispatch]]`: one entry of a case's dispatch list. Without `loop` the
/// entry point is dispatched once; with it, once per value of the loop
/// variables (the first loop outermost), each dispatch with the per-dispatch
/// uniform `uniform` holding the loop variables' values. Every dispatch uses
/// the case's workgroup size and count and the same storage buffers, and
/// sees the storage writes of the dispatches before it (WebGPU orders
/// dispatches). See `puzzles/FORMAT.md`, "Dispatch lists".
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DispatchSpec {
    /// The entry point's name, a WGSL identifier.
    pub entry_point: String,
    /// A `[[uniform]]` whose every field is set by one loop variable of the
    /// same name; cases give no values for it, and it holds zeros in the
    /// dispatches of other `[[dispatch]]` entries.
    #[serde(default)]
    pub uniform: Option<String>,
    /// The loops, outermost first.
    #[serde(rename = "loop", default)]
    pub loops: Vec<LoopSpec>,
}

/// One loop of a [`DispatchSpec`]: the variable `field` runs from `from`
/// while it stays on the near side of `to` (inclusive), multiplied by
/// `times`, divided by `divide` (rounding down) or increased by `add` after
/// each value. `from` and `to` are numbers or formulas (`"=..."`) over the
/// budget variables (`wgs_x`, `groups_x`, `len_<buffer>`, …, `smem`) and
/// the outer loops' variables.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoopSpec {
    /// The uniform field the variable sets, and the variable's name in the
    /// inner loops' formulas.
    pub field: String,
    /// The first value.
    pub from: LimitSpec,
    /// The last value allowed: the loop goes up to it with `times` or
    /// `add`, down to it with `divide`.
    pub to: LimitSpec,
    /// Multiply by this (at least 2) after each value.
    #[serde(default)]
    pub times: Option<u32>,
    /// Divide by this (at least 2) after each value.
    #[serde(default)]
    pub divide: Option<u32>,
    /// Add this (at least 1) after each value.
    #[serde(default)]
    pub add: Option<u32>,
}

/// `[generator]`: random cases drawn on every Run from integer variables and
/// a case template (see `puzzles/FORMAT.md` and [`crate::random`]).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneratorSpec {
    /// Random cases judged per Run; 3 when absent.
    #[serde(default)]
    pub count: Option<u32>,
    /// Variables drawn in order, each `"name in low..=high"` with bounds that
    /// are expressions over the variables before it.
    pub vars: Vec<String>,
    /// A `[[case]]` whose strings starting with `=` are expressions over the
    /// variables and `seed` (the case's own seed).
    pub case: toml::Table,
}

/// `[[comparison]]`: a correct kernel written the way the puzzle teaches to
/// avoid (divergent branches, strided access, contended atomics), shipped in
/// the puzzle folder and timed on every performance case so that students see
/// the difference on their own GPU. It is not a solution; it is shown.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComparisonSpec {
    /// What the kernel does differently, e.g. `"every workgroup split"`.
    pub label: String,
    /// File in the puzzle folder, named `compare-<name>.wgsl`.
    pub shader: String,
    /// The lesson, as data: on a hardware adapter the reference solution
    /// runs at least this many times faster than this kernel (median times
    /// of the same performance case on the same device). `gpu-puzzles
    /// check` verifies it; greater than 1.
    #[serde(default)]
    pub speedup: Option<f64>,
}

/// `[budget]`: how many storage-buffer accesses a solution may make. An
/// access is one load, store or atomic operation on a `var<storage>`,
/// whatever its width (a `vec4<f32>` load is one read). Counted by the
/// instrumentation, so checked only in instrumented runs. Each limit is a
/// number or a formula over the case (see [`LimitSpec`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BudgetSpec {
    /// Most storage-buffer reads any one invocation may make.
    #[serde(default)]
    pub global_reads_per_invocation: Option<LimitSpec>,
    /// Most storage-buffer reads all invocations of one workgroup may make
    /// together.
    #[serde(default)]
    pub global_reads_per_workgroup: Option<LimitSpec>,
    /// Most storage-buffer writes all invocations of one workgroup may make
    /// together.
    #[serde(default)]
    pub global_writes_per_workgroup: Option<LimitSpec>,
    /// Most barriers any one invocation may wait at
    /// (`gpu_puzzles_verdict::trace::invocation_counter::BARRIERS`); every invocation of
    /// a workgroup waits at the same ones.
    #[serde(default)]
    pub barriers_per_invocation: Option<LimitSpec>,
}

/// `[lesson]`: what a kernel must use for its right answers to count. The
/// check is on the parsed module: a call of one of `calls_any` reachable
/// from an entry point (through the functions it calls), whatever the
/// case. Names are WGSL built-in functions of the subgroups extension
/// ([`crate::wgsl::SUBGROUP_BUILTINS`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonSpec {
    /// The built-in functions any one of which the kernel must call, e.g.
    /// `["subgroupBallot"]`.
    pub calls_any: Vec<String>,
    /// One sentence for a kernel that calls none of them: what the puzzle
    /// is about and what to use it for, e.g. "This puzzle is about
    /// `subgroupBallot`: use it to …".
    pub message: String,
}

/// A budget's limit: a number (`global_reads_per_invocation = 1`), or a
/// formula over the case that starts with `=`, in the generator's
/// expression language (`+ - * / %`, `min`, `max`, `ceil_div`, `pow2`),
/// e.g. `"=(wgs_x + 2) * (wgs_y + 2)"`. Its variables: `wgs_x`, `wgs_y`,
/// `wgs_z` (the workgroup size the shader ran with), `groups_x`,
/// `groups_y`, `groups_z` (workgroups dispatched), `smem` (the workgroup
/// memory's size in elements), `dispatches` (the case's dispatch count),
/// `len_<buffer>` (a storage buffer's element count) and
/// `<uniform>_<field>` (a uniform
/// field's value, e.g. `dims_k`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LimitSpec {
    /// The same limit for every case.
    Fixed(u32),
    /// A formula, `=` then the expression.
    Formula(String),
}

/// `performance = { … }` on a case: a timed case. It runs without
/// instrumentation, only after every other case has passed, and its data is
/// not drawn as grids; the page reports its time (and rates, when the counts
/// are given) next to the reference solution's on the same device.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerformanceSpec {
    /// Floating-point operations the case's work takes (a multiply-add is
    /// two; an `m × k` by `k × n` matrix product is `2·m·n·k`), for GFLOP/s.
    #[serde(default)]
    pub flops: Option<u64>,
    /// Bytes the work must move to and from storage buffers at least, for
    /// GB/s.
    #[serde(default)]
    pub bytes: Option<u64>,
    /// Check this many output elements of every compared buffer, drawn
    /// uniformly at random (with the first and last), against the
    /// reference's per-element form (`gpu_puzzles_reference::SampleFn`),
    /// instead of computing the whole output on the CPU: for products of
    /// billions of operations. The elements are drawn from a seed fixed by
    /// the case's number, so a failure reproduces.
    #[serde(default)]
    pub sample: Option<u32>,
    /// Run only on a hardware adapter: on a software one (lavapipe,
    /// SwiftShader) the case is `gpu_puzzles_verdict::Outcome::Omitted`, for sizes
    /// that fill a real GPU and would take minutes on a CPU.
    #[serde(default)]
    pub hardware_only: bool,
}

/// What the shader does with a storage buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// Filled from the case, never compared.
    Input,
    /// Starts zeroed; compared against the expected values.
    Output,
    /// Filled from the case, then compared against the expected values.
    InputOutput,
}

impl Role {
    /// True for buffers whose contents are judged: outputs and
    /// input-outputs.
    pub fn is_compared(self) -> bool {
        self != Role::Input
    }
}

/// `[[buffer]]`: one storage buffer in bind group 0.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BufferSpec {
    /// Name as the student's shader declares it, e.g. `"a"`; shown on grids.
    pub name: String,
    /// `@binding(n)` in `@group(0)`.
    pub binding: u32,
    /// Element type; `f32` when absent.
    #[serde(rename = "type", default = "default_element_type")]
    pub element: ElementType,
    /// Input, output or input-output.
    pub role: Role,
    /// How the site shows its values ([`BufferView`]).
    #[serde(default)]
    pub view: BufferView,
    /// `scale = [lo, hi]`: a fixed grey scale for its images (black at
    /// `lo`), instead of each image's own range.
    #[serde(default)]
    pub scale: Option<[f64; 2]>,
    /// `format = "…"`: how a grid writes each `u32` word ([`WordFormat`]).
    #[serde(default)]
    pub format: WordFormat,
}

fn default_element_type() -> ElementType {
    ElementType::F32
}

/// `[[uniform]]`: a uniform buffer holding a struct of 4-byte scalars, laid
/// out in declaration order at 4-byte offsets (WGSL's layout for such a
/// struct; the buffer is padded to a multiple of 16 bytes).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UniformSpec {
    /// Name of the `var<uniform>` in the shader.
    pub name: String,
    /// `@binding(n)` in `@group(0)`.
    pub binding: u32,
    /// The struct's fields, in declaration order.
    pub fields: Vec<FieldSpec>,
}

/// One field of a uniform struct.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldSpec {
    /// Field name.
    pub name: String,
    /// Field type.
    #[serde(rename = "type")]
    pub scalar: ElementType,
}

/// Output comparison. Exact when both tolerances are absent; otherwise an
/// element passes when `|actual - expected| <= abs + rel * |expected|`
/// (the rule of NumPy's `isclose`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompareSpec {
    /// Absolute tolerance.
    #[serde(default)]
    pub abs: f64,
    /// Relative tolerance, a fraction of `|expected|`.
    #[serde(default)]
    pub rel: f64,
}

/// `[[case]]`: one test case, i.e. one dispatch.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseSpec {
    /// Optional label, e.g. `"ragged: 13 elements"`.
    #[serde(default)]
    pub name: Option<String>,
    /// Hidden cases count for the verdict but never show their data.
    #[serde(default)]
    pub hidden: bool,
    /// `@workgroup_size(x, y, z)`, substituted for `{{workgroupSize}}`.
    pub workgroup_size: [u32; 3],
    /// Number of workgroups dispatched per dimension, substituted for
    /// `{{totalWorkgroups}}`.
    pub workgroups: [u32; 3],
    /// Workgroup memory size in elements per dimension; `{{smemSize}}` is the
    /// product. Absent means the puzzle uses no workgroup memory (`{{smemSize}}`
    /// becomes 1 so that a declaration stays valid WGSL).
    #[serde(default)]
    pub workgroup_memory: Option<[u32; 3]>,
    /// Contents of the storage buffers by name: every input and
    /// input-output buffer needs one; output buffers may give a display shape,
    /// a length, or literal expected values.
    #[serde(default)]
    pub buffers: BTreeMap<String, BufferInit>,
    /// Uniform values by uniform name, then field name.
    #[serde(default)]
    pub uniforms: BTreeMap<String, BTreeMap<String, f64>>,
    /// Overrides the puzzle's comparison for this case.
    #[serde(default)]
    pub compare: Option<CompareSpec>,
    /// Makes this a performance case. Its outputs need a `len` (or `shape`),
    /// since their expected values are computed only when the case is judged.
    #[serde(default)]
    pub performance: Option<PerformanceSpec>,
}

/// How a buffer is filled, and how it is displayed. Exactly one of `values`,
/// `arange`, `fill` or `random` for inputs; none of them for outputs.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BufferInit {
    /// Literal contents, flat and row-major.
    #[serde(default)]
    pub values: Option<Vec<f64>>,
    /// `arange = n`: the values `start, start + 1, …, start + n - 1`.
    #[serde(default)]
    pub arange: Option<u32>,
    /// First value of an `arange`; 0 when absent.
    #[serde(default)]
    pub start: Option<f64>,
    /// `fill = v`: `len` copies of `v`.
    #[serde(default)]
    pub fill: Option<f64>,
    /// Seeded pseudo-random integers, uniform in `[min, max]`.
    #[serde(default)]
    pub random: Option<RandomSpec>,
    /// Row offsets of a sparse matrix in CSR form, with random row lengths.
    #[serde(default)]
    pub offsets: Option<OffsetsSpec>,
    /// `image = "camera"`: the photograph `puzzles/images/camera.png` in
    /// grey, one integer 0..=255 per pixel, cropped and resized to `shape`
    /// when the set loads (written cases only; FORMAT.md, "Photographs").
    #[serde(default)]
    pub image: Option<String>,
    /// With `image`: `[lo, hi]`, onto which grey levels 0..=255 map linearly
    /// (rounded): a low-contrast photograph.
    #[serde(default)]
    pub levels: Option<[u32; 2]>,
    /// Number of elements, for `fill` and for outputs.
    #[serde(default)]
    pub len: Option<u32>,
    /// Display shape `[rows, cols]`, row-major; `rows * cols` must equal the
    /// length. A 1-D buffer when absent.
    #[serde(default)]
    pub shape: Option<[u32; 2]>,
    /// Outputs only: literal expected values, flat and row-major. Otherwise the
    /// puzzle's `reference` function computes them.
    #[serde(default)]
    pub expected: Option<Vec<f64>>,
}

/// `offsets = { rows = R, total = N, seed = S }`: the `R + 1` row offsets of
/// a sparse matrix in compressed sparse row (CSR) form with `N` stored
/// entries: `0 = o[0] ≤ o[1] ≤ … ≤ o[R] = N`, row `r` holding entries
/// `o[r] … o[r+1] − 1`. Each entry falls in a row drawn uniformly
/// ([`crate::generate::row_offsets`]); with `longest = L`, row
/// `seed mod R` gets `L` of the entries first (a load-imbalanced matrix).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OffsetsSpec {
    /// Rows: the buffer has `rows + 1` elements.
    pub rows: u32,
    /// Stored entries, the last offset.
    pub total: u32,
    /// Seed of the draw.
    pub seed: u64,
    /// Entries of one long row, taken before the others are spread.
    #[serde(default)]
    pub longest: Option<u32>,
}

/// Seeded pseudo-random numbers: integers uniform in `[min, max]`, or with
/// `float = true` reals uniform in `[min, max)` rounded to `f32`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomSpec {
    /// Number of elements.
    pub len: u32,
    /// Smallest value (inclusive).
    pub min: i64,
    /// Largest value (inclusive).
    pub max: i64,
    /// Seed of the generator ([`crate::generate::SplitMix64`]); the same seed
    /// gives the same values on every platform.
    pub seed: u64,
    /// Reals instead of integers (only for `f32` buffers).
    #[serde(default)]
    pub float: bool,
}
