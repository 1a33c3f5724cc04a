//! Loading and validating a puzzle set from its files.
//!
//! The loader works on file contents, not on a file system, so the command-line
//! tool (reading `puzzles/` from disk) and the site (whose build embeds the
//! same files) share it. It reports every problem it finds, each naming the
//! file, the line where it can, and the field.

use crate::format::{BufferInit, CaseSpec, CompareSpec, ElementType, IndexFile, ManifestFile, Role, ScalarType, FORMAT_VERSION};
use crate::generate;
use crate::model::{Buffer, Case, CaseBuffer, CaseConfig, Comparison, Contents, DeferredExpected, Puzzle, PuzzleSet, RandomCases, Uniform, Values};
use crate::reference::{self, ReferenceInput};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Name of the ordered index at the top of `puzzles/`.
pub const INDEX_FILE: &str = "index.toml";
/// Files every puzzle folder holds, and no others.
pub const PUZZLE_FILES: [&str; 3] = ["puzzle.toml", "statement.md", "starter.wgsl"];
/// Files allowed at the top of `puzzles/` besides the folders.
pub const TOP_LEVEL_FILES: [&str; 2] = [INDEX_FILE, "FORMAT.md"];
/// The marker every starter carries where the student's work goes.
pub const TODO_MARKER: &str = "TODO";

/// Something wrong with a puzzle file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Path relative to the puzzles folder (or `shaders/…` for solutions).
    pub file: String,
    /// Line, from 1, where known.
    pub line: Option<usize>,
    /// Column, from 1, where known.
    pub column: Option<usize>,
    /// The field, e.g. `case 3 › buffers.a`, where there is one.
    pub field: Option<String>,
    /// What is wrong and, where it helps, what to do.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(col) = self.column {
                write!(f, ":{col}")?;
            }
        }
        if let Some(field) = &self.field {
            write!(f, ": {field}")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// The files of a puzzle set: paths relative to `puzzles/` with `/`
/// separators (`"index.toml"`, `"map/puzzle.toml"`) mapped to contents.
pub type Files = BTreeMap<String, String>;

/// Loads and validates a puzzle set.
///
/// `solutions` maps slugs to reference solutions (`shaders/<slug>.wgsl`);
/// `None` for a build without solutions.
///
/// # Errors
/// Every problem found, in file order. A set with any problem is not loaded.
pub fn load_puzzle_set(files: &Files, solutions: Option<&BTreeMap<String, String>>) -> Result<PuzzleSet, Vec<Problem>> {
    let mut problems = Vec::new();
    let Some(index_text) = files.get(INDEX_FILE) else {
        return Err(vec![problem(INDEX_FILE, None, None, "missing: it lists the puzzle folders in order")]);
    };
    let index: IndexFile = match toml::from_str(index_text) {
        Ok(i) => i,
        Err(e) => return Err(vec![toml_problem(INDEX_FILE, index_text, &e)]),
    };
    if index.format_version != FORMAT_VERSION {
        problems.push(version_problem(INDEX_FILE, index.format_version));
    }
    let mut seen = BTreeSet::new();
    for slug in &index.order {
        if !is_valid_slug(slug) {
            problems.push(problem(INDEX_FILE, None, Some("order"), &format!("`{slug}` is not a valid folder name: use lowercase letters, digits and `-`")));
        }
        if !seen.insert(slug.as_str()) {
            problems.push(problem(INDEX_FILE, None, Some("order"), &format!("`{slug}` is listed twice")));
        }
    }
    problems.extend(stray_files(files, &seen));

    let mut puzzles = Vec::new();
    for (i, slug) in index.order.iter().enumerate() {
        match load_puzzle(files, slug, i + 1, solutions.and_then(|s| s.get(slug)).cloned()) {
            Ok(p) => puzzles.push(p),
            Err(mut ps) => problems.append(&mut ps),
        }
    }
    if let Some(solutions) = solutions {
        for slug in solutions.keys().filter(|s| !seen.contains(s.as_str())) {
            problems.push(problem(&format!("../shaders/{slug}.wgsl"), None, None, "a solution for a puzzle that is not in index.toml"));
        }
    }
    let mut titles = BTreeSet::new();
    for p in &puzzles {
        if !titles.insert(p.title.as_str()) {
            problems.push(problem(&format!("{}/puzzle.toml", p.slug), None, Some("title"), &format!("`{}` is the title of an earlier puzzle too", p.title)));
        }
    }
    if index.order.is_empty() {
        problems.push(problem(INDEX_FILE, None, Some("order"), "lists no puzzles"));
    }
    if problems.is_empty() {
        Ok(PuzzleSet { puzzles })
    } else {
        Err(problems)
    }
}

/// Reads a puzzles folder from disk into [`Files`]: the top-level files and
/// each folder's files (one level deep; deeper entries are reported as stray
/// by the loader through their folder path).
///
/// # Errors
/// I/O errors, and files that are not UTF-8, with their path.
#[cfg(not(target_arch = "wasm32"))]
pub fn read_dir(root: &std::path::Path) -> Result<Files, String> {
    let mut files = Files::new();
    let entries = |dir: &std::path::Path| -> Result<Vec<std::fs::DirEntry>, String> {
        let mut v: Vec<_> = std::fs::read_dir(dir)
            .map_err(|e| format!("cannot read folder {}: {e}", dir.display()))?
            .collect::<Result<_, _>>()
            .map_err(|e| format!("cannot read folder {}: {e}", dir.display()))?;
        v.sort_by_key(|e| e.file_name());
        Ok(v)
    };
    let read = |path: &std::path::Path| -> Result<String, String> {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read {} as UTF-8 text: {e}", path.display()))
    };
    for entry in entries(root)? {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if path.is_dir() {
            for inner in entries(&path)? {
                let inner_name = inner.file_name().to_string_lossy().into_owned();
                let key = format!("{name}/{inner_name}");
                if inner.path().is_dir() {
                    files.insert(key + "/", String::new());
                } else {
                    files.insert(key, read(&inner.path())?);
                }
            }
        } else {
            files.insert(name, read(&path)?);
        }
    }
    Ok(files)
}

/// Reads every `*.wgsl` in a solutions folder (`shaders/`), keyed by slug.
///
/// # Errors
/// I/O errors with the path.
#[cfg(not(target_arch = "wasm32"))]
pub fn read_solutions(dir: &std::path::Path) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    let rd = std::fs::read_dir(dir).map_err(|e| format!("cannot read folder {}: {e}", dir.display()))?;
    for entry in rd {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.extension().and_then(|e| e.to_str()) == Some("wgsl") {
            let slug = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
            let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            out.insert(slug, text);
        }
    }
    Ok(out)
}

