//! Loading and validating a puzzle set from its files.
//!
//! The loader works on file contents, not on a file system, so the command-line
//! tool (reading `puzzles/` from disk) and the site (whose build embeds the
//! same files) share it. It reports every problem it finds, each naming the
//! file, the line where it can, and the field.

use crate::format::{IndexFile, ManifestFile, FORMAT_VERSION};
use crate::model::{Comparison, Puzzle, PuzzleSet, RandomCases};
use gpu_puzzles_reference as reference;
use std::collections::{BTreeMap, BTreeSet};

mod budget;
mod dispatch;
mod draw;
mod files;
mod index;
mod photo;
mod problems;
mod promise;
mod validate;

pub use crate::generate::MAX_ELEMENTS;
use budget::{budget, check_budget_on};
use draw::{draw_case, GENERATOR_SAMPLES};
pub use draw::{random_cases, DrawError, DrawFailure};
use files::{is_comparison_file, is_valid_slug, stray_files};
#[cfg(not(target_arch = "wasm32"))]
pub use files::{read_dir, read_solutions, ReadError};
use index::index_order;
#[cfg(not(target_arch = "wasm32"))]
pub use photo::with_photographs_resolved;
pub use problems::Problem;
use problems::Validator;
pub(super) use problems::{header_lines, problem, toml_problem, version_problem};
pub use promise::{PERFORMANCE_SIZES_LINE, SIZES_LINE};
use validate::Interface;

/// Name of the ordered index at the top of `puzzles/`.
pub const INDEX_FILE: &str = "index.toml";
/// Files every puzzle folder holds, and no others.
pub const PUZZLE_FILES: [&str; 3] = ["puzzle.toml", "statement.md", "starter.wgsl"];
/// Files allowed at the top of `puzzles/` besides the folders.
pub const TOP_LEVEL_FILES: [&str; 2] = [INDEX_FILE, "FORMAT.md"];
/// The marker every starter carries where the student's work goes.
pub const TODO_MARKER: &str = "TODO";

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
pub fn load_puzzle_set(
    files: &Files,
    solutions: Option<&BTreeMap<String, String>>,
) -> Result<PuzzleSet, Vec<Problem>> {
    let mut problems = Vec::new();
    let Some(index_text) = files.get(INDEX_FILE) else {
        return Err(vec![problem(
            INDEX_FILE,
            None,
            None,
            "missing: it lists the puzzle folders in order",
        )]);
    };
    let index: IndexFile = match toml::from_str(index_text) {
        Ok(i) => i,
        Err(e) => return Err(vec![toml_problem(INDEX_FILE, index_text, &e)]),
    };
    if index.format_version != FORMAT_VERSION {
        problems.push(version_problem(INDEX_FILE, index.format_version));
    }
    let (order, chapters) = index_order(&index, index_text, &mut problems);
    let mut seen = BTreeSet::new();
    for slug in &order {
        if !is_valid_slug(slug) {
            problems.push(problem(
                INDEX_FILE,
                None,
                Some("order"),
                &format!(
                    "`{slug}` is not a valid folder name: use lowercase letters, digits and `-`"
                ),
            ));
        }
        if slug == photo::IMAGES_DIR {
            problems.push(problem(
                INDEX_FILE,
                None,
                Some("order"),
                "`images` is the folder of photographs that cases use, not a puzzle: give the puzzle another slug",
            ));
        }
        if !seen.insert(slug.as_str()) {
            problems.push(problem(
                INDEX_FILE,
                None,
                Some("order"),
                &format!("`{slug}` is listed twice: every puzzle belongs to exactly one place in the order"),
            ));
        }
    }
    problems.extend(stray_files(files, &seen));

    let mut puzzles = Vec::new();
    for (i, slug) in order.iter().enumerate() {
        match load_puzzle(
            files,
            slug,
            i + 1,
            solutions.and_then(|s| s.get(slug)).cloned(),
            Checks::All,
        ) {
            Ok(p) => puzzles.push(p),
            Err(mut ps) => problems.append(&mut ps),
        }
    }
    if let Some(solutions) = solutions {
        for slug in solutions.keys().filter(|s| !seen.contains(s.as_str())) {
            problems.push(problem(
                &format!("../shaders/{slug}.wgsl"),
                None,
                None,
                "a solution for a puzzle that is not in index.toml",
            ));
        }
    }
    let mut titles = BTreeSet::new();
    for p in &puzzles {
        if !titles.insert(p.title.as_str()) {
            problems.push(problem(
                &format!("{}/puzzle.toml", p.slug),
                None,
                Some("title"),
                &format!("`{}` is the title of an earlier puzzle too", p.title),
            ));
        }
    }
    if order.is_empty() {
        problems.push(problem(INDEX_FILE, None, Some("order"), "lists no puzzles"));
    }
    if problems.is_empty() {
        Ok(PuzzleSet { puzzles, chapters })
    } else {
        Err(problems)
    }
}

