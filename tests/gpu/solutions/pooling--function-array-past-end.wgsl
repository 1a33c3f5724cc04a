// expect: memory-error
// message: read `w[3]`, but the variable `w` has 3 elements
// Wrong on purpose: right sums, but the second loop reads w[3] of a
// function-scope array of 3 (WebGPU clamps it to w[2], so the sum looks right).
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
        var w = array<f32, 3>(0.0, 0.0, 0.0);
        for (var k = 0u; k < 3u; k++) {
            if (i >= k) { w[k] = smem[i - k]; }
        }
        var last = 0.0;
        for (var k = 0u; k <= 3u; k++) { last = w[k]; }
        out[i] = w[0] + w[1] + last;
    }
}