fn is_valid_slug(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') && !s.starts_with('-') && !s.ends_with('-')
}

fn stray_files(files: &Files, listed: &BTreeSet<&str>) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut unlisted = BTreeSet::new();
    for path in files.keys() {
        match path.split_once('/') {
            None if TOP_LEVEL_FILES.contains(&path.as_str()) => {}
            None => out.push(problem(path, None, None, "stray file: the top of puzzles/ holds only index.toml, FORMAT.md and puzzle folders")),
            Some((dir, _)) if !listed.contains(dir) => {
                unlisted.insert(dir);
            }
            Some((_, name)) if !PUZZLE_FILES.contains(&name) && !is_comparison_file(name) => out.push(problem(
                path,
                None,
                None,
                "stray file: a puzzle folder holds only puzzle.toml, statement.md, starter.wgsl and compare-*.wgsl kernels (solutions go in shaders/)",
            )),
            Some(_) => {}
        }
    }
    for dir in unlisted {
        out.push(problem(&format!("{dir}/"), None, None, "a puzzle folder that index.toml does not list: add it to `order` or remove it"));
    }
    out
}

/// Comparison kernels are named `compare-<name>.wgsl`.
fn is_comparison_file(name: &str) -> bool {
    name.strip_prefix("compare-").and_then(|n| n.strip_suffix(".wgsl")).is_some_and(|n| !n.is_empty() && !n.contains('/'))
}

fn problem(file: &str, line: Option<usize>, field: Option<&str>, message: &str) -> Problem {
    Problem { file: file.to_string(), line, column: None, field: field.map(str::to_string), message: message.to_string() }
}

fn version_problem(file: &str, found: u32) -> Problem {
    problem(file, None, Some("format_version"), &format!("is {found}, but this build reads format_version {FORMAT_VERSION}; see puzzles/FORMAT.md"))
}

fn toml_problem(file: &str, text: &str, e: &toml::de::Error) -> Problem {
    let pos = e.span().map(|s| crate::template::position_of_offset(text, s.start));
    // The field: the key that starts the offending line, e.g. `workgroup_size`.
    let field = pos
        .and_then(|p| text.lines().nth(p.line - 1))
        .and_then(|l| l.split_once('='))
        .map(|(k, _)| k.trim().to_string())
        .filter(|k| !k.is_empty() && !k.starts_with('['));
    Problem { file: file.to_string(), line: pos.map(|p| p.line), column: pos.map(|p| p.column), field, message: e.message().trim().to_string() }
}

