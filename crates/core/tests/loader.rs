//! The loader on the new manifest fields: each mistake a host can make gives a
//! problem naming the file and the field, starting from the shipped set.

use gpu_puzzles_core::load::{
    load_one_puzzle, load_puzzle_set, read_dir, PERFORMANCE_SIZES_LINE, SIZES_LINE,
};

mod common;
use common::{problems_after, replace, shipped};

#[test]
fn the_shipped_set_loads() {
    assert_eq!(problems_after(|_| {}), "");
}

/// One puzzle loaded alone (as the site's judge loads it) is the set's
/// puzzle: same number, same data; a slug the index does not list, or one
/// whose folder is broken, gives a problem naming it.
#[test]
fn one_puzzle_loads_alone_as_it_loads_in_its_set() {
    let files = shipped();
    let set = load_puzzle_set(&files, None).expect("the shipped set loads");
    for p in &set.puzzles {
        let alone = load_one_puzzle(&files, &p.slug).expect("each shipped puzzle loads alone");
        assert_eq!(alone.number, p.number, "{}", p.slug);
        let json = |p| serde_json::to_string(p).expect("a puzzle serialises");
        assert_eq!(json(&alone), json(p), "{}", p.slug);
    }
    let problems = |r: Result<_, Vec<gpu_puzzles_core::Problem>>| match r {
        Ok(_) => panic!("loaded"),
        Err(ps) => ps.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n"),
    };
    let p = problems(load_one_puzzle(&files, "no-such-puzzle"));
    assert!(p.contains("index.toml") && p.contains("does not list `no-such-puzzle`"), "{p}");
    let mut broken = files.clone();
    replace(&mut broken, "map/puzzle.toml", "title = ", "titel = ");
    let p = problems(load_one_puzzle(&broken, "map"));
    assert!(p.contains("map/puzzle.toml"), "{p}");
}

#[test]
fn chapters_group_the_order_and_hold_every_puzzle_once() {
    let set = load_puzzle_set(&shipped(), None).expect("the shipped set loads");
    assert!(set.chapters.len() >= 5, "{:?}", set.chapters);
    // The chapters tile the order: consecutive, non-empty, every puzzle once.
    let mut next = 0;
    for c in &set.chapters {
        assert_eq!(c.first, next, "{c:?}");
        assert!(c.len > 0, "{c:?}");
        next += c.len;
    }
    assert_eq!(next, set.puzzles.len());
    assert_eq!(set.chapter_of(0).map(|c| c.title.as_str()), Some("Basics"));

    let p = problems_after(|f| replace(f, "index.toml", "\"zip\", ", ""));
    assert!(p.contains("a puzzle folder that index.toml does not list"), "{p}");
    let p = problems_after(|f| replace(f, "index.toml", "\"shared\", ", "\"shared\", \"map\", "));
    assert!(p.contains("`map` is listed twice"), "{p}");
    let p = problems_after(|f| {
        replace(f, "index.toml", "title = \"Workgroup memory\"", "title = \"Basics\"")
    });
    assert!(
        p.contains(
            "index.toml:9: chapter 2 › title: `Basics` is the title of an earlier chapter too"
        ),
        "{p}"
    );
    let p = problems_after(|f| {
        replace(f, "index.toml", "format_version = 1", "format_version = 1\norder = [\"map\"]")
    });
    assert!(p.contains("not both"), "{p}");
    // A plain list still loads, without chapters.
    let mut files = shipped();
    let set = load_puzzle_set(&files, None).unwrap();
    let slugs: Vec<String> = set.puzzles.iter().map(|p| format!("{:?}", p.slug)).collect();
    files.insert(
        "index.toml".into(),
        format!("format_version = 1\norder = [{}]\n", slugs.join(", ")),
    );
    let plain = load_puzzle_set(&files, None).expect("a plain order loads");
    assert!(plain.chapters.is_empty());
    assert_eq!(plain.puzzles.len(), set.puzzles.len());
}

