// expect: memory-error
// message: read `weights[3]`, but the value `weights` has 3 elements
// Wrong on purpose: indexes a `let` array of 3 weights with k up to 3; the
// fourth product is 0 * weights[3], so the sums look right.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
    let i = lid.x;
    let n = arrayLength(&a);
    if (i < n) { smem[i] = a[i]; }
    workgroupBarrier();
    if (i < n) {
        let v = vec4<f32>(smem[i], select(0.0, smem[max(i, 1u) - 1u], i >= 1u), select(0.0, smem[max(i, 2u) - 2u], i >= 2u), 0.0);
        let weights = array<f32, 3>(1.0, 1.0, 1.0);
        var s = 0.0;
        for (var k = 0u; k < 4u; k++) { s += v[k] * weights[k]; }
        out[i] = s;
    }
}