/// Line numbers of each `[[name]]` table header in a TOML text, in order.
fn header_lines(text: &str, name: &str) -> Vec<usize> {
    let header = format!("[[{name}]]");
    text.lines().enumerate().filter(|(_, l)| l.trim_start().starts_with(&header)).map(|(i, _)| i + 1).collect()
}

fn load_puzzle(files: &Files, slug: &str, number: usize, solution: Option<String>) -> Result<Puzzle, Vec<Problem>> {
    let mut problems = Vec::new();
    let path = |name: &str| format!("{slug}/{name}");
    let mut get = |name: &str, what: &str| -> Option<String> {
        let p = path(name);
        match files.get(&p) {
            Some(t) => Some(t.clone()),
            None => {
                problems.push(problem(&p, None, None, &format!("missing: every puzzle folder needs {what}")));
                None
            }
        }
    };
    let manifest_text = get("puzzle.toml", "a manifest");
    let statement = get("statement.md", "a statement in Markdown");
    let starter = get("starter.wgsl", "a starter shader");
    let manifest_path = path("puzzle.toml");
    let Some(manifest_text) = manifest_text else { return Err(problems) };
    let manifest: ManifestFile = match toml::from_str(&manifest_text) {
        Ok(m) => m,
        Err(e) => {
            problems.push(toml_problem(&manifest_path, &manifest_text, &e));
            return Err(problems);
        }
    };
    let mut v = Validator { file: manifest_path.clone(), problems };
    if manifest.format_version != FORMAT_VERSION {
        v.problems.push(version_problem(&manifest_path, manifest.format_version));
    }
    if manifest.title.trim().is_empty() {
        v.at(None, "title", "is empty");
    }
    if manifest.hints.len() < 2 || manifest.hints.iter().any(|h| h.trim().is_empty()) {
        v.at(None, "hints", "needs at least two non-empty hints");
    }
    if let Some(s) = &starter {
        if !s.contains(TODO_MARKER) {
            v.problems.push(problem(&path("starter.wgsl"), None, None, "has no TODO marker where the student's work goes"));
        }
    }
    if statement.as_deref().is_some_and(|s| s.trim().is_empty()) {
        v.problems.push(problem(&path("statement.md"), None, None, "is empty"));
    }
    let buffer_lines = header_lines(&manifest_text, "buffer");
    let (buffers, uniforms) = v.check_bindings(&manifest, &buffer_lines);
    let reference = match &manifest.reference {
        Some(name) => match reference::lookup(name) {
            Some(f) => Some(f),
            None => {
                let names: Vec<_> = reference::REFERENCES.iter().map(|(n, _)| *n).collect();
                v.at(None, "reference", &format!("`{name}` is not a reference function; known: {}", names.join(", ")));
                None
            }
        },
        None => None,
    };
    if manifest.cases.is_empty() {
        v.at(None, "case", "no test cases: add at least one shown and one hidden `[[case]]`");
    } else {
        if manifest.cases.iter().all(|c| c.hidden) {
            v.at(None, "case", "every case is hidden: students need at least one shown case");
        }
        if !manifest.cases.iter().any(|c| c.hidden) {
            v.at(None, "case", "no hidden case: add one (`hidden = true`) so that special-casing the shown sizes fails");
        }
    }
    let entry_points = manifest.entry_points.clone().unwrap_or_else(|| vec!["main".to_string()]);
    if entry_points.is_empty() {
        v.at(None, "entry_points", "lists no entry point (leave it out for the usual `main`)");
    }
    for (i, e) in entry_points.iter().enumerate() {
        if !is_identifier(e) {
            v.at(None, "entry_points", &format!("`{e}` is not a WGSL identifier"));
        } else if entry_points[..i].contains(e) {
            v.at(None, "entry_points", &format!("`{e}` is listed twice"));
        }
    }
    if let Some(b) = manifest.budget {
        if b.global_reads_per_invocation.is_none() && b.global_writes_per_workgroup.is_none() {
            v.at(None, "budget", "sets no limit: give `global_reads_per_invocation` or `global_writes_per_workgroup`");
        }
    }
    let mut comparisons = Vec::new();
    for c in &manifest.comparisons {
        let field = format!("comparison `{}`", c.label);
        if c.label.trim().is_empty() {
            v.at(None, "comparison", "has an empty `label`");
        }
        if !is_comparison_file(&c.shader) {
            v.at(None, &field, &format!("`shader` is `{}`: name comparison kernels `compare-<name>.wgsl`", c.shader));
        } else {
            match files.get(&path(&c.shader)) {
                Some(source) => comparisons.push(Comparison { label: c.label.trim().to_string(), source: source.clone() }),
                None => v.at(None, &field, &format!("`{}` is not in the puzzle folder", c.shader)),
            }
        }
    }
    for name in files.keys().filter_map(|k| k.strip_prefix(&format!("{slug}/"))).filter(|n| is_comparison_file(n)) {
        if !manifest.comparisons.iter().any(|c| c.shader == name) {
            v.problems.push(problem(&path(name), None, None, "a comparison kernel that no `[[comparison]]` names: add one or remove the file"));
        }
    }
    if !manifest.comparisons.is_empty() && !manifest.cases.iter().any(|c| c.performance.is_some()) {
        v.at(None, "comparison", "comparison kernels are timed on performance cases, and this puzzle has none");
    }
    if !manifest.cases.is_empty() && manifest.cases.iter().all(|c| c.performance.is_some()) {
        v.at(None, "case", "every case is a performance case: performance cases run only after ordinary ones pass");
    }
    let case_lines = header_lines(&manifest_text, "case");
    let mut cases = Vec::new();
    for (i, spec) in manifest.cases.iter().enumerate() {
        let line = case_lines.get(i).copied();
        let compare = spec.compare.or(manifest.compare).unwrap_or_default();
        if let Some(c) = v.check_case(spec, i + 1, line, &buffers, &uniforms, reference, compare, manifest.reference.is_some()) {
            cases.push(c);
        }
    }
    let generator = manifest.generator.as_ref().and_then(|spec| {
        let compare = manifest.compare.unwrap_or_default();
        let parsed = match crate::random::Generator::new(spec) {
            Ok(g) => g,
            Err(e) => {
                v.at(None, "generator", &e);
                return None;
            }
        };
        if spec.case.contains_key("performance") || spec.case.contains_key("hidden") {
            v.at(None, "generator › case", "a random case is hidden unless it fails, and never a performance case: leave out `hidden` and `performance`");
            return None;
        }
        let random = RandomCases { generator: parsed, reference, compare };
        // Draw a few cases now, so that a generator that can draw a bad case
        // fails the check before a class, not during one.
        for k in 0..GENERATOR_SAMPLES {
            if let Err(e) = draw_case(&random, &buffers, &uniforms, manifest.reference.is_some(), manifest.cases.len(), k as u64, 0) {
                v.at(None, "generator", &format!("sample {k}: {e}"));
                return None;
            }
        }
        Some(random)
    });
    if v.problems.is_empty() {
        Ok(Puzzle {
            number,
            slug: slug.to_string(),
            title: manifest.title.trim().to_string(),
            statement: statement.unwrap_or_default(),
            starter: starter.unwrap_or_default(),
            hints: manifest.hints,
            solution,
            buffers,
            uniforms,
            entry_points,
            budget: manifest.budget,
            comparisons,
            cases,
            generator,
        })
    } else {
        Err(v.problems)
    }
}

