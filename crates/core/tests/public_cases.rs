//! The classic puzzles reproduce the public puzzle site's 31 test cases:
//! same configurations, same inputs, and CPU reference outputs equal to the
//! expected values published there (`tests/data/answerai-testcases.json`).

use gpu_puzzles_core::load::{load_puzzle_set, read_dir, read_solutions};
use gpu_puzzles_core::{PuzzleSet, Role};
use serde_json::Value;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn puzzles() -> PuzzleSet {
    let files = read_dir(&root().join("puzzles")).expect("puzzles/ is readable");
    let solutions = read_solutions(&root().join("shaders")).expect("shaders/ is readable");
    match load_puzzle_set(&files, Some(&solutions)) {
        Ok(set) => set,
        Err(problems) => panic!(
            "the puzzle set has problems:\n{}",
            problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n")
        ),
    }
}

fn triple(v: &Value) -> [u32; 3] {
    let a: Vec<u32> = v
        .as_array()
        .expect("a 3-vector")
        .iter()
        .map(|x| x.as_u64().expect("an integer") as u32)
        .collect();
    [a[0], a[1], a[2]]
}

fn floats(v: &Value) -> Vec<f32> {
    v.as_array().expect("an array").iter().map(|x| x.as_f64().expect("a number") as f32).collect()
}

fn pair(v: &Value) -> Option<[u32; 2]> {
    let s: Vec<u32> = v.as_array()?.iter().map(|x| x.as_u64().unwrap() as u32).collect();
    Some([s[0], s[1]])
}

