// expect: failed in random cases
// Fits the written cases only, on purpose: it handles the first 20 elements
// and special-cases the 64-element case, so it passes every written case of
// Map (1 to 13 elements, and 64). No written case can catch a kernel that
// special-cases the written sizes; random cases of 21 to 63 elements do, and
// the browser tests draw them with seed 1 to show a failing random case.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let i = local_id.x;
    if (i < 20u || arrayLength(&a) == 64u) {
        out[i] = a[i] + 10.0;
    }
}