/// Cases a generator draws when the set is loaded, to check it.
const GENERATOR_SAMPLES: usize = 24;

/// Draws random case `k` of the Run with seed `run_seed`, numbered after the
/// puzzle's `fixed` cases, and checks it as a written case is checked.
fn draw_case(
    random: &RandomCases,
    buffers: &[Buffer],
    uniforms: &[Uniform],
    names_reference: bool,
    fixed: usize,
    run_seed: u64,
    k: usize,
) -> Result<Case, String> {
    let seed = crate::random::case_seed(run_seed, k);
    let spec = random.generator.draw(seed)?;
    let number = fixed + k + 1;
    let mut v = Validator { file: String::new(), problems: Vec::new() };
    match v.check_case(&spec, number, None, buffers, uniforms, random.reference, random.compare, names_reference) {
        Some(mut case) if v.problems.is_empty() => {
            case.name = format!("random case {} (seed {run_seed})", k + 1);
            case.hidden = true;
            case.random_seed = Some(run_seed);
            Ok(case)
        }
        _ => Err(v.problems.iter().map(|p| p.message.clone()).collect::<Vec<_>>().join("; ")),
    }
}

/// The random cases of one Run with seed `run_seed`: the puzzle's
/// generator's count of them, numbered after its written cases, hidden
/// (a front end shows one that fails, with the seed). The same seed draws
/// the same cases on every platform. Empty when the puzzle has no
/// generator.
///
/// # Errors
/// A drawn case the loader rejects (the set's check draws samples, so this
/// means a rare draw the samples missed), naming it.
pub fn random_cases(puzzle: &Puzzle, run_seed: u64) -> Result<Vec<Case>, String> {
    let Some(random) = &puzzle.generator else { return Ok(Vec::new()) };
    (0..random.generator.count)
        .map(|k| draw_case(random, &puzzle.buffers, &puzzle.uniforms, random.reference.is_some(), puzzle.cases.len(), run_seed, k))
        .collect()
}

