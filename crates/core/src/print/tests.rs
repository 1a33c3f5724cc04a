//! Tests of print statements: finding and rewriting the calls, and reading
//! their values back into lines.

use super::*;

fn rewrite(src: &str) -> String {
    let mut edits: Vec<_> = find(src).iter().flat_map(Found::edits).collect();
    edits.sort_by_key(|e| e.0);
    let mut out = String::new();
    let mut at = 0;
    for (start, len, with) in edits {
        out.push_str(&src[at..start]);
        out.push_str(&with);
        at = start + len;
    }
    out.push_str(&src[at..]);
    out
}

#[test]
fn a_print_becomes_named_values_and_a_call() {
    assert_eq!(
        rewrite("x = 1; print(i, a[i] * 2.0);"),
        "x = 1; { var _gp_print_0_0 = i; var _gp_print_0_1 =  a[i] * 2.0; _gp_print(0u); }"
    );
    assert_eq!(rewrite("{print();}"), "{{ _gp_print(0u); }}");
    assert_eq!(rewrite("}print(v,);"), "}{ var _gp_print_0_0 = v; _gp_print(0u); }");
}

#[test]
fn arguments_keep_their_place_and_text() {
    let src = "fn f() {\n  print(f(a, b), array<f32, 2>(1.0, 2.0)[i], vec2<u32>(x, y));\n}";
    let found = find(src);
    assert_eq!(found.len(), 1);
    let s = &found[0].site;
    assert_eq!((s.line, s.column), (2, 3));
    assert_eq!(s.args, ["f(a, b)", "array<f32, 2>(1.0, 2.0)[i]", "vec2<u32>(x, y)"]);
}

#[test]
fn prints_in_comments_expressions_or_a_shaders_own_print_are_left_alone() {
    assert!(find("// print(x);\n/* print(y); /* nested */ print(z); */").is_empty());
    assert!(find("let y = print(x);").is_empty());
    assert!(find("{ print(x) }").is_empty());
    assert!(find("fn print(x: f32) {} fn main() { print(1.0); }").is_empty());
    assert!(find("{ print(x;").is_empty());
    assert_eq!(
        find("{ print(a); print(b); }").iter().map(|f| f.site.id).collect::<Vec<_>>(),
        [0, 1]
    );
}

#[test]
fn a_compilers_message_about_a_print_is_said_in_the_students_terms() {
    assert!(explain("Local variable [1] '_gp_print_0_0' is invalid".into())
        .starts_with("print shows numbers"));
    assert_eq!(explain("unknown identifier `x`".into()), "unknown identifier `x`");
}

#[test]
fn value_names_read_back() {
    assert_eq!(parse_value_name(&value_name(12, 3)), Some((12, 3)));
    assert_eq!(parse_value_name("_gp_print_x_1"), None);
    assert_eq!(parse_value_name("sum"), None);
}