#[test]
fn every_public_case_is_reproduced() {
    let text = std::fs::read_to_string(root().join("tests/data/answerai-testcases.json"))
        .expect("the reference data is present");
    let data: Vec<Value> = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(data.len(), 14, "the reference data lists 14 puzzles");
    let set = puzzles();
    let mut checked = 0;
    for entry in &data {
        let number = entry["puzzle"].as_u64().unwrap() as usize;
        let puzzle = &set.puzzles[number - 1];
        assert_eq!(puzzle.title, entry["title"].as_str().unwrap(), "puzzle {number} title");
        let bindings: Vec<&str> =
            entry["bindings"].as_array().unwrap().iter().map(|b| b.as_str().unwrap()).collect();
        let ours: Vec<&str> = puzzle.buffers.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(ours, bindings, "{}: buffers in binding order", puzzle.slug);
        for (k, tc) in entry["testCases"].as_array().unwrap().iter().enumerate() {
            let case = &puzzle.cases[k];
            let at = format!("{} case {}", puzzle.slug, k + 1);
            assert!(!case.hidden, "{at}: public cases are shown");
            assert_eq!(
                case.config.workgroup_size,
                triple(&tc["workgroupSize"]),
                "{at}: workgroup size"
            );
            assert_eq!(case.config.workgroups, triple(&tc["totalWorkgroups"]), "{at}: workgroups");
            assert_eq!(
                case.config.workgroup_memory,
                tc.get("sharedMemorySize").map(triple),
                "{at}: workgroup memory"
            );
            for (b, cb) in puzzle.buffers.iter().zip(&case.buffers) {
                if b.role == Role::Input {
                    let want = floats(&tc["inputs"][&b.name]);
                    assert_eq!(
                        cb.initial.as_f32().unwrap(),
                        want.as_slice(),
                        "{at}: input {}",
                        b.name
                    );
                } else {
                    let want = floats(&tc["expected"]);
                    let got = cb.expected.as_ref().unwrap().as_f32().unwrap();
                    assert_eq!(got, want.as_slice(), "{at}: expected {}", b.name);
                }
            }
            if let Some(shape) = tc.get("inputShape").and_then(pair) {
                assert_eq!(case.buffers[0].shape, Some(shape), "{at}: input shape");
            }
            if let Some(shape) = tc.get("expectedShape").and_then(pair) {
                assert_eq!(case.buffers.last().unwrap().shape, Some(shape), "{at}: output shape");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 31, "all 31 public cases checked");
}

#[test]
fn every_puzzle_has_hidden_and_non_arange_cases() {
    let set = puzzles();
    assert!(set.puzzles.len() >= 27, "the 14 classic puzzles and at least 13 more");
    for p in &set.puzzles {
        assert!(p.cases.iter().any(|c| c.hidden), "{}: a hidden case", p.slug);
        assert!(
            p.cases.iter().filter(|c| !c.is_performance()).count() >= 3,
            "{}: three ordinary cases",
            p.slug
        );
        assert!(p.hints.len() >= 2, "{}: two hints", p.slug);
        assert!(p.solution.is_some(), "{}: a reference solution", p.slug);
        // FFT's rows are powers of two, each one workgroup of n / 2
        // invocations: no size of it can be ragged.
        if p.number > 14 && p.slug != "fft" {
            // The later puzzles label the case whose size does not fit the workgroups evenly.
            assert!(
                p.cases.iter().any(|c| c.name.starts_with("ragged")),
                "{}: a ragged case",
                p.slug
            );
            continue;
        }
        if p.number > 14 {
            continue;
        }
        let negative = p.cases.iter().any(|c| {
            c.buffers.iter().any(|b| b.initial.as_f32().is_some_and(|v| v.iter().any(|&x| x < 0.0)))
        });
        assert!(negative, "{}: a case with negative, non-arange inputs", p.slug);
    }
}

#[test]
fn performance_cases_generate_nothing_until_used() {
    let set = puzzles();
    let perf: Vec<_> = set
        .puzzles
        .iter()
        .flat_map(|p| p.cases.iter().filter(|c| c.is_performance()).map(move |c| (p, c)))
        .collect();
    assert!(
        perf.len() >= 6,
        "histograms, access patterns, matrix products and divergence are timed"
    );
    for (p, c) in perf {
        assert!(
            c.buffers.iter().all(|b| !b.initial.is_generated()),
            "{}: case {} generated its data at load",
            p.slug,
            c.number
        );
    }
    // The largest: a 1024³ product, 2^31 operations, checked by the CPU reference on demand.
    let p = set.get("matmul-register").unwrap();
    let case = p.cases.iter().find(|c| c.is_performance()).unwrap();
    assert_eq!(case.performance.unwrap().flops, Some(2 * 1024 * 1024 * 1024));
    let expected = p.expected(case).unwrap();
    let whole = expected[0].whole().expect("the 1024³ case is checked whole");
    assert_eq!(whole.len(), 1024 * 1024);
    let (a, b) =
        (case.buffers[0].initial.as_f32().unwrap(), case.buffers[1].initial.as_f32().unwrap());
    let spot =
        |i: usize, j: usize| (0..1024).map(|l| a[i * 1024 + l] * b[l * 1024 + j]).sum::<f32>();
    for (i, j) in [(0, 0), (511, 3), (1023, 1023)] {
        assert_eq!(whole.get(i * 1024 + j), spot(i, j) as f64, "out[{i}][{j}]");
    }
}

#[test]
fn a_sampled_case_checks_distinct_elements_computed_independently() {
    let set = puzzles();
    let p = set.get("matmul-register").unwrap();
    let case = p
        .cases
        .iter()
        .find(|c| c.performance.is_some_and(|x| x.sample.is_some()))
        .expect("a sampled 2048³ case");
    let (count, n) = (case.performance.unwrap().sample.unwrap() as usize, 2048);
    let expected = p.expected(case).unwrap();
    let elements = expected[0].elements.expect("sampled");
    assert_eq!((elements.len(), expected[0].values.len()), (count, count));
    assert!(elements.windows(2).all(|w| w[0] < w[1]), "ascending and distinct");
    assert_eq!(
        (elements[0], elements[count - 1]),
        (0, n * n - 1),
        "the first and the last are always checked"
    );
    // Spread over the rows: every eighth of the output has its share.
    for part in 0..8 {
        let inside = elements.iter().filter(|&&e| e * 8 / (n * n) == part).count();
        assert!(inside > count / 16, "part {part} of 8 has only {inside} of {count} samples");
    }
    let (a, b) =
        (case.buffers[0].initial.as_f32().unwrap(), case.buffers[1].initial.as_f32().unwrap());
    for (e, k) in expected[0].checked().step_by(997) {
        let (i, j) = (e / n, e % n);
        let want = (0..n).map(|l| a[i * n + l] * b[l * n + j]).sum::<f32>();
        assert_eq!(expected[0].values.get(k), want as f64, "out[{i}][{j}]");
    }
}

#[test]
fn two_input_puzzles_have_cases_where_a_differs_from_b() {
    let set = puzzles();
    for slug in ["zip", "broadcast", "dot-product", "matmul"] {
        let p = set.get(slug).unwrap();
        assert!(
            p.cases.iter().any(|c| c.buffers[0].initial != c.buffers[1].initial),
            "{slug}: a case with a != b"
        );
    }
}

#[test]
fn ragged_sizes_are_covered() {
    let set = puzzles();
    for slug in ["guards", "blocks", "blocks-2d", "shared", "prefix-sum"] {
        let p = set.get(slug).unwrap();
        let ragged = p.cases.iter().any(|c| {
            let n = c.buffers[0].initial.len() as u64;
            let per_row = c.buffers[0].shape.map(|[_, cols]| cols as u64).unwrap_or(n);
            per_row % c.config.workgroup_size[0] as u64 != 0
        });
        assert!(ragged, "{slug}: a length that is not a multiple of the workgroup size");
    }
}
