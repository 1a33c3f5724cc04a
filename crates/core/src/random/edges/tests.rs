//! Tests of the edge search: which edges of a generator's ranges written cases
//! cover, and how the check names the ones they miss.

use super::*;
use crate::format::ManifestFile;

fn generator(text: &str) -> Generator {
    let m: ManifestFile =
        toml::from_str(&format!("format_version = 1\ntitle = \"t\"\n{text}")).unwrap();
    Generator::new(m.generator.as_ref().unwrap()).unwrap()
}

const SCAN: &str = r#"
[generator]
vars = ["w in 1..=64", "n in 1..=300"]
[generator.case]
workgroup_size = ["=w", 1, 1]
workgroups = ["=ceil_div(n, w)", 1, 1]
buffers.a = { random = { len = "=n", min = -9, max = 9, seed = "=seed + 0" } }
"#;

fn check(g: &Generator, cases: &[&str]) -> Vec<String> {
    let tables: Vec<toml::Table> = cases.iter().map(|c| toml::from_str(c).unwrap()).collect();
    // Lengths as the loader gives them: `len` of `random`, or `arange`.
    let len = |t: &toml::Table, name: &str| -> Option<usize> {
        let b = t.get("buffers")?.get(name)?;
        let n = b.get("arange").or_else(|| b.get("random").and_then(|r| r.get("len")))?;
        n.as_integer().map(|n| n as usize)
    };
    let written: Vec<WrittenCase> = tables
        .iter()
        .map(|table| WrittenCase {
            table,
            buffer_len: ["a"]
                .iter()
                .filter_map(|n| Some((n.to_string(), len(table, n)?)))
                .collect(),
        })
        .collect();
    uncovered_edges(g, &written).iter().map(ToString::to_string).collect()
}

#[test]
fn powers_of_two_alone_miss_the_edges_and_the_message_names_them() {
    let g = generator(SCAN);
    let missing = check(
        &g,
        &[
            "workgroup_size = [4, 1, 1]\nworkgroups = [4, 1, 1]\nbuffers.a = { arange = 16 }",
            "workgroup_size = [64, 1, 1]\nworkgroups = [16, 1, 1]\nbuffers.a = { random = { len = 1024, min = 0, max = 1, seed = 1 } }",
        ],
    );
    let text = missing.join("\n");
    assert!(text.contains("`w` = 1, the smallest"), "{text}");
    assert!(text.contains("`w` that is not a power of two") && text.contains("e.g. 63"), "{text}");
    assert!(text.contains("`n` = 1,") && text.contains("`n` = 300"), "{text}");
    assert!(text.contains("`n` that is not a multiple of `w`"), "{text}");
    assert!(!text.contains("`w` = 64"), "64 is in a written case: {text}");
}

#[test]
fn edge_cases_cover_the_generator() {
    let g = generator(SCAN);
    let missing = check(
        &g,
        &[
            "workgroup_size = [1, 1, 1]\nworkgroups = [1, 1, 1]\nbuffers.a = { arange = 1 }",
            "workgroup_size = [46, 1, 1]\nworkgroups = [7, 1, 1]\nbuffers.a = { arange = 300 }",
            "workgroup_size = [64, 1, 1]\nworkgroups = [5, 1, 1]\nbuffers.a = { arange = 300 }",
        ],
    );
    assert!(missing.is_empty(), "{missing:?}");
}

#[test]
fn variables_are_read_back_through_expressions_and_ranges_follow_dependent_bounds() {
    let g = generator(
        r#"
[generator]
vars = ["p in 0..=3", "n in 2..=100", "w in 1..=min(n - 1, 64)", "extra in 0..=1"]
[generator.case]
workgroup_size = ["=pow2(p)", "=w", 1]
workgroups = ["=ceil_div(n, w) + extra", 1, 1]
buffers.a = { random = { len = "=n", min = 0, max = 1, seed = "=seed" } }
"#,
    );
    // `w`'s largest value is 64 (with n from 65 up); `p` is only an
    // exponent, so no odd value of it is asked for.
    let missing = check(
        &g,
        &["workgroup_size = [8, 3, 1]\nworkgroups = [7, 1, 1]\nbuffers.a = { arange = 20 }"],
    );
    let text = missing.join("\n");
    assert!(text.contains("`w` = 64"), "{text}");
    assert!(!text.contains("`p` that is not"), "{text}");
    // extra = 7 - ceil_div(20, 3) = 0 was read back, so only 1 is missing.
    assert!(text.contains("`extra` = 1,") && !text.contains("`extra` = 0,"), "{text}");
    assert!(text.contains("`p` = 0,") && !text.contains("`p` = 3,"), "{text}");
}

#[test]
fn a_variable_no_field_gives_is_named() {
    let g = generator(
        r#"
[generator]
vars = ["a in 1..=4", "b in 1..=4"]
[generator.case]
workgroup_size = ["=a + b", 1, 1]
workgroups = [1, 1, 1]
"#,
    );
    let text = check(&g, &["workgroup_size = [3, 1, 1]\nworkgroups = [1, 1, 1]"]).join("\n");
    assert!(text.contains("no written case gives `a` a value"), "{text}");
}