struct Validator {
    file: String,
    problems: Vec<Problem>,
}

impl Validator {
    fn at(&mut self, line: Option<usize>, field: &str, message: &str) {
        self.problems.push(problem(&self.file, line, Some(field), message));
    }

    fn check_bindings(&mut self, m: &ManifestFile, buffer_lines: &[usize]) -> (Vec<Buffer>, Vec<Uniform>) {
        let mut bindings = BTreeMap::new();
        let mut names = BTreeSet::new();
        let mut buffers = Vec::new();
        for (i, b) in m.buffers.iter().enumerate() {
            let line = buffer_lines.get(i).copied();
            let field = format!("buffer `{}`", b.name);
            if !is_identifier(&b.name) {
                self.at(line, &field, "`name` must be a WGSL identifier (letters, digits, `_`)");
            }
            if !names.insert(b.name.clone()) {
                self.at(line, &field, "the name is used twice");
            }
            if let Some(other) = bindings.insert(b.binding, b.name.clone()) {
                self.at(line, &field, &format!("binding {} is also used by `{other}`", b.binding));
            }
            buffers.push(Buffer { name: b.name.clone(), binding: b.binding, element: b.element, role: b.role });
        }
        let mut uniforms = Vec::new();
        for u in &m.uniforms {
            let field = format!("uniform `{}`", u.name);
            if !is_identifier(&u.name) {
                self.at(None, &field, "`name` must be a WGSL identifier");
            }
            if !names.insert(u.name.clone()) {
                self.at(None, &field, "the name is used twice");
            }
            if let Some(other) = bindings.insert(u.binding, u.name.clone()) {
                self.at(None, &field, &format!("binding {} is also used by `{other}`", u.binding));
            }
            if u.fields.is_empty() {
                self.at(None, &field, "has no fields");
            }
            let mut field_names = BTreeSet::new();
            for f in &u.fields {
                if !field_names.insert(f.name.as_str()) {
                    self.at(None, &field, &format!("field `{}` is declared twice", f.name));
                }
            }
            uniforms.push(Uniform { name: u.name.clone(), binding: u.binding, fields: u.fields.iter().map(|f| (f.name.clone(), f.scalar)).collect() });
        }
        if m.buffers.is_empty() {
            self.at(None, "buffer", "no storage buffers declared");
        } else if !m.buffers.iter().any(|b| b.role != Role::Input) {
            self.at(None, "buffer", "no output: at least one buffer needs `role = \"output\"` or `\"input-output\"`");
        }
        buffers.sort_by_key(|b| b.binding);
        uniforms.sort_by_key(|u| u.binding);
        (buffers, uniforms)
    }

