// expect: memory-error in some cases
// message: out-of-bounds
// Wrong on purpose: the gather forgets the right edge. Every invocation runs
// all len(b) taps, so the last len(b) - 1 outputs read a[i + j] past the end
// of `a` (a GPU may return 0 there, or another element, or anything in
// between: the result is not defined). Cases with one tap read nothing past
// the end and pass.
@group(0) @binding(0) var<storage, read> a: array<i32>;
@group(0) @binding(1) var<storage, read> b: array<i32>;
@group(0) @binding(2) var<storage, read_write> out: array<i32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let i = global_id.x;
    if (i >= arrayLength(&a)) {
        return;
    }
    var sum: i32 = 0;
    for (var j = 0u; j < arrayLength(&b); j++) {
        sum += a[i + j] * b[j];
    }
    out[i] = sum;
}