#[test]
fn a_comparison_kernel_must_be_named_and_present() {
    let p = problems_after(|f| {
        f.insert("divergence/compare-extra.wgsl".into(), "// unlisted\n".into());
    });
    assert!(
        p.contains("divergence/compare-extra.wgsl") && p.contains("no `[[comparison]]` names"),
        "{p}"
    );
    let p = problems_after(|f| {
        replace(
            f,
            "divergence/puzzle.toml",
            "shader = \"compare-split.wgsl\"",
            "shader = \"compare-gone.wgsl\"",
        )
    });
    assert!(p.contains("`compare-gone.wgsl` is not in the puzzle folder"), "{p}");
    let p = problems_after(|f| {
        replace(
            f,
            "divergence/puzzle.toml",
            "shader = \"compare-split.wgsl\"",
            "shader = \"split.wgsl\"",
        )
    });
    assert!(p.contains("name comparison kernels `compare-<name>.wgsl`"), "{p}");
}

#[test]
fn a_performance_case_needs_output_lengths_and_no_hidden_flag() {
    let p = problems_after(|f| {
        replace(f, "divergence/puzzle.toml", "buffers.out = { len = 1048576 }\n", "")
    });
    assert!(
        p.contains("divergence/puzzle.toml") && p.contains("a performance case needs `len`"),
        "{p}"
    );
    let p = problems_after(|f| {
        replace(
            f,
            "divergence/puzzle.toml",
            "performance = { bytes",
            "hidden = true\nperformance = { bytes",
        )
    });
    assert!(p.contains("a performance case shows no data anyway"), "{p}");
    let p = problems_after(|f| {
        replace(
            f,
            "divergence/puzzle.toml",
            "performance = { bytes = 8388608 }",
            "performance = { bytes = 0 }",
        )
    });
    assert!(p.contains("counts must be positive"), "{p}");
}

#[test]
fn a_sample_needs_a_reference_with_a_per_element_form() {
    let p = problems_after(|f| {
        replace(
            f,
            "divergence/puzzle.toml",
            "performance = { bytes = 8388608 }",
            "performance = { bytes = 8388608, sample = 100 }",
        )
    });
    assert!(
        p.contains("divergence/puzzle.toml")
            && p.contains("performance.sample")
            && p.contains("no per-element form")
            && p.contains("matmul"),
        "{p}"
    );
    let p = problems_after(|f| {
        replace(f, "matmul-register/puzzle.toml", "sample = 16384", "sample = 0")
    });
    assert!(p.contains("at least 1"), "{p}");
}

#[test]
fn budgets_and_entry_points_are_checked() {
    let p = problems_after(|f| {
        replace(
            f,
            "tree-reduction/puzzle.toml",
            "global_reads_per_invocation = 2\nglobal_writes_per_workgroup = 1\n",
            "",
        )
    });
    assert!(
        p.contains("tree-reduction/puzzle.toml")
            && p.contains("budget")
            && p.contains("sets no limit"),
        "{p}"
    );
    let p = problems_after(|f| {
        replace(f, "scan-across-workgroups/puzzle.toml", "\"add_offsets\"]", "\"scan_blocks\"]")
    });
    assert!(p.contains("`scan_blocks` is listed twice"), "{p}");
}

