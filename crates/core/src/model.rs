//! The validated puzzle model: what the runner dispatches and the site shows.
//!
//! Every value here has been checked by [`crate::load`]: bindings are unique,
//! every input has contents, every output has expected values, shapes match
//! lengths. Code that receives a [`Puzzle`] need not check again.

pub use crate::format::PerformanceSpec as Performance;
use crate::format::{CompareSpec, ElementType, Role};
use gpu_puzzles_reference::{Reference, ReferenceInput};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

pub use crate::contents::{Contents, Recipe};
pub use budget::{budget_env, budget_limit};
pub use comparison::Comparison;

/// All puzzles, in the order of `puzzles/index.toml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PuzzleSet {
    /// Puzzles in order; `puzzles[i].number == i + 1`.
    pub puzzles: Vec<Puzzle>,
    /// The chapters that group them, in order, each a run of consecutive
    /// puzzles; empty for a set listed without chapters (`order = [...]`).
    pub chapters: Vec<Chapter>,
}

/// A puzzle's storage-access budget ([`crate::format::BudgetSpec`]), checked
/// by the instrumented run (`gpu_puzzles_verdict::judge::budget_outcome`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budget {
    /// Most storage-buffer reads any one invocation may make.
    pub global_reads_per_invocation: Option<Limit>,
    /// Most storage-buffer reads one workgroup may make, all its
    /// invocations together.
    pub global_reads_per_workgroup: Option<Limit>,
    /// Most storage-buffer writes one workgroup may make, all its
    /// invocations together.
    pub global_writes_per_workgroup: Option<Limit>,
    /// Most barriers one invocation may wait at (the same for every
    /// invocation of a workgroup).
    pub barriers_per_invocation: Option<Limit>,
}

/// One limit of a [`Budget`]: a number, or a formula over the case, kept as
/// its text after the `=` and evaluated per case by
/// [`budget_limit`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Limit {
    /// The same for every case.
    Fixed(u32),
    /// An expression over the case's sizes, e.g. `(wgs_x + 2) * (wgs_y + 2)`.
    Formula(String),
}

/// A chapter of the set: a heading over consecutive puzzles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chapter {
    /// The heading, e.g. `"Reductions and scans"`.
    pub title: String,
    /// Its puzzles' positions in [`PuzzleSet::puzzles`]: `first..first + len`.
    pub first: usize,
    /// How many puzzles it holds (at least one).
    pub len: usize,
}

impl Chapter {
    /// Whether the puzzle at `position` (from 0) is in this chapter.
    pub fn holds(&self, position: usize) -> bool {
        (self.first..self.first + self.len).contains(&position)
    }

    /// The chapter's puzzles, in order.
    pub fn puzzles<'a>(&self, set: &'a PuzzleSet) -> &'a [Puzzle] {
        &set.puzzles[self.first..self.first + self.len]
    }
}

impl PuzzleSet {
    /// The puzzle with this slug, if any.
    pub fn get(&self, slug: &str) -> Option<&Puzzle> {
        self.puzzles.iter().find(|p| p.slug == slug)
    }

    /// The chapter holding the puzzle at `position` (from 0), if the set has
    /// chapters.
    pub fn chapter_of(&self, position: usize) -> Option<&Chapter> {
        self.chapters.iter().find(|c| c.holds(position))
    }

    /// Position of the puzzle with this slug in the order, from 0.
    pub fn position(&self, slug: &str) -> Option<usize> {
        self.puzzles.iter().position(|p| p.slug == slug)
    }
}

/// A puzzle set's table of contents: each puzzle's number, slug and title,
/// and the chapters, without statements, code or cases. The site's page
/// carries this for its list and navigation, and fetches a puzzle's full
/// page data when that puzzle is opened (`web/src/puzzle_data.rs`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetIndex {
    /// Every puzzle, in order; `puzzles[i].number == i + 1`.
    pub puzzles: Vec<IndexEntry>,
    /// The chapters, as in [`PuzzleSet::chapters`] (positions index
    /// `puzzles`); empty for a set without chapters.
    pub chapters: Vec<Chapter>,
}