    #[allow(clippy::too_many_arguments)]
    fn check_case(
        &mut self,
        spec: &CaseSpec,
        number: usize,
        line: Option<usize>,
        buffers: &[Buffer],
        uniforms: &[Uniform],
        reference: Option<reference::ReferenceFn>,
        compare: CompareSpec,
        names_reference: bool,
    ) -> Option<Case> {
        let before = self.problems.len();
        let at = format!("case {number}");
        let mut err = |s: &mut Self, field: &str, msg: &str| s.at(line, &format!("{at} › {field}"), msg);
        if spec.workgroup_size.contains(&0) {
            err(self, "workgroup_size", "every dimension must be at least 1");
        }
        if spec.workgroups.contains(&0) {
            err(self, "workgroups", "every dimension must be at least 1");
        }
        if spec.workgroup_memory.is_some_and(|m| m.contains(&0)) {
            err(self, "workgroup_memory", "every dimension must be at least 1 (leave it out if the puzzle uses none)");
        }
        if !(compare.abs >= 0.0 && compare.rel >= 0.0) {
            err(self, "compare", "tolerances must be zero or positive");
        }
        for name in spec.buffers.keys() {
            if !buffers.iter().any(|b| &b.name == name) {
                err(self, &format!("buffers.{name}"), "no `[[buffer]]` has this name");
            }
        }
        let mut case_buffers = Vec::new();
        for b in buffers {
            let init = spec.buffers.get(&b.name).cloned().unwrap_or_default();
            let field = format!("buffers.{}", b.name);
            case_buffers.push(match b.role {
                Role::Input | Role::InputOutput if spec.performance.is_some() => match checked_len(&init, b.element) {
                    Ok(len) => {
                        check_shape(self, &mut err, &field, init.shape, len);
                        let (shape, init, element) = (init.shape, init.clone(), b.element);
                        let initial = Contents::lazy(len, move || initial_values(&init, element).expect("checked by the loader"));
                        Some(CaseBuffer { initial, expected: None, shape })
                    }
                    Err(msg) => {
                        err(self, &field, &msg);
                        None
                    }
                },
                Role::Input | Role::InputOutput => match initial_values(&init, b.element) {
                    Ok(values) => {
                        if init.expected.is_some() && b.role == Role::Input {
                            err(self, &field, "`expected` is only for outputs");
                        }
                        check_shape(self, &mut err, &field, init.shape, values.len());
                        Some(CaseBuffer { initial: values.into(), expected: None, shape: init.shape })
                    }
                    Err(msg) => {
                        err(self, &field, &msg);
                        None
                    }
                },
                Role::Output => {
                    if init.values.is_some() || init.arange.is_some() || init.fill.is_some() || init.random.is_some() {
                        err(self, &field, "outputs start zeroed: give `len`, `shape` or `expected`, not contents");
                    }
                    if let (Some(len), Some([r, c])) = (init.len, init.shape) {
                        if len as usize != r as usize * c as usize {
                            err(self, &format!("{field}.shape"), &format!("{r} × {c} = {} but `len` is {len}", r as usize * c as usize));
                        }
                    }
                    let declared = init.len.map(|n| n as usize).or(init.shape.map(|[r, c]| r as usize * c as usize));
                    if spec.performance.is_some() && declared.is_none() {
                        err(self, &field, "a performance case needs `len` (or `shape`) on every output: its expected values are computed only when it runs");
                    }
                    let (element, len) = (b.element, declared.unwrap_or(0));
                    let initial =
                        if spec.performance.is_some() { Contents::lazy(len, move || Values::zeros(element, len)) } else { Values::zeros(element, len).into() };
                    Some(CaseBuffer { initial, expected: None, shape: init.shape })
                }
            });
        }
        let uniform_bytes = self.check_uniforms(spec, line, &at, uniforms);
        if self.problems.len() > before {
            return None;
        }
        let mut case_buffers: Vec<CaseBuffer> = case_buffers.into_iter().map(Option::unwrap).collect();
        let config = CaseConfig { workgroup_size: spec.workgroup_size, workgroups: spec.workgroups, workgroup_memory: spec.workgroup_memory };
        if let Some(p) = spec.performance {
            if spec.hidden {
                err(self, "hidden", "a performance case shows no data anyway; leave `hidden` out");
            }
            if spec.buffers.values().any(|b| b.expected.is_some()) {
                err(self, "expected", "a performance case takes its expected values from the reference function");
            }
            if p.flops == Some(0) || p.bytes == Some(0) {
                err(self, "performance", "counts must be positive");
            }
            let Some(reference) = reference else {
                err(self, "performance", "a performance case needs the puzzle's `reference` function");
                return None;
            };
            if self.problems.len() > before {
                return None;
            }
            return Some(Case {
                number,
                name: spec.name.clone().unwrap_or_else(|| format!("Case {number}")),
                hidden: false,
                config,
                buffers: case_buffers,
                uniforms: uniform_bytes,
                compare,
                performance: Some(p),
                deferred: Some(DeferredExpected::new(reference, spec.uniforms.clone())),
                random_seed: None,
            });
        }
        // Expected values: literal ones first, the rest from the reference.
        let compared: Vec<usize> = (0..buffers.len()).filter(|&i| buffers[i].role != Role::Input).collect();
        let needs_reference = compared.iter().any(|&i| spec.buffers.get(&buffers[i].name).and_then(|b| b.expected.as_ref()).is_none());
        let computed = if needs_reference {
            match reference {
                Some(f) => {
                    let input = ReferenceInput::new(&config, buffers, &case_buffers, &spec.uniforms);
                    match f(&input) {
                        Ok(out) if out.len() == compared.len() => Some(out),
                        Ok(out) => {
                            err(self, "reference", &format!("the reference function gives {} outputs but the puzzle compares {}", out.len(), compared.len()));
                            None
                        }
                        Err(msg) => {
                            err(self, "reference", &msg);
                            None
                        }
                    }
                }
                None if names_reference => None,
                None => {
                    err(self, "expected", "an output has no `expected` values and the puzzle names no `reference` function");
                    None
                }
            }
        } else {
            None
        };
        for (k, &i) in compared.iter().enumerate() {
            let b = &buffers[i];
            let field = format!("buffers.{}", b.name);
            let init = spec.buffers.get(&b.name).cloned().unwrap_or_default();
            let (expected, ref_shape) = match &init.expected {
                Some(lit) => match convert(lit, b.element) {
                    Ok(v) => (v, None),
                    Err(msg) => {
                        err(self, &format!("{field}.expected"), &msg);
                        continue;
                    }
                },
                None => match &computed {
                    Some(out) => out[k].clone(),
                    None => continue,
                },
            };
            if expected.element() != b.element {
                err(self, &field, &format!("the reference gives {} values for a {} buffer", expected.element().wgsl(), b.element.wgsl()));
                continue;
            }
            let cb = &mut case_buffers[i];
            if b.role == Role::InputOutput && expected.len() != cb.initial.len() {
                err(self, &field, &format!("starts with {} elements but {} are expected", cb.initial.len(), expected.len()));
            }
            if let Some(len) = init.len {
                if len as usize != expected.len() {
                    err(self, &format!("{field}.len"), &format!("is {len} but {} values are expected", expected.len()));
                }
            }
            cb.shape = init.shape.or(ref_shape);
            check_shape(self, &mut err, &field, cb.shape, expected.len());
            if b.role == Role::Output {
                if expected.is_empty() {
                    err(self, &field, "an output needs at least one element");
                }
                cb.initial = Values::zeros(b.element, expected.len()).into();
            }
            cb.expected = Some(expected);
        }
        if self.problems.len() > before {
            return None;
        }
        Some(Case {
            number,
            name: spec.name.clone().unwrap_or_else(|| format!("Case {number}")),
            hidden: spec.hidden,
            config,
            buffers: case_buffers,
            uniforms: uniform_bytes,
            compare,
            performance: None,
            deferred: None,
            random_seed: None,
        })
    }