#[test]
fn dispatch_lists_expand_per_case_and_are_checked() {
    let set = load_puzzle_set(&shipped(), None).expect("the shipped set loads");
    let bitonic =
        set.puzzles.iter().find(|p| p.slug == "bitonic-sort").expect("Bitonic Sort is shipped");
    assert_eq!(bitonic.entry_points, ["sort_blocks", "merge_step"]);
    for case in &bitonic.cases {
        // sort_blocks once, then one merge step per (size, dist): for B
        // blocks of P keys, sizes 2P … BP and log2(size) steps each.
        let p = case.config.workgroup_memory.expect("blocks").iter().product::<u32>();
        let b = case.config.workgroups[0];
        let expected: u32 =
            1 + (1..=b.trailing_zeros()).map(|s| (p << s).trailing_zeros()).sum::<u32>();
        assert_eq!(case.dispatches.len() as u32, expected, "case {}", case.number);
        assert_eq!(case.dispatches[0].entry, 0);
        assert!(case.dispatches[0].uniform.is_none());
        let mut last = (0u32, u32::MAX);
        for d in &case.dispatches[1..] {
            let (u, bytes) = d.uniform.as_ref().expect("merge steps set `step`");
            assert_eq!((d.entry, *u as usize, bytes.len()), (1, 0, 16));
            let word = |k: usize| u32::from_le_bytes(bytes[4 * k..4 * k + 4].try_into().unwrap());
            let (size, dist) = (word(0), word(1));
            assert!(
                size.is_power_of_two() && dist < size && (size, dist) != last,
                "case {}: {size} {dist}",
                case.number
            );
            assert!(
                if size == last.0 { dist == last.1 / 2 } else { dist == size / 2 },
                "case {}",
                case.number
            );
            last = (size, dist);
        }
    }
    let toml = "bitonic-sort/puzzle.toml";
    let p = problems_after(|f| replace(f, toml, "divide = 2", "divide = 1"));
    assert!(
        p.contains("bitonic-sort/puzzle.toml: dispatch 2 › loop 2: give one of `times`"),
        "{p}"
    );
    let p = problems_after(|f| replace(f, toml, "field = \"dist\"", "field = \"distance\""));
    assert!(
        p.contains("`distance` is not a field of uniform `step`")
            && p.contains("no loop sets field `dist`"),
        "{p}"
    );
    let p = problems_after(|f| replace(f, toml, "uniform = \"step\"", "uniform = \"steps\""));
    assert!(p.contains("dispatch 2 › uniform: no `[[uniform]]` is named `steps`"), "{p}");
    let p = problems_after(|f| replace(f, toml, "to = \"=1\"", "to = \"=1 / wgs_q\""));
    assert!(p.contains("case 1 › dispatch") && p.contains("wgs_q"), "{p}");
    let p = problems_after(|f| {
        replace(
            f,
            toml,
            "format_version = 1\n",
            "format_version = 1\nentry_points = [\"sort_blocks\"]\n",
        )
    });
    assert!(p.contains("give `entry_points` or `[[dispatch]]`, not both"), "{p}");
    let p = problems_after(|f| {
        replace(f, toml, "[[case]]\n", "[[case]]\nuniforms.step = { size = 8, dist = 4 }\n")
    });
    assert!(p.contains("case 1 › uniforms.step: is set per dispatch by `[[dispatch]]`"), "{p}");
}

#[test]
fn budget_formulas_parse_and_read_only_the_case() {
    let formula = "global_reads_per_workgroup = \"=2 * (wgs_x + 2) * (wgs_y + 2)\"";
    let p = problems_after(|f| {
        replace(
            f,
            "box-blur/puzzle.toml",
            formula,
            "global_reads_per_workgroup = \"=(wgs_x + 2 * (wgs_y + 2)\"",
        )
    });
    assert!(p.contains("box-blur/puzzle.toml: budget › global_reads_per_workgroup: `=(wgs_x + 2 * (wgs_y + 2)`"), "{p}");
    let p = problems_after(|f| {
        replace(
            f,
            "box-blur/puzzle.toml",
            formula,
            "global_reads_per_workgroup = \"(wgs_x + 2) * (wgs_y + 2)\"",
        )
    });
    assert!(p.contains("is neither a number nor a formula"), "{p}");
    // A variable the case does not have is named, with the ones it has.
    let p = problems_after(|f| {
        replace(f, "box-blur/puzzle.toml", formula, "global_reads_per_workgroup = \"=dims_k * 9\"")
    });
    assert!(
        p.contains("case 1: `dims_k` is not a variable")
            && p.contains("dims_cols, dims_rows, dispatches, groups_x"),
        "{p}"
    );
    let p = problems_after(|f| {
        replace(f, "box-blur/puzzle.toml", formula, "global_reads_per_workgroup = \"=wgs_x - 100\"")
    });
    assert!(p.contains("not a count"), "{p}");
}