/// One puzzle in a [`SetIndex`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexEntry {
    /// Position in the order, from 1.
    pub number: usize,
    /// Folder name, as in [`Puzzle::slug`].
    pub slug: String,
    /// Title, as in [`Puzzle::title`].
    pub title: String,
}

impl SetIndex {
    /// The entry with this slug, if any.
    pub fn get(&self, slug: &str) -> Option<&IndexEntry> {
        self.puzzles.iter().find(|p| p.slug == slug)
    }

    /// A chapter's entries, in order.
    pub fn chapter(&self, chapter: &Chapter) -> &[IndexEntry] {
        &self.puzzles[chapter.first..chapter.first + chapter.len]
    }

    /// The chapter holding the puzzle at `position` (from 0), if the set has
    /// chapters.
    pub fn chapter_of(&self, position: usize) -> Option<&Chapter> {
        self.chapters.iter().find(|c| c.holds(position))
    }
}

impl PuzzleSet {
    /// The set's table of contents.
    pub fn index(&self) -> SetIndex {
        SetIndex {
            puzzles: self
                .puzzles
                .iter()
                .map(|p| IndexEntry {
                    number: p.number,
                    slug: p.slug.clone(),
                    title: p.title.clone(),
                })
                .collect(),
            chapters: self.chapters.clone(),
        }
    }
}

/// One puzzle.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Puzzle {
    /// Position in the order, from 1.
    pub number: usize,
    /// Folder name, used in URLs and on the command line, e.g. `"map-2d"`.
    pub slug: String,
    /// Title, e.g. `"Map 2D"`.
    pub title: String,
    /// Statement, Markdown (rendered without raw HTML).
    pub statement: String,
    /// Starter WGSL with template placeholders and a `TODO` marker.
    pub starter: String,
    /// Hints in the order they are revealed, Markdown.
    pub hints: Vec<String>,
    /// Our reference solution (`shaders/<slug>.wgsl`), when the build has it.
    pub solution: Option<String>,
    /// Storage buffers, sorted by binding.
    pub buffers: Vec<Buffer>,
    /// Uniform buffers, sorted by binding.
    pub uniforms: Vec<Uniform>,
    /// Entry points dispatched in order for every case; `["main"]` for a
    /// single-dispatch puzzle.
    pub entry_points: Vec<String>,
    /// The dispatch list every case expands ([`Case::dispatches`]): each
    /// entry point once, in order, unless the manifest has `[[dispatch]]`.
    pub dispatch_plan: Vec<DispatchPlan>,
    /// Memory-access budget checked by instrumented runs, if any.
    pub budget: Option<Budget>,
    /// The built-in functions a correct kernel must call, if any
    /// (`gpu_puzzles_verdict::judge::lesson_outcome`).
    pub lesson: Option<crate::format::LessonSpec>,
    /// Kernels timed next to the student's on performance cases.
    pub comparisons: Vec<Comparison>,
    /// The fraction of the reference solution's rate a student's kernel must
    /// reach on a performance case, on a hardware adapter
    /// (`gpu_puzzles_verdict::judge::target_outcome`).
    pub performance_target: Option<f64>,
    /// Whether the outputs must be the same bits on every Run: a case that
    /// passed is run again, in several orders of its invocations and
    /// workgroups on the CPU and several times on the GPU, and fails with
    /// `MemoryError::OrderDependent` (`bits`) when two runs' outputs differ
    /// in any bit, even where both are within the tolerance (The Same Answer
    /// Every Run).
    #[serde(default)]
    pub deterministic: bool,
    /// Test cases, in display order; at least one.
    pub cases: Vec<Case>,
    /// Draws random cases for each Run ([`crate::load::random_cases`]).
    /// Not serialised: it holds the reference function and a parsed
    /// template, so a deserialised puzzle draws none.
    #[serde(skip)]
    pub generator: Option<RandomCases>,
}

