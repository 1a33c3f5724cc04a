// expect: memory-error in some cases
// message: lost update
// Wrong on purpose: the scatter with a plain `out[p - j] += a[p] * b[j]`.
// That is a load, an add and a store, and up to len(b) invocations update one
// output: two that load the same value before either stores lose an addition.
// With one tap (the cases "one tap: 50 elements" and "edge: the smallest
// sizes allowed") each output has a single writer and the kernel is right.
@group(0) @binding(0) var<storage, read> a: array<i32>;
@group(0) @binding(1) var<storage, read> b: array<i32>;
@group(0) @binding(2) var<storage, read_write> out: array<i32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let p = global_id.x;
    if (p >= arrayLength(&a)) {
        return;
    }
    let taps = min(arrayLength(&b), p + 1u);
    for (var j = 0u; j < taps; j++) {
        out[p - j] += a[p] * b[j];
    }
}