/// Loads one puzzle of a set, `slug`, numbered by its place in the set's
/// `index.toml`, without its solution, and without the checks that span the
/// set (titles given twice, stray files) or only add problems about its
/// random case generator (the edges its written cases cover, and sample
/// draws, each through the reference function): for a reader of a set
/// already validated whole by [`load_puzzle_set`], such as the site's
/// judge, which builds one puzzle when a Run first needs it instead of
/// every puzzle of the set at start-up. The puzzle is the one
/// [`load_puzzle_set`] gives.
///
/// # Errors
/// The index's problems, `slug` missing from its order, or the puzzle's
/// own problems, as [`load_puzzle_set`] reports them.
pub fn load_one_puzzle(files: &Files, slug: &str) -> Result<Puzzle, Vec<Problem>> {
    let index_text = files.get(INDEX_FILE).ok_or_else(|| {
        vec![problem(INDEX_FILE, None, None, "missing: it lists the puzzle folders in order")]
    })?;
    let index: IndexFile =
        toml::from_str(index_text).map_err(|e| vec![toml_problem(INDEX_FILE, index_text, &e)])?;
    let mut problems = Vec::new();
    let (order, _) = index_order(&index, index_text, &mut problems);
    if !problems.is_empty() {
        return Err(problems);
    }
    let Some(at) = order.iter().position(|s| s == slug) else {
        return Err(vec![problem(
            INDEX_FILE,
            None,
            Some("order"),
            &format!("does not list `{slug}`"),
        )]);
    };
    load_puzzle(files, slug, at + 1, None, Checks::Model)
}

/// Which of a puzzle's checks the loader makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Checks {
    /// Every check: a set being validated.
    All,
    /// Those that build the model, without the checks of the random case
    /// generator that add problems and nothing else (the edges every written
    /// case must cover, and [`GENERATOR_SAMPLES`] sample draws, each through
    /// the reference function): a puzzle of a set already validated whole.
    Model,
}