/// A puzzle's random cases: the generator and what the loader needs to turn
/// a drawn case into a [`Case`] (the reference and the comparison).
#[derive(Debug, Clone)]
pub struct RandomCases {
    /// The parsed `[generator]`.
    pub generator: crate::random::Generator,
    /// The puzzle's reference function.
    pub reference: Option<Reference>,
    /// The puzzle's default comparison.
    pub compare: crate::format::CompareSpec,
}

impl Puzzle {
    /// The expected contents of every compared buffer of `case`, in binding
    /// order. Performance cases compute theirs with the CPU reference on the
    /// first call (which may take a second for a large matrix product, or a
    /// few milliseconds for a sampled one) and keep them.
    ///
    /// # Errors
    /// The reference function's message, or a length that differs from the
    /// output's declared `len`; for a performance case of a deserialised
    /// puzzle (which has no reference), a message saying so.
    pub fn expected<'c>(&self, case: &'c Case) -> Result<Vec<Expected<'c>>, ExpectedError> {
        if let Some(d) = &case.deferred {
            let (computed, _) = d.cache.get_or_init(|| {
                let started = web_time::Instant::now();
                let computed = d.compute(self, case);
                (computed, started.elapsed().as_secs_f64() * 1e3)
            });
            return computed
                .as_ref()
                .map(|v| {
                    v.iter()
                        .map(|(values, elements)| Expected {
                            values,
                            elements: elements.as_deref(),
                        })
                        .collect()
                })
                .map_err(Clone::clone);
        }
        self.compared_buffers()
            .map(|i| {
                let values =
                    case.buffers[i].expected.as_ref().ok_or(ExpectedError::NotComputedHere)?;
                Ok(Expected { values, elements: None })
            })
            .collect()
    }

    /// How long the CPU reference took to compute every output of the
    /// performance case `case`, in milliseconds of one thread (wasm in the
    /// page's judge, native code in the CLI): the plain CPU figure a
    /// performance case shows beside the GPU's. `None` until
    /// [`Puzzle::expected`] has run for it, for a case whose outputs were
    /// sampled (the reference computed only some elements), and for a
    /// case that is not a performance case (its expected values come with
    /// the case).
    pub fn reference_ms(&self, case: &Case) -> Option<f64> {
        let d = case.deferred.as_ref().filter(|d| d.sample.is_none())?;
        d.cache.get().filter(|(c, _)| c.is_ok()).map(|&(_, ms)| ms)
    }

    /// Indices into [`Puzzle::buffers`] of the buffers that are compared
    /// (outputs and input-outputs), in binding order.
    pub fn compared_buffers(&self) -> impl Iterator<Item = usize> + '_ {
        self.buffers.iter().enumerate().filter(|(_, b)| b.role != Role::Input).map(|(i, _)| i)
    }
}

/// A storage buffer declared by the puzzle, in bind group 0.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Buffer {
    /// Name as declared in the shader, e.g. `"out"`.
    pub name: String,
    /// `@binding(n)`.
    pub binding: u32,
    /// Element type.
    pub element: ElementType,
    /// Input, output or input-output.
    pub role: Role,
    /// How the site shows its values.
    #[serde(default)]
    pub view: crate::format::BufferView,
    /// A fixed grey scale `[lo, hi]` for its images (black at `lo`, white
    /// at `hi`), so that a low-contrast picture looks low in contrast;
    /// `None`: each image spans its own values.
    #[serde(default)]
    pub scale: Option<[f64; 2]>,
    /// How a grid writes each `u32` word: the number, or the values a
    /// packed format holds in it.
    #[serde(default)]
    pub format: crate::format::WordFormat,
}