#[test]
fn float_random_values_need_an_f32_buffer() {
    let p = problems_after(|f| {
        replace(
            f,
            "divergence/puzzle.toml",
            "max = 4294967295, seed = 2701 }",
            "max = 4294967295, seed = 2701, float = true }",
        )
    });
    assert!(p.contains("`float = true` needs an f32 buffer"), "{p}");
}

#[test]
fn lessons_and_performance_targets_are_checked() {
    let p =
        problems_after(|f| replace(f, "divergence/puzzle.toml", "speedup = 1.3", "speedup = 0.9"));
    assert!(
        p.contains("divergence/puzzle.toml")
            && p.contains("`speedup` is how many times faster the reference runs"),
        "{p}"
    );
    let p = problems_after(|f| {
        replace(f, "divergence/puzzle.toml", "performance_target = 0.7", "performance_target = 1.5")
    });
    assert!(p.contains("performance_target") && p.contains("at most 1"), "{p}");
    let p = problems_after(|f| {
        replace(
            f,
            "map/puzzle.toml",
            "format_version = 1\n",
            "format_version = 1\nperformance_target = 0.5\n",
        )
    });
    assert!(
        p.contains("map/puzzle.toml")
            && p.contains("applies to performance cases, and this puzzle has none"),
        "{p}"
    );
}

#[test]
fn written_cases_must_hold_every_edge_of_the_generator() {
    // Map's largest case made one smaller: 64 elements, the most the
    // generator draws, is in no written case any more.
    let p = problems_after(|f| {
        replace(f, "map/puzzle.toml", "workgroup_size = [64, 1, 1]", "workgroup_size = [63, 1, 1]");
        replace(f, "map/puzzle.toml", "len = 64,", "len = 63,");
    });
    assert!(p.contains("map/puzzle.toml: generator: no written case has `n` = 64, the largest value the generator draws"), "{p}");
    // Scan Across Workgroups with every workgroup size a power of two.
    let p = problems_after(|f| {
        replace(
            f,
            "scan-across-workgroups/puzzle.toml",
            "workgroup_size = [46, 1, 1]",
            "workgroup_size = [32, 1, 1]",
        );
        replace(
            f,
            "scan-across-workgroups/puzzle.toml",
            "workgroup_memory = [46, 1, 1]",
            "workgroup_memory = [32, 1, 1]",
        );
        replace(
            f,
            "scan-across-workgroups/puzzle.toml",
            "workgroups = [7, 1, 1]",
            "workgroups = [10, 1, 1]",
        );
        replace(
            f,
            "scan-across-workgroups/puzzle.toml",
            "workgroup_size = [5, 1, 1]",
            "workgroup_size = [4, 1, 1]",
        );
        replace(
            f,
            "scan-across-workgroups/puzzle.toml",
            "workgroup_memory = [5, 1, 1]",
            "workgroup_memory = [4, 1, 1]",
        );
        replace(
            f,
            "scan-across-workgroups/puzzle.toml",
            "workgroups = [60, 1, 1]",
            "workgroups = [75, 1, 1]",
        );
    });
    assert!(p.contains("scan-across-workgroups/puzzle.toml: generator: no written case has a `w` that is not a power of two"), "{p}");
    assert_eq!(p.lines().count(), 1, "only that edge: {p}");
}

#[test]
fn a_folder_that_cannot_be_read_is_named() {
    let missing = std::env::temp_dir().join(format!("gpu-puzzles-missing-{}", std::process::id()));
    let e = read_dir(&missing).unwrap_err();
    assert!(e.folder && e.path == missing, "{e:?}");
    assert!(e.to_string().starts_with(&format!("cannot read folder {}", missing.display())), "{e}");
    let e = gpu_puzzles_core::load::read_solutions(&missing).unwrap_err();
    assert_eq!(e.source.kind(), std::io::ErrorKind::NotFound, "{e:?}");
}

