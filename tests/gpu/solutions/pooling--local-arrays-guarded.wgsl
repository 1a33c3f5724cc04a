// expect: passed
// Correct: dynamic indices into a function-scope array, a private array, a
// `let` array, a vector and an override-sized workgroup array, all in bounds.
override BLOCK: u32 = 64u;
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, BLOCK>;
var<private> taps: array<u32, 3>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
    let i = lid.x;
    let n = arrayLength(&a);
    if (i < n) { smem[i] = a[i]; }
    workgroupBarrier();
    for (var k = 0u; k < 3u; k++) { taps[k] = k; }
    if (i < n) {
        let weights = array<f32, 3>(1.0, 1.0, 1.0);
        var w = array<f32, 3>(0.0, 0.0, 0.0);
        var v = vec3<f32>(0.0);
        for (var k = 0u; k < 3u; k++) {
            let back = taps[k];
            if (i >= back) { w[k] = smem[i - back]; }
            v[k] = w[k] * weights[k];
        }
        out[i] = v[0] + v[1] + v[2];
    }
}