/// A uniform buffer: a struct of 4-byte scalars at 4-byte offsets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Uniform {
    /// Name of the `var<uniform>`.
    pub name: String,
    /// `@binding(n)`.
    pub binding: u32,
    /// Fields in declaration order: name and type.
    pub fields: Vec<(String, ElementType)>,
}

/// One test case: one dispatch with its buffers and expected outputs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Case {
    /// Position in the puzzle's case list, from 1 (the `N` of `case-N`).
    pub number: usize,
    /// Label shown above the case.
    pub name: String,
    /// Hidden cases count for the verdict but never show their data.
    pub hidden: bool,
    /// The dispatch's configuration.
    pub config: CaseConfig,
    /// One entry per puzzle buffer, aligned with [`Puzzle::buffers`].
    pub buffers: Vec<CaseBuffer>,
    /// Bytes of each uniform buffer, aligned with [`Puzzle::uniforms`];
    /// little-endian, padded with zeros to a multiple of 16 bytes.
    pub uniforms: Vec<Vec<u8>>,
    /// The case's dispatches in order ([`Puzzle::dispatch_plan`] expanded
    /// for its sizes): at least one (a loop may make none of its entry
    /// point).
    pub dispatches: Vec<DispatchStep>,
    /// How outputs are compared.
    pub compare: CompareSpec,
    /// Set on performance cases: what is counted for rates.
    pub performance: Option<Performance>,
    /// Performance cases' expected values, computed when first judged. Not
    /// serialised (it holds the reference function): a deserialised
    /// performance case has no expected values ([`Puzzle::expected`]).
    #[serde(skip)]
    pub deferred: Option<DeferredExpected>,
    /// A random case: the seed of the Run that drew it (`--seed` on the
    /// command line draws the same cases again).
    pub random_seed: Option<u64>,
}

impl Case {
    /// True for a performance case.
    pub fn is_performance(&self) -> bool {
        self.performance.is_some()
    }
}

/// The expected contents of one compared buffer: every element, or the
/// values at a sample of elements (a performance case's `sample`).
#[derive(Debug, Clone, Copy)]
pub struct Expected<'a> {
    /// Element `i` of the buffer or, when sampled, element `elements[i]`.
    pub values: &'a Values,
    /// The sampled element indices (ascending, row-major), or `None` when
    /// `values` gives every element.
    pub elements: Option<&'a [usize]>,
}

impl Expected<'_> {
    /// Every checked element as `(element index, position in values)`.
    pub fn checked(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.values.len()).map(|k| (self.elements.map_or(k, |e| e[k]), k))
    }

    /// The whole expected contents, when not sampled.
    pub fn whole(&self) -> Option<&Values> {
        self.elements.is_none().then_some(self.values)
    }
}

/// Per compared buffer: the expected values and, when sampled, their
/// elements; or why the reference could not compute them.
type Computed = Result<Vec<(Values, Option<Vec<usize>>)>, ExpectedError>;

mod budget;
mod comparison;
mod dispatch;
mod expected;
pub use dispatch::{
    expand as expand_dispatches, DispatchError, DispatchPlan, DispatchStep, LoopPlan, LoopStep,
    MAX_DISPATCHES,
};
pub use expected::{sample_elements, ExpectedError};
pub use gpu_puzzles_values::{format_f32, CaseConfig, Values};

/// The expected outputs of a performance case, computed by its reference
/// function on first use ([`Puzzle::expected`]): large cases would otherwise
/// slow every page load.
#[derive(Clone)]
pub struct DeferredExpected {
    /// The puzzle's reference function.
    pub reference: Reference,
    /// Uniform field values by uniform name, then field name.
    pub uniforms: BTreeMap<String, BTreeMap<String, f64>>,
    /// Elements to check per compared buffer, when sampled
    /// ([`crate::format::PerformanceSpec::sample`]).
    pub sample: Option<u32>,
    /// The values, and the reference's time in milliseconds.
    cache: Arc<OnceLock<(Computed, f64)>>,
}