    fn check_uniforms(&mut self, spec: &CaseSpec, line: Option<usize>, at: &str, uniforms: &[Uniform]) -> Vec<Vec<u8>> {
        for name in spec.uniforms.keys() {
            if !uniforms.iter().any(|u| &u.name == name) {
                self.at(line, &format!("{at} › uniforms.{name}"), "no `[[uniform]]` has this name");
            }
        }
        let mut out = Vec::new();
        for u in uniforms {
            let given = spec.uniforms.get(&u.name).cloned().unwrap_or_default();
            let mut bytes = Vec::new();
            for (fname, scalar) in &u.fields {
                let field = format!("{at} › uniforms.{}.{fname}", u.name);
                let Some(&v) = given.get(fname) else {
                    self.at(line, &field, "no value given");
                    continue;
                };
                let element = match scalar {
                    ScalarType::F32 => ElementType::F32,
                    ScalarType::I32 => ElementType::I32,
                    ScalarType::U32 => ElementType::U32,
                };
                match convert(&[v], element) {
                    Ok(values) => bytes.extend(values.to_bytes()),
                    Err(msg) => self.at(line, &field, &msg),
                }
            }
            for fname in given.keys().filter(|k| !u.fields.iter().any(|(n, _)| n == *k)) {
                self.at(line, &format!("{at} › uniforms.{}.{fname}", u.name), "not a field of this uniform");
            }
            bytes.resize(bytes.len().div_ceil(16).max(1) * 16, 0);
            out.push(bytes);
        }
        out
    }
}