fn load_puzzle(
    files: &Files,
    slug: &str,
    number: usize,
    solution: Option<String>,
    checks: Checks,
) -> Result<Puzzle, Vec<Problem>> {
    let mut problems = Vec::new();
    let path = |name: &str| format!("{slug}/{name}");
    let mut get = |name: &str, what: &str| -> Option<String> {
        let p = path(name);
        match files.get(&p) {
            Some(t) => Some(t.clone()),
            None => {
                problems.push(problem(
                    &p,
                    None,
                    None,
                    &format!("missing: every puzzle folder needs {what}"),
                ));
                None
            }
        }
    };
    let manifest_text = get("puzzle.toml", "a manifest");
    let statement = get("statement.md", "a statement in Markdown");
    let starter = get("starter.wgsl", "a starter shader");
    let manifest_path = path("puzzle.toml");
    let Some(manifest_text) = manifest_text else { return Err(problems) };
    let mut manifest: ManifestFile = match toml::from_str(&manifest_text) {
        Ok(m) => m,
        Err(e) => {
            problems.push(toml_problem(&manifest_path, &manifest_text, &e));
            return Err(problems);
        }
    };
    let mut v = Validator { file: manifest_path.clone(), problems };
    // Photographs become literal values before any check reads a case.
    let lines = header_lines(&manifest_text, "case");
    for (i, case) in manifest.cases.iter_mut().enumerate() {
        for (name, init) in &mut case.buffers {
            if let Err(e) = photo::resolve(files, init) {
                v.at(lines.get(i).copied(), &format!("case {} › buffers.{name}", i + 1), &e);
            }
        }
    }
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
            v.problems.push(problem(
                &path("starter.wgsl"),
                None,
                None,
                "has no TODO marker where the student's work goes",
            ));
        }
    }
    if statement.as_deref().is_some_and(|s| s.trim().is_empty()) {
        v.problems.push(problem(&path("statement.md"), None, None, "is empty"));
    }
    let buffer_lines = header_lines(&manifest_text, "buffer");
    let (buffers, uniforms) = v.check_bindings(&manifest, &buffer_lines);
    let reference = match &manifest.reference {
        Some(name) => match reference::lookup(name) {
            Some(r) => Some(r),
            None => {
                let names: Vec<_> = reference::REFERENCES.iter().map(|(n, _)| *n).collect();
                v.at(
                    None,
                    "reference",
                    &format!("`{name}` is not a reference function; known: {}", names.join(", ")),
                );
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
    let (entry_points, dispatch_plan) = dispatch::plan(&manifest, &uniforms, &mut v);
    let budget = manifest.budget.as_ref().map(|b| budget(b, &mut v));
    let promise_lines = header_lines(&manifest_text, "promise");
    let promises = promise::parse(
        &manifest.promises,
        &promise_lines,
        &buffers,
        &uniforms,
        &dispatch_plan,
        &mut v,
    );
    if let Some(s) = &statement {
        for message in promise::placeholder_problems(s, &promises) {
            v.problems.push(problem(&path("statement.md"), None, None, &message));
        }
    }
    if let Some(lesson) = &manifest.lesson {
        for name in lesson
            .calls_any
            .iter()
            .filter(|n| !crate::wgsl::SUBGROUP_BUILTINS.contains(&n.as_str()))
        {
            v.at(
                None,
                "lesson › calls_any",
                &format!("`{name}` is not a built-in function of WGSL's subgroups extension"),
            );
        }
        if lesson.calls_any.is_empty() || lesson.message.trim().is_empty() {
            v.at(None, "lesson", "give `calls_any` (at least one built-in function) and `message` (what the puzzle is about)");
        }
    }
    let mut comparisons = Vec::new();
    for c in &manifest.comparisons {
        let field = format!("comparison `{}`", c.label);
        if c.label.trim().is_empty() {
            v.at(None, "comparison", "has an empty `label`");
        }
        if !is_comparison_file(&c.shader) {
            v.at(
                None,
                &field,
                &format!(
                    "`shader` is `{}`: name comparison kernels `compare-<name>.wgsl`",
                    c.shader
                ),
            );
        } else {
            match files.get(&path(&c.shader)) {
                Some(source) => comparisons.push(Comparison {
                    label: c.label.trim().to_string(),
                    source: source.clone(),
                    speedup: c.speedup,
                }),
                None => v.at(None, &field, &format!("`{}` is not in the puzzle folder", c.shader)),
            }
        }
    }
    for name in files
        .keys()
        .filter_map(|k| k.strip_prefix(&format!("{slug}/")))
        .filter(|n| is_comparison_file(n))
    {
        if !manifest.comparisons.iter().any(|c| c.shader == name) {
            v.problems.push(problem(
                &path(name),
                None,
                None,
                "a comparison kernel that no `[[comparison]]` names: add one or remove the file",
            ));
        }
    }
    for c in &manifest.comparisons {
        if c.speedup.is_some_and(|x| !(x.is_finite() && x > 1.0)) {
            v.at(
                None,
                &format!("comparison `{}`", c.label),
                "`speedup` is how many times faster the reference runs: a number above 1",
            );
        }
    }
    if let Some(t) = manifest.performance_target {
        if !(t.is_finite() && t > 0.0 && t <= 1.0) {
            v.at(
                None,
                "performance_target",
                "is a fraction of the reference's rate: above 0 and at most 1",
            );
        }
        if !manifest.cases.iter().any(|c| c.performance.is_some()) {
            v.at(
                None,
                "performance_target",
                "applies to performance cases, and this puzzle has none",
            );
        }
    }
    if !manifest.comparisons.is_empty() && !manifest.cases.iter().any(|c| c.performance.is_some()) {
        v.at(
            None,
            "comparison",
            "comparison kernels are timed on performance cases, and this puzzle has none",
        );
    }
    if !manifest.cases.is_empty() && manifest.cases.iter().all(|c| c.performance.is_some()) {
        v.at(
            None,
            "case",
            "every case is a performance case: performance cases run only after ordinary ones pass",
        );
    }
    let case_lines = header_lines(&manifest_text, "case");
    let mut cases = Vec::new();
    for (i, spec) in manifest.cases.iter().enumerate() {
        let line = case_lines.get(i).copied();
        let compare = spec.compare.or(manifest.compare).unwrap_or_default();
        let interface = Interface {
            buffers: &buffers,
            uniforms: &uniforms,
            plan: &dispatch_plan,
            reference,
            names_reference: manifest.reference.is_some(),
        };
        if let Some(c) = v.check_case(spec, i + 1, line, &interface, compare) {
            cases.push(c);
        }
    }
    let generator = manifest.generator.as_ref().and_then(|spec| {
        let compare = manifest.compare.unwrap_or_default();
        let parsed = match crate::random::Generator::new(spec) {
            Ok(g) => g,
            Err(e) => {
                v.at(None, "generator", &e.to_string());
                return None;
            }
        };
        if spec.case.contains_key("performance") || spec.case.contains_key("hidden") {
            v.at(None, "generator › case", "a random case is hidden unless it fails, and never a performance case: leave out `hidden` and `performance`");
            return None;
        }
        // Every edge of the draws must be in a written case too (see
        // `random::edges`), so a verdict never depends on the draw.
        if checks == Checks::All && cases.len() == manifest.cases.len() {
            let tables: Vec<toml::Table> = match toml::from_str::<toml::Table>(&manifest_text) {
                Ok(t) => match t.get("case") {
                    Some(toml::Value::Array(a)) => a.iter().filter_map(|c| c.as_table().cloned()).collect(),
                    _ => Vec::new(),
                },
                Err(_) => Vec::new(),
            };
            let written: Vec<crate::random::WrittenCase> = tables
                .iter()
                .zip(&cases)
                .filter(|(_, c)| !c.is_performance())
                .map(|(table, c)| crate::random::WrittenCase {
                    table,
                    buffer_len: buffers.iter().zip(&c.buffers).map(|(b, cb)| (b.name.clone(), cb.initial.len())).collect(),
                })
                .collect();
            for edge in crate::random::uncovered_edges(&parsed, &written) {
                v.at(None, "generator", &edge.to_string());
            }
        }
        let random = RandomCases { generator: parsed, reference, compare };
        // Draw a few cases now, so that a generator that can draw a bad case
        // fails the check before a class, not during one.
        let samples = if checks == Checks::All { GENERATOR_SAMPLES } else { 0 };
        for k in 0..samples {
            let interface =
                Interface { buffers: &buffers, uniforms: &uniforms, plan: &dispatch_plan, reference, names_reference: manifest.reference.is_some() };
            match draw_case(&random, &interface, manifest.cases.len(), k as u64, 0) {
                Err(e) => {
                    v.at(None, "generator", &format!("sample {k}: {e}"));
                    return None;
                }
                Ok(case) => check_budget_on(budget.as_ref(), &buffers, &uniforms, &case, &mut v),
            }
        }
        Some(random)
    });
    for case in cases.iter().filter(|c| !c.is_performance()) {
        check_budget_on(budget.as_ref(), &buffers, &uniforms, case, &mut v);
    }
    if checks == Checks::All {
        promise::check(
            &promises,
            &promise_lines,
            &manifest.cases,
            &case_lines,
            generator.as_ref().map(|g| &g.generator),
            &buffers,
            &mut v,
        );
    }
    if v.problems.is_empty() {
        Ok(Puzzle {
            number,
            slug: slug.to_string(),
            title: manifest.title.trim().to_string(),
            statement: statement.map(|s| promise::render(&s, &promises)).unwrap_or_default(),
            starter: starter.unwrap_or_default(),
            hints: manifest.hints,
            solution,
            buffers,
            uniforms,
            entry_points,
            dispatch_plan,
            budget,
            lesson: manifest.lesson.clone(),
            comparisons,
            performance_target: manifest.performance_target,
            deterministic: manifest.deterministic,
            cases,
            generator,
        })
    } else {
        Err(v.problems)
    }
}
