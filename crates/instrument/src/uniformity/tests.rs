use super::*;

const HEAD: &str = "@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, 64>;
";

fn check(body: &str) -> Option<NonUniformBarrier> {
    let src = format!(
        "{HEAD}@compute @workgroup_size(64)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {{
{body}
}}
"
    );
    naga::front::wgsl::parse_str(&src)
        .unwrap_or_else(|e| panic!("{}\n{src}", e.emit_to_string(&src)));
    check_barriers(&src)
}

#[test]
fn a_barrier_after_an_early_return_is_non_uniform() {
    let e =
        check("    let i = lid.x;\n    if (i >= arrayLength(&a)) { return; }\n    smem[i] = a[i];\n    workgroupBarrier();\n    out[i] = smem[0];").unwrap();
    assert_eq!((e.line, e.cause, e.cause_line), (9, Cause::Return, Some(7)), "{e:?}");
    assert!(e.message().contains("`workgroupBarrier()`"), "{}", e.message());
}

#[test]
fn a_barrier_under_a_non_uniform_condition_is_non_uniform() {
    let e = check("    if (lid.x < 32u) {\n        workgroupBarrier();\n    }").unwrap();
    assert_eq!((e.line, e.cause, e.cause_line), (7, Cause::Condition, Some(6)));
}

#[test]
fn uniform_shapes_are_accepted() {
    // Guards around the work, not the barrier; loops with uniform
    // bounds; conditions on workgroup_id; a variable made uniform again.
    for body in [
        "    let i = lid.x;\n    if (i < arrayLength(&a)) { smem[i] = a[i]; }\n    workgroupBarrier();\n    if (i == 0u) { out[0] = smem[0]; }",
        "    for (var s = 32u; s > 0u; s /= 2u) {\n        if (lid.x < s) { smem[lid.x] += smem[lid.x + s]; }\n        workgroupBarrier();\n    }",
        "    if (wid.x == 0u) { workgroupBarrier(); }",
        "    var v = lid.x;\n    v = 3u;\n    if (v == 3u) { workgroupBarrier(); }",
        "    for (var t = 0u; t < arrayLength(&a); t += 64u) {\n        var x = 0.0;\n        if (t + lid.x < arrayLength(&a)) { x = a[t + lid.x]; }\n        smem[lid.x] = x;\n        workgroupBarrier();\n        workgroupBarrier();\n    }",
        "    let n = workgroupUniformLoad(&smem[0]);\n    if (n > 1.0) { workgroupBarrier(); }",
    ] {
        assert_eq!(check(body), None, "{body}");
    }
}

#[test]
fn loops_that_only_some_invocations_leave_are_non_uniform() {
    let e =
        check("    for (var i = lid.x; i < 64u; i += 8u) {\n        workgroupBarrier();\n    }")
            .unwrap();
    assert_eq!(e.line, 7);
    let e = check("    var x = 0.0;\n    loop {\n        x = smem[lid.x];\n        if (x > 1.0) { break; }\n        workgroupBarrier();\n    }").unwrap();
    assert_eq!(e.line, 10);
}

#[test]
fn values_from_workgroup_memory_are_non_uniform() {
    let e = check("    if (smem[0] > 0.0) { workgroupBarrier(); }").unwrap();
    assert_eq!(e.cause, Cause::Condition);
}

#[test]
fn helpers_with_barriers_need_uniform_call_sites() {
    let src = format!(
        "{HEAD}fn sync() {{ workgroupBarrier(); }}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {{
if (lid.x == 0u) {{ sync(); }}
}}
"
    );
    let e = check_barriers(&src).unwrap();
    assert_eq!(e.line, 7);
    assert!(e.barrier.contains("`sync`"), "{e:?}");
    let fine = src.replace("if (lid.x == 0u) { sync(); }", "sync();");
    assert_eq!(check_barriers(&fine), None);
}

#[test]
fn subgroup_operations_need_uniform_control_flow() {
    let sub = |body: &str| {
        let src = format!(
            "enable subgroups;\n{HEAD}@compute @workgroup_size(64)\nfn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(subgroup_size) n: u32) {{\n{body}\n}}\n"
        );
        check_barriers(&src)
    };
    let e = sub("    var s = 0.0;\n    if (lid.x < arrayLength(&a)) { s = subgroupAdd(a[lid.x]); }\n    out[lid.x] = s;").unwrap();
    assert_eq!((e.line, e.cause), (8, Cause::Condition), "{e:?}");
    assert!(
        e.message().contains("`subgroupAdd()` must be called in uniform control flow"),
        "{}",
        e.message()
    );
    let e =
        sub("    if (lid.x == 0u) { return; }\n    out[lid.x] = subgroupShuffleXor(a[lid.x], 1u);")
            .unwrap();
    assert_eq!(e.cause, Cause::Return);
    // A neutral value instead of a guard, and a condition on the subgroup
    // size, which is uniform.
    assert_eq!(sub("    let v = select(0.0, a[lid.x], lid.x < arrayLength(&a));\n    out[lid.x] = subgroupAdd(v);"), None);
    assert_eq!(sub("    if (n >= 8u) { out[lid.x] = subgroupAdd(1.0); }"), None);
    // The diagnostic directive turns the rule off.
    let src = format!("enable subgroups;\ndiagnostic(off, subgroup_uniformity);\n{HEAD}@compute @workgroup_size(64)\nfn main(@builtin(local_invocation_id) lid: vec3<u32>) {{\n    if (lid.x < 3u) {{ out[0] = subgroupAdd(1.0); }}\n}}\n");
    assert_eq!(check_barriers(&src), None);
}