impl std::fmt::Debug for DeferredExpected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeferredExpected")
            .field("computed", &self.cache.get().is_some())
            .finish_non_exhaustive()
    }
}

impl DeferredExpected {
    /// A reference to run later with these uniform values, on every element
    /// or on `sample` of them.
    pub fn new(
        reference: Reference,
        uniforms: BTreeMap<String, BTreeMap<String, f64>>,
        sample: Option<u32>,
    ) -> Self {
        Self { reference, uniforms, sample, cache: Arc::new(OnceLock::new()) }
    }

    fn compute(&self, puzzle: &Puzzle, case: &Case) -> Computed {
        let input = reference_input(&case.config, &puzzle.buffers, &case.buffers, &self.uniforms);
        let compared: Vec<usize> = puzzle.compared_buffers().collect();
        let (out, elements): (Vec<Values>, Option<Vec<usize>>) =
            match (self.sample, self.reference.at) {
                (Some(count), Some(at)) => {
                    let len =
                        compared.iter().map(|&i| case.buffers[i].initial.len()).min().unwrap_or(0);
                    // The seed depends on the case alone, so a failure reproduces.
                    let elements =
                        sample_elements(len, count as usize, 0x5A3D_1E5E ^ case.number as u64);
                    (at(&input, &elements)?, Some(elements))
                }
                (Some(_), None) => return Err(ExpectedError::NoSampledForm),
                (None, _) => {
                    ((self.reference.all)(&input)?.into_iter().map(|(v, _)| v).collect(), None)
                }
            };
        if out.len() != compared.len() {
            return Err(ExpectedError::OutputCount { given: out.len(), compared: compared.len() });
        }
        let mut values = Vec::with_capacity(out.len());
        for (v, &i) in out.into_iter().zip(&compared) {
            let (b, cb) = (&puzzle.buffers[i], &case.buffers[i]);
            let want = elements.as_ref().map_or(cb.initial.len(), Vec::len);
            if v.element() != b.element || v.len() != want {
                return Err(ExpectedError::OutputShape {
                    buffer: b.name.clone(),
                    len: v.len(),
                    ty: v.element().wgsl(),
                    want,
                    want_ty: b.element.wgsl(),
                });
            }
            values.push((v, elements.clone()));
        }
        Ok(values)
    }
}

/// What the reference function sees of a case: its dispatch's sizes, its
/// input and input-output buffers by name (`buffers` and `contents`
/// aligned, in binding order), the uniform values given, and the length of
/// every output that has one (outputs of zero length are sized by the
/// reference itself). The reference knows nothing of the model; this is
/// where the model hands it plain inputs.
pub fn reference_input<'a>(
    config: &'a CaseConfig,
    buffers: &'a [Buffer],
    contents: &'a [CaseBuffer],
    uniforms: &'a BTreeMap<String, BTreeMap<String, f64>>,
) -> ReferenceInput<'a> {
    let pairs = || buffers.iter().zip(contents);
    ReferenceInput {
        config,
        buffers: pairs()
            .filter(|(b, _)| b.role != Role::Output)
            .map(|(b, c)| (b.name.as_str(), (&*c.initial, c.shape)))
            .collect(),
        uniforms: uniforms
            .iter()
            .map(|(u, f)| (u.as_str(), f.iter().map(|(k, v)| (k.as_str(), *v)).collect()))
            .collect(),
        output_lens: pairs()
            .filter(|(b, c)| b.role == Role::Output && !c.initial.is_empty())
            .map(|(b, c)| (b.name.as_str(), c.initial.len()))
            .collect(),
    }
}

/// A buffer's contents in one case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseBuffer {
    /// Contents uploaded before the dispatch (zeros for outputs); a
    /// performance case's are generated on first use.
    pub initial: Contents,
    /// Expected contents after the dispatch (outputs and input-outputs only).
    pub expected: Option<Values>,
    /// Display shape `[rows, cols]`, row-major; `None` for 1-D.
    pub shape: Option<[u32; 2]>,
}
