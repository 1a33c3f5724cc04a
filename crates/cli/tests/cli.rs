//! The `gpu-puzzles` binary, run as workshop hosts and CI run it.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs the binary; its exit status and stdout followed by stderr, for
/// the human-readable commands.
fn gpu_puzzles(args: &[&str], root: &Path) -> (bool, String) {
    let out = command(args, root).output().expect("the binary runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

fn command(args: &[&str], root: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gpu-puzzles"));
    c.args(args).arg("--root").arg(root);
    c
}

/// A `--json` command's exit status, its stdout parsed as JSON (alone: a
/// driver may print on stderr, and that must not break the report), and
/// both streams as text for failure messages.
///
/// # Panics
/// When stdout is not one JSON document.
fn gpu_puzzles_json(mut c: Command) -> (bool, serde_json::Value, String) {
    let out = c.output().expect("the binary runs");
    let (stdout, stderr) =
        (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let text = format!("stdout:\n{stdout}\nstderr:\n{stderr}");
    let json = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("stdout is not one JSON document ({e}); {text}"));
    (out.status.success(), json, text)
}

/// The slugs of `puzzles/index.toml`, in order.
fn index_order() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("puzzles/index.toml")).unwrap();
    let index: toml::Value = toml::from_str(&text).unwrap();
    // The chapters' puzzles, one chapter after another.
    let chapters =
        index["chapter"].as_array().expect("index.toml groups the puzzles in [[chapter]] tables");
    chapters
        .iter()
        .flat_map(|c| c["puzzles"].as_array().unwrap())
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// `gpu-puzzles check` of a whole set, as a workshop host runs it before a
/// class: a set of the host's own, here three puzzles copied from the
/// shipped one into a chapter of their own (a plain puzzle, and two with
/// performance cases, one bound by memory bandwidth and one by arithmetic).
/// That every shipped puzzle's reference passes and its starter fails on
/// this adapter is the `puzzles` binary's to check, one trial each
/// (`tests/gpu`, `<slug>::reference` and `<slug>::starter`); judging the
/// whole shipped set again here took 270 s of CI on lavapipe.
#[test]
fn check_passes_on_a_workshops_own_set() {
    const SET: [&str; 3] = ["map", "coalesced-access", "tiled-matmul"];
    let order = index_order();
    assert!(SET.iter().all(|s| order.iter().any(|o| o == s)), "shipped puzzles: {order:?}");
    let tmp = std::env::temp_dir().join(format!("gpu-puzzles-own-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(tmp.join("shaders")).unwrap();
    for slug in SET {
        let (from, to) = (root().join("puzzles").join(slug), tmp.join("puzzles").join(slug));
        std::fs::create_dir_all(&to).unwrap();
        for file in std::fs::read_dir(&from).unwrap() {
            let file = file.unwrap();
            std::fs::copy(file.path(), to.join(file.file_name())).unwrap();
        }
        let shader = format!("shaders/{slug}.wgsl");
        std::fs::copy(root().join(&shader), tmp.join(&shader)).unwrap();
    }
    let list = SET.map(|s| format!("{s:?}")).join(", ");
    std::fs::write(
        tmp.join("puzzles/index.toml"),
        format!(
            "format_version = 1\n\n[[chapter]]\ntitle = \"Our workshop\"\npuzzles = [{list}]\n"
        ),
    )
    .unwrap();
    let (ok, text) = gpu_puzzles(&["check"], &tmp);
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(ok, "{text}");
    assert!(text.contains(&format!("{} puzzles", SET.len())), "{text}");
    assert_eq!(text.matches("fails (good)").count(), SET.len(), "{text}");
    // Every performance case reports the reference kernel's rate.
    assert!(text.contains("GFLOP/s") && text.contains("GB/s"), "{text}");
}

#[test]
fn a_performance_case_reports_both_kernels() {
    let solution = root().join("shaders/matmul-register.wgsl");
    let (ok, report, text) = gpu_puzzles_json(command(
        &[
            "check",
            "--puzzle",
            "matmul-register",
            "--solution",
            solution.to_str().unwrap(),
            "--json",
        ],
        &root(),
    ));
    assert!(ok, "{text}");
    let cases = report["cases"].as_array().unwrap();
    let perf = cases
        .iter()
        .find(|c| c["name"].as_str().unwrap().starts_with("performance"))
        .expect("a performance case");
    assert_eq!(perf["outcome"]["status"], "passed", "{text}");
    for timing in [&perf["timing"], &perf["reference_timing"]] {
        assert!(timing["wall_ms"].as_f64().unwrap() > 0.0, "{text}");
    }
    assert!(perf.get("findings").is_none(), "performance cases run without instrumentation");
    let is_perf = |c: &&serde_json::Value| c["name"].as_str().unwrap().starts_with("performance");
    assert!(cases.iter().filter(|c| !is_perf(c)).all(|c| c.get("findings").is_some()), "{text}");
    // lavapipe is a software adapter: the 2048³ case is for hardware GPUs
    // only, and counts neither way.
    let large = cases
        .iter()
        .find(|c| c["name"].as_str().unwrap().contains("2048"))
        .expect("the 2048³ case");
    assert_eq!(large["outcome"]["status"], "omitted", "{text}");
    assert_eq!(report["status"], "passed", "{text}");
}

#[test]
fn list_json_gives_every_puzzle_in_order() {
    let (ok, rows, text) = gpu_puzzles_json(command(&["list", "--json"], &root()));
    assert!(ok, "{text}");
    let slugs: Vec<&str> =
        rows.as_array().unwrap().iter().map(|r| r["slug"].as_str().unwrap()).collect();
    assert_eq!(slugs, index_order());
    assert_eq!(rows[0]["chapter"], "Basics");
    let (ok, text) = gpu_puzzles(&["list"], &root());
    assert!(ok && text.starts_with("Basics (") && text.contains("\nWorkgroup memory ("), "{text}");
}

#[test]
fn judging_a_wrong_solution_exits_non_zero_with_a_json_report() {
    let wrong = root().join("tests/gpu/solutions/broadcast--swapped-a-b.wgsl");
    let mut c = command(
        &["check", "--puzzle", "broadcast", "--solution", wrong.to_str().unwrap(), "--json"],
        &root(),
    );
    // A shader cache whose parent folder does not exist, as on a machine
    // with no ~/.cache: Mesa disables its cache and says so on stderr. The
    // report on stdout stays one JSON document.
    let missing = std::env::temp_dir().join(format!("gpu-puzzles-no-such-{}", std::process::id()));
    c.env("MESA_SHADER_CACHE_DIR", missing.join("parent/mesa-shader-cache"));
    let (ok, report, text) = gpu_puzzles_json(c);
    assert!(!ok, "{text}");
    assert!(!missing.exists(), "the binary made no folder of its own: {text}");
    assert_eq!(report["status"], "failed", "{text}");
    let statuses: Vec<&str> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["outcome"]["status"].as_str().unwrap())
        .collect();
    assert!(statuses.contains(&"mismatch"), "{statuses:?}");
}

#[test]
fn a_malformed_puzzle_folder_is_rejected_with_file_line_and_field() {
    let tmp = std::env::temp_dir().join(format!("gpu-puzzles-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(tmp.join("puzzles/map")).unwrap();
    std::fs::create_dir_all(tmp.join("shaders")).unwrap();
    for f in ["statement.md", "starter.wgsl"] {
        std::fs::copy(root().join("puzzles/map").join(f), tmp.join("puzzles/map").join(f)).unwrap();
    }
    std::fs::write(tmp.join("puzzles/index.toml"), "format_version = 1\norder = [\"map\"]\n")
        .unwrap();
    let manifest = std::fs::read_to_string(root().join("puzzles/map/puzzle.toml")).unwrap();
    std::fs::write(
        tmp.join("puzzles/map/puzzle.toml"),
        manifest.replacen("workgroup_size = [6, 1, 1]", "workgroup_size = [0, 1, 1]", 1),
    )
    .unwrap();
    std::fs::write(tmp.join("puzzles/map/notes.txt"), "stray").unwrap();
    let (ok, text) = gpu_puzzles(&["check"], &tmp);
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(!ok, "{text}");
    assert!(text.contains("puzzles/map/puzzle.toml:"), "{text}");
    assert!(text.contains("case 1 › workgroup_size"), "{text}");
    assert!(text.contains("puzzles/map/notes.txt: stray file"), "{text}");
}

#[test]
fn a_seed_sweep_names_the_seeds_whose_verdict_differs() {
    // Special-cases the written sizes of Map: only some draws catch it.
    let overfit = root().join("tests/gpu/solutions/map--first-twenty-only.wgsl");
    let (ok, text) = gpu_puzzles(
        &["check", "--puzzle", "map", "--solution", overfit.to_str().unwrap(), "--seeds", "1..30"],
        &root(),
    );
    assert!(!ok, "{text}");
    let seeds: Vec<&str> = text.lines().filter(|l| l.trim_start().starts_with("seed ")).collect();
    assert!(seeds.len() >= 2, "the first seed and at least one that differs: {text}");
    assert!(text.contains("seeds give a verdict other than seed 1's"), "{text}");
    assert!(text.contains("random case"), "a differing seed names its failing case: {text}");
    // The reference passes on every seed.
    let reference = root().join("shaders/map.wgsl");
    let (ok, text) = gpu_puzzles(
        &[
            "check",
            "--puzzle",
            "map",
            "--solution",
            reference.to_str().unwrap(),
            "--seeds",
            "1..=30",
        ],
        &root(),
    );
    assert!(ok, "{text}");
    assert!(text.contains("the same verdict, passed, on all 30 seeds"), "{text}");
    // A kernel that assumes a power-of-two workgroup size fails a written
    // case, so no seed can pass it.
    let pow2 = root().join("tests/gpu/solutions/scan-across-workgroups--assumes-power-of-two.wgsl");
    let (ok, text) = gpu_puzzles(
        &[
            "check",
            "--puzzle",
            "scan-across-workgroups",
            "--solution",
            pow2.to_str().unwrap(),
            "--seeds",
            "1..200",
        ],
        &root(),
    );
    assert!(!ok, "{text}");
    assert!(text.contains("so the verdict is failed on every seed"), "{text}");
    let (ok, text) = gpu_puzzles(
        &["check", "--puzzle", "map", "--solution", reference.to_str().unwrap(), "--seeds", "9..2"],
        &root(),
    );
    assert!(!ok && text.contains("the first seed is after the last"), "{text}");
}

/// Issue 34's two learners' kernels: the findings are one per mistake, told
/// in full once, with the advice that fits, a line for every access, and a
/// bounded amount of text (it was 137 and 140 lines before grouping).
#[test]
fn a_beginners_race_is_one_finding_told_once_with_advice_that_fits() {
    let judge = |slug: &str, file: &str| {
        let path = root().join("tests/gpu/solutions").join(file);
        let (ok, text) = gpu_puzzles(
            &["check", "--puzzle", slug, "--solution", path.to_str().unwrap(), "--seed", "7"],
            &root(),
        );
        assert!(!ok, "{text}");
        text
    };
    let cases = |text: &str| {
        text.lines().filter(|l| l.starts_with("  Case ") || l.starts_with("  random case ")).count()
    };

    // Every invocation adds into out[0]: a lost update, which no barrier fixes.
    let text = judge("dot-product", "dot-product--accumulates-into-one-element.wgsl");
    assert_eq!(text.matches("lost update: `out[0]`").count(), 1, "told in full once: {text}");
    assert!(text.contains("No barrier fixes this") && text.contains("atomicAdd"), "{text}");
    assert!(
        !text.contains("storageBarrier") && !text.contains("scan"),
        "no barrier or scan advice for a lost update: {text}"
    );
    assert!(text.contains("the same mistake as in Case 1"), "{text}");
    assert!(text.lines().count() <= 3 * cases(&text) + 4, "{} lines: {text}", text.lines().count());

    // Every invocation computes every output through one shared window.
    let text = judge("conv-1d", "conv-1d--every-invocation-every-output.wgsl");
    assert_eq!(text.matches("write conflict: `window[0]`").count(), 1, "told in full once: {text}");
    assert!(
        text.contains("read-after-write race") && text.contains("workgroupBarrier()"),
        "{text}"
    );
    assert!(!text.contains("at no line"), "every access has its line: {text}");
    assert!(text.lines().count() <= 4 * cases(&text) + 4, "{} lines: {text}", text.lines().count());
}

#[test]
fn generate_refuses_a_kernel_its_puzzle_fails_and_runs_one_that_solves_it() {
    // RMS Norm with eps outside the square root: its drift is too small to
    // change a token, so only its puzzle's cases catch it.
    let wrong = root().join("tests/gpu/solutions/rms-norm--eps-outside-sqrt.wgsl");
    let kernel = format!("rms-norm={}", wrong.display());
    let (ok, text) = gpu_puzzles(
        &["generate", "--prompt", "In the", "--tokens", "2", "--kernel", &kernel],
        &root(),
    );
    assert!(!ok, "{text}");
    assert!(text.contains("does not solve RMS Norm (case "), "{text}");
    assert!(text.contains("gpu-puzzles check --puzzle rms-norm --solution"), "{text}");
    let right = root().join("shaders/rms-norm.wgsl");
    let kernel = format!("rms-norm={}", right.display());
    let (ok, report, text) = gpu_puzzles_json(command(
        &["generate", "--prompt", "In the", "--tokens", "2", "--kernel", &kernel, "--json"],
        &root(),
    ));
    assert!(ok, "{text}");
    assert_eq!(report["tokens"].as_array().map(Vec::len), Some(2), "{text}");
    assert!(report["faults"].as_array().is_some_and(Vec::is_empty), "{text}");
    // Every kernel the step checks has its largest deviation named, within
    // what the check allows (the run had no fault).
    let drift = report["drift"].as_array().expect("a drift list");
    let kernels: Vec<&str> = drift.iter().filter_map(|d| d["kernel"].as_str()).collect();
    assert_eq!(kernels, ["decode-attention", "gemv-q8", "rms-norm", "rope", "swiglu"], "{text}");
    for d in drift {
        let share = d["share"].as_f64().expect("a share");
        assert!((0.0..1.0).contains(&share), "{d}");
        assert!(d["deviation"].as_f64().is_some_and(|x| x >= 0.0), "{d}");
        assert!(d["position"].as_u64().is_some_and(|p| p < 8), "{d}");
    }
}

/// The pixels of an 8-bit RGBA PNG: width, height and `width × height × 4`
/// bytes, row-major.
fn read_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    assert_eq!((info.color_type, info.bit_depth), (png::ColorType::Rgba, png::BitDepth::Eight));
    pixels.truncate(info.buffer_size());
    (info.width, info.height, pixels)
}

#[test]
fn check_writes_each_shown_cases_pictures_with_the_wrong_pixels_marked() {
    // Box Blur's held kernel that assumes power-of-two sizes: its shown
    // case of 7 × 9 is wrong in 62 of 63 elements (the judge's count, from
    // the CPU reference), the other shown cases right.
    let wrong = root().join("tests/gpu/solutions/box-blur--assumes-power-of-two.wgsl");
    let dir = std::env::temp_dir().join(format!("gpu-puzzles-images-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut c = command(
        &["check", "--puzzle", "box-blur", "--solution", wrong.to_str().unwrap(), "--json"],
        &root(),
    );
    c.arg("--images").arg(&dir).args(["--seed", "3"]);
    let (ok, report, text) = gpu_puzzles_json(c);
    assert!(!ok, "{text}");
    assert!(text.contains("PNG files written to"), "{text}");
    let cases = report["cases"].as_array().unwrap();
    let mut checked = 0;
    for case in cases.iter().filter(|c| !c["hidden"].as_bool().unwrap()) {
        let n = case["case"].as_u64().unwrap();
        let input = dir.join(format!("case-{n}-input-a.png"));
        if !input.exists() {
            // Random cases carry no shape: they are grids, not pictures.
            assert!(case["name"].as_str().unwrap().starts_with("random"), "case {n}: {text}");
            continue;
        }
        let (w, h, _) = read_png(&input);
        for kind in ["expected", "actual", "difference"] {
            let (kw, kh, _) = read_png(&dir.join(format!("case-{n}-{kind}-out.png")));
            assert_eq!((kw, kh), (w, h), "case {n}'s {kind} image has the input's size");
        }
        let (_, _, diff) = read_png(&dir.join(format!("case-{n}-difference-out.png")));
        let marked = diff.chunks_exact(4).filter(|p| p[..3] == [0xd5, 0x5e, 0x00]).count();
        let differ = match case["outcome"]["status"].as_str().unwrap() {
            "passed" => 0,
            "mismatch" => case["outcome"]["total"].as_u64().unwrap() as usize,
            other => panic!("case {n}: unexpected outcome {other}"),
        };
        assert_eq!(marked, differ, "case {n}: wrong pixels marked against elements that differ");
        checked += 1;
    }
    assert!(checked >= 4, "the shown cases' pictures were written ({checked}): {text}");
    assert!(cases
        .iter()
        .any(|c| c["outcome"]["status"] == "mismatch" && !c["hidden"].as_bool().unwrap()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_plays_each_shown_case_of_several_steps_as_frames() {
    // Jacobi's shown cases of 2, 7, 12 and 3 steps (the second has one step:
    // nothing to play). Each frame is the grid after that many steps; the
    // last frame of the buffer holding the result is the expected picture.
    let solution = root().join("shaders/jacobi.wgsl");
    let dir = std::env::temp_dir().join(format!("gpu-puzzles-frames-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut c = command(
        &["check", "--puzzle", "jacobi", "--solution", solution.to_str().unwrap()],
        &root(),
    );
    c.arg("--frames").arg(&dir).arg("--images").arg(&dir);
    let out = c.output().expect("the CLI runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    for (case, steps) in [(1, 2), (3, 7), (4, 12), (5, 3)] {
        let line =
            format!("frames: case {case}, {steps} of {steps} steps, {} PNG files", 2 * steps);
        assert!(text.contains(&line), "{line:?} in {text}");
        let digits = steps.to_string().len();
        for k in 1..=steps {
            for b in ["a", "b"] {
                let f = dir.join(format!("case-{case}-{b}-step-{k:0digits$}.png"));
                assert!(f.exists(), "{}", f.display());
            }
        }
        // After the last step the result is in buffer `steps % 2`: its frame
        // is the expected picture, pixel for pixel (same scale).
        let result = if steps % 2 == 0 { "a" } else { "b" };
        let last = read_png(&dir.join(format!("case-{case}-{result}-step-{steps}.png")));
        let expected = read_png(&dir.join(format!("case-{case}-expected-{result}.png")));
        // (Within one grey level: the values agree within the puzzle's
        // tolerance, which can cross a level's rounding.)
        assert_eq!((last.0, last.1), (expected.0, expected.1), "case {case}: same size");
        let worst = last.2.iter().zip(&expected.2).map(|(a, b)| a.abs_diff(*b)).max();
        assert!(
            worst <= Some(1),
            "case {case}: the last frame is the expected picture ({worst:?})"
        );
    }
    assert!(!text.contains("frames: case 2,"), "a single step is not played: {text}");
    assert!(text.contains("steps/s of the kernel alone"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `show` prints Tree Reduction's reference for its first case as each
/// target: its workgroup size filled in, the barrier and the workgroup
/// memory in each language's words, the judge's counters in the
/// instrumented form; a kernel that does not parse exits non-zero with
/// naga's message, and an unknown target names the known ones.
#[test]
fn show_prints_a_kernel_as_each_driver_receives_it() {
    let root = root();
    let solution = root.join("shaders/tree-reduction.wgsl");
    let file = solution.to_str().expect("a UTF-8 path");
    let show = |target: &str| {
        let args = ["show", "--puzzle", "tree-reduction", "--solution", file, "--target", target];
        let out = command(&args, &root).output().expect("the binary runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{target}: {}", String::from_utf8_lossy(&out.stderr));
        text
    };
    let wgsl = show("wgsl");
    assert!(!wgsl.contains("{{workgroupSize}}") && wgsl.contains("workgroupBarrier"), "{wgsl}");
    for (target, words) in [
        ("msl", ["threadgroup_barrier", "threadgroup"]),
        ("hlsl", ["GroupMemoryBarrierWithGroupSync", "groupshared"]),
        ("spirv", ["OpControlBarrier", "Workgroup"]),
        ("glsl", ["barrier()", "shared"]),
    ] {
        let text = show(target);
        assert!(words.iter().all(|w| text.contains(w)), "{target} lacks {words:?}:\n{text}");
    }
    let instrumented = show("instrumented");
    assert!(instrumented.len() > wgsl.len() && instrumented.contains("atomic"), "{instrumented}");

    let broken = std::env::temp_dir().join("gpu-puzzles-show-broken.wgsl");
    std::fs::write(&broken, "@compute @workgroup_size(1) fn main() { let x = ; }").unwrap();
    let (ok, text) = gpu_puzzles(
        &[
            "show",
            "--puzzle",
            "tree-reduction",
            "--solution",
            broken.to_str().unwrap(),
            "--target",
            "msl",
        ],
        &root,
    );
    assert!(!ok && text.contains("naga does not accept the shader"), "{text}");
    let (ok, text) = gpu_puzzles(
        &[
            "show",
            "--puzzle",
            "tree-reduction",
            "--solution",
            solution.to_str().unwrap(),
            "--target",
            "ptx",
        ],
        &root,
    );
    assert!(!ok && text.contains("no target `ptx`") && text.contains("spirv"), "{text}");
}
