// expect: memory-error
// message: read `s.taps[2]`, but the private variable `s.taps` has 2 elements
// Wrong on purpose: reads s.taps[2] of a private struct's array of 2, times 0.
struct S { pad: f32, taps: array<f32, 2> }
var<private> s: S;
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i < arrayLength(&out)) {
        s.taps[0] = 10.0;
        s.taps[1] = 0.0;
        var t = 0.0;
        for (var k = 0u; k < 3u; k++) { t += s.taps[k % 3u] * select(1.0, 0.0, k == 2u); }
        out[i] = a[i] + t;
    }
}
