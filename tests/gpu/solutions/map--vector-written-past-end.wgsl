// expect: memory-error
// message: wrote `v[3]`, but the variable `v` has 3 elements
// Wrong on purpose: writes v[3] of a vec3 (WebGPU clamps it to v[2], unused).
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i < arrayLength(&out)) {
        var v = vec3<f32>(0.0);
        for (var k = 0u; k <= 3u; k++) { v[k] = 10.0; }
        out[i] = a[i] + v.x;
    }
}