/// A statement's promises are data (`[[promise]]`): rendered into the
/// statement, and every case held to them. Each way a case or a promise can
/// stray gives a problem naming the file, the line and the quantity.
#[test]
fn promises_are_rendered_and_every_case_is_held_to_them() {
    let files = shipped();
    let set = load_puzzle_set(&files, None).expect("the shipped set loads");
    for p in &set.puzzles {
        for line in [SIZES_LINE, PERFORMANCE_SIZES_LINE] {
            assert!(!p.statement.contains(line), "{}: {line} is left in the statement", p.slug);
        }
        assert!(p.statement.contains("\n## Sizes"), "{}: every statement has its Sizes", p.slug);
    }
    let wg = set.puzzles.iter().find(|p| p.slug == "weight-gradient").expect("shipped");
    assert!(
        wg.statement.contains(
            "- rows of the batch (`dims.batch`): from 1 to 200, a batch may be shorter than one chunk.\n"
        ),
        "{}",
        wg.statement
    );
    assert!(
        wg.statement.contains("- rows of the batch (`dims.batch`): from 64,000 to 262,144.\n"),
        "{}",
        wg.statement
    );
    assert!(wg
        .statement
        .contains("- values of `x` (`x`): from −1 to 1 (not in “the statement's example"));

    let toml = "weight-gradient/puzzle.toml";
    // A written case outside the promise: the case is named with its line,
    // and the random draws outside it too.
    let p = problems_after(|f| replace(f, toml, "range = [1, 200]", "range = [1, 150]"));
    assert!(
        p.contains(
            "case 7 › dims.batch: is 200, outside the promise “rows of the batch: from 1 to 150”"
        ),
        "{p}"
    );
    assert!(p.contains("weight-gradient/puzzle.toml:203: case 7 › dims.batch"), "{p}");
    assert!(p.contains("random case") && p.contains("narrow the generator's `vars`"), "{p}");
    // A performance case beyond a promise that does not say so.
    let p = problems_after(|f| replace(f, toml, "performance = [64000, 262144]\n", ""));
    assert!(
        p.contains("is 64,000, outside the promise “rows of the batch: from 1 to 200”")
            && p.contains("give the promise a `performance` range"),
        "{p}"
    );
    // An end no case reaches.
    let p = problems_after(|f| replace(f, toml, "range = [1, 200]", "range = [1, 300]"));
    assert!(p.contains("no written case reaches the highest end, 300 (the highest is 200)"), "{p}");
    let p = problems_after(|f| {
        replace(f, toml, "performance = [256, 1024]", "performance = [128, 1024]")
    });
    assert!(
        p.contains("no performance case reaches the lowest end, 128 (the lowest is 256)"),
        "{p}"
    );
    // A uniform field without a promise, and a quantity the puzzle lacks.
    let p = problems_after(|f| replace(f, toml, "of = \"dims.n_in\"", "of = \"len(nope)\""));
    assert!(p.contains("`dims.n_in` has no promise"), "{p}");
    assert!(
        p.contains("promise `len(nope)`: `nope` is not a storage buffer of this puzzle"),
        "{p}"
    );
    let p = problems_after(|f| replace(f, toml, "of = \"invocations\"", "of = \"dw\""));
    assert!(p.contains("`dw` is an output: promise the values of inputs only"), "{p}");
    assert!(p.contains("no promise of the workgroup size"), "{p}");
    // `except` names a case that exists.
    let p = problems_after(|f| {
        replace(f, toml, "except = [\"the statement's example", "except = [\"no such case")
    });
    assert!(p.contains("`except` names “no such case: 3 rows"), "{p}");
    // The statement's placeholders.
    let md = "weight-gradient/statement.md";
    let p = problems_after(|f| replace(f, md, "{{sizes}}", "(the sizes)"));
    assert!(p.contains("weight-gradient/statement.md: has no `{{sizes}}` line"), "{p}");
    let p = problems_after(|f| replace(f, md, "{{performance_sizes}}", ""));
    assert!(p.contains("has no `{{performance_sizes}}` line"), "{p}");
    let p = problems_after(|f| {
        let t = f.get_mut(toml).unwrap();
        *t = t.replace("performance = [", "# performance = [");
    });
    assert!(p.contains("has a `{{performance_sizes}}` line but nothing to show there"), "{p}");
}
