//! Tests of random cases: the expression language, seeded draws, and the
//! errors a generator reports.

use super::*;

#[test]
fn expressions_compute_integers() {
    let env: BTreeMap<String, i64> = [("n".to_string(), 13), ("w".to_string(), 4)].into();
    let e = |s: &str| parse(s).unwrap().eval(&env).unwrap();
    assert_eq!(e("ceil_div(n, w) * w - n"), 3);
    assert_eq!(e("(n + 1) / 2 % 4"), 3);
    assert_eq!(e("max(min(n, 2), -w) + pow2(3)"), 10);
    assert!(parse("n +").is_err());
    assert!(parse("sqrt(n)").is_err());
    assert!(parse("m").unwrap().eval(&env).unwrap_err().contains("`m`"));
}

#[test]
fn a_generator_draws_the_same_case_for_the_same_seed() {
    let spec: crate::format::ManifestFile = toml::from_str(
        r#"
format_version = 1
title = "t"
[generator]
vars = ["w in 1..=8", "n in 1..=w * 4"]
[generator.case]
workgroup_size = ["=w", 1, 1]
workgroups = ["=ceil_div(n, w)", 1, 1]
buffers.a = { random = { len = "=n", min = -9, max = 9, seed = "=seed" } }
"#,
    )
    .unwrap();
    let g = Generator::new(spec.generator.as_ref().unwrap()).unwrap();
    let (a, b) = (g.draw(7).unwrap(), g.draw(7).unwrap());
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
    for seed in 0..50 {
        let c = g.draw(case_seed(seed, 0)).unwrap();
        let n = c.buffers["a"].random.unwrap().len;
        assert!(c.workgroup_size[0] * c.workgroups[0] >= n && c.workgroups[0] >= 1);
    }
}

#[test]
fn errors_say_which_variable_or_expression() {
    let spec = |vars: &str, case: &str| -> crate::format::GeneratorSpec {
        let m: crate::format::ManifestFile =
            toml::from_str(&format!("format_version = 1\ntitle = \"t\"\n[generator]\nvars = [{vars}]\n[generator.case]\n{case}")).unwrap();
        m.generator.unwrap()
    };
    let e = Generator::new(&spec(
        "\"w from 1 to 4\"",
        "workgroup_size = [1, 1, 1]\nworkgroups = [1, 1, 1]",
    ))
    .unwrap_err();
    assert!(
        matches!(&e, GeneratorError::Variable { text, .. } if text == "w from 1 to 4"),
        "{e:?}"
    );
    let e = Generator::new(&spec(
        "\"w in 1..=4\"",
        "workgroup_size = [\"=sqrt(w)\", 1, 1]\nworkgroups = [1, 1, 1]",
    ))
    .unwrap_err();
    assert!(matches!(&e, GeneratorError::Expression { text, .. } if text == "sqrt(w)"), "{e:?}");
    let g = Generator::new(&spec(
        "\"w in 4..=4\", \"n in w..=w - 1\"",
        "workgroup_size = [\"=w\", 1, 1]\nworkgroups = [1, 1, 1]",
    ))
    .unwrap();
    assert_eq!(
        g.draw(1).unwrap_err(),
        GeneratorError::EmptyRange { var: "n".into(), lo: 4, hi: 3 }
    );
    let g = Generator::new(&spec(
        "\"w in 0..=0\"",
        "workgroup_size = [\"=4 / w\", 1, 1]\nworkgroups = [1, 1, 1]",
    ))
    .unwrap();
    assert!(matches!(g.draw(1).unwrap_err(), GeneratorError::Compute { .. }));
    let g = Generator::new(&spec(
        "\"w in 1..=1\"",
        "workgroup_size = [\"=w\", 1]\nworkgroups = [1, 1, 1]",
    ))
    .unwrap();
    let e = g.draw(1).unwrap_err();
    assert!(matches!(&e, GeneratorError::NotACase { vars, .. } if vars == "w = 1"), "{e:?}");
    assert!(e.to_string().starts_with("with w = 1: the case is not valid"), "{e}");
}
