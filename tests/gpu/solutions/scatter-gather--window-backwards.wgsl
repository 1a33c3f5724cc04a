// expect: failed
// Wrong on purpose: the gather runs the window the wrong way, adding
// a[i - j]·b[j] over j ≤ i (the textbook convolution, with the filter
// flipped) instead of a[i + j]·b[j]. It reads only inside `a`, so there is
// no memory finding: the values are wrong wherever there is more than one
// tap. In the first case out[0] is a[0]·b[0] = 1 instead of -2.
@group(0) @binding(0) var<storage, read> a: array<i32>;
@group(0) @binding(1) var<storage, read> b: array<i32>;
@group(0) @binding(2) var<storage, read_write> out: array<i32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let i = global_id.x;
    if (i >= arrayLength(&a)) {
        return;
    }
    let taps = min(arrayLength(&b), i + 1u);
    var sum: i32 = 0;
    for (var j = 0u; j < taps; j++) {
        sum += a[i - j] * b[j];
    }
    out[i] = sum;
}