fn check_shape(v: &mut Validator, err: &mut impl FnMut(&mut Validator, &str, &str), field: &str, shape: Option<[u32; 2]>, len: usize) {
    if let Some([r, c]) = shape {
        if r as usize * c as usize != len {
            err(v, &format!("{field}.shape"), &format!("{r} × {c} = {} but the buffer has {len} elements", r as usize * c as usize));
        }
    }
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_') && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Largest element count a case may give one buffer: 64 Mi elements
/// (256 MiB), above WebGPU's default `maxStorageBufferBindingSize` of 128 MiB,
/// so the limit check, not the loader, reports the realistic cases.
pub const MAX_ELEMENTS: u32 = 1 << 26;

/// Checks a generator without running it and returns the element count it
/// will give: [`initial_values`] on the first few elements, which meets
/// every check that does not depend on the length.
fn checked_len(init: &BufferInit, element: ElementType) -> Result<usize, String> {
    const PROBE: u32 = 16;
    let mut probe = init.clone();
    let len = if let Some(v) = &init.values {
        v.len()
    } else if let Some(n) = init.arange {
        check_len(n)?;
        probe.arange = Some(n.min(PROBE));
        // The largest value must fit the type as well as the first ones.
        convert(&[init.start.unwrap_or(0.0) + n.saturating_sub(1) as f64], element)?;
        n as usize
    } else if init.fill.is_some() {
        let n = init.len.ok_or("`fill` needs `len`")?;
        check_len(n)?;
        probe.len = Some(n.min(PROBE));
        n as usize
    } else if let Some(r) = init.random {
        check_len(r.len)?;
        probe.random = Some(crate::format::RandomSpec { len: r.len.min(PROBE), ..r });
        convert(&[r.min as f64, r.max as f64], if r.float { ElementType::F32 } else { element })?;
        r.len as usize
    } else {
        0
    };
    if init.fill.is_none() && init.values.is_none() {
        if let Some(l) = init.len {
            if l as usize != len {
                return Err(format!("`len` is {l} but the contents have {len} elements"));
            }
        }
        probe.len = None;
    }
    initial_values(&probe, element)?;
    Ok(len)
}

fn initial_values(init: &BufferInit, element: ElementType) -> Result<Values, String> {
    let given = [init.values.is_some(), init.arange.is_some(), init.fill.is_some(), init.random.is_some()];
    match given.iter().filter(|&&g| g).count() {
        0 => return Err("needs contents: one of `values`, `arange`, `fill` (with `len`) or `random`".into()),
        1 => {}
        _ => return Err("give only one of `values`, `arange`, `fill` and `random`".into()),
    }
    let raw = if let Some(v) = &init.values {
        v.clone()
    } else if let Some(n) = init.arange {
        check_len(n)?;
        generate::arange(n, init.start.unwrap_or(0.0))
    } else if let Some(x) = init.fill {
        let n = init.len.ok_or("`fill` needs `len`")?;
        check_len(n)?;
        vec![x; n as usize]
    } else {
        let r = init.random.expect("counted above");
        check_len(r.len)?;
        if r.min > r.max || (r.float && r.min == r.max) {
            return Err(format!("random: `min` ({}) must be below `max` ({})", r.min, r.max));
        }
        if r.float && element != ElementType::F32 {
            return Err(format!("random: `float = true` needs an f32 buffer, not {}", element.wgsl()));
        }
        generate::random_values(&r)
    };
    if raw.is_empty() {
        return Err("a buffer needs at least one element (WebGPU has no empty bindings)".into());
    }
    if init.fill.is_none() {
        if let Some(len) = init.len {
            if len as usize != raw.len() {
                return Err(format!("`len` is {len} but the contents have {} elements", raw.len()));
            }
        }
    }
    convert(&raw, element)
}

fn check_len(n: u32) -> Result<(), String> {
    if n > MAX_ELEMENTS {
        Err(format!("{n} elements is more than the {MAX_ELEMENTS} a case may use"))
    } else {
        Ok(())
    }
}

/// Converts manifest numbers to typed values, refusing fractions and
/// out-of-range values for integer types.
fn convert(raw: &[f64], element: ElementType) -> Result<Values, String> {
    let bad = |i: usize, x: f64, what: &str| Err(format!("element {i} ({x}) is not {what}"));
    match element {
        ElementType::F32 => Ok(Values::F32(raw.iter().map(|&x| x as f32).collect())),
        ElementType::I32 => {
            let mut v = Vec::with_capacity(raw.len());
            for (i, &x) in raw.iter().enumerate() {
                if x.fract() != 0.0 || x < i32::MIN as f64 || x > i32::MAX as f64 {
                    return bad(i, x, "an i32");
                }
                v.push(x as i32);
            }
            Ok(Values::I32(v))
        }
        ElementType::U32 => {
            let mut v = Vec::with_capacity(raw.len());
            for (i, &x) in raw.iter().enumerate() {
                if x.fract() != 0.0 || x < 0.0 || x > u32::MAX as f64 {
                    return bad(i, x, "a u32");
                }
                v.push(x as u32);
            }
            Ok(Values::U32(v))
        }
    }
}
