// expect: failed
// Wrong on purpose: the first three invocations of a workgroup load the
// halo, one element each, so a workgroup of fewer than 3 invocations leaves
// part of it unloaded (zero). Not a power-of-two assumption: written cases
// with one invocation per workgroup and several workgroups catch it.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;
const wgs = vec3({{workgroupSize}});
@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let n = arrayLength(&a);
    let start = wid.x * u32(wgs.x);
    let g = start + lid.x;
    smem[lid.x] = select(0.0, a[min(g, n - 1u)], g < n);
    if (lid.x < 3u) {
        let h = start + u32(wgs.x) + lid.x;
        smem[u32(wgs.x) + lid.x] = select(0.0, a[min(h, n - 1u)], h < n);
    }
    workgroupBarrier();
    if (g < n) {
        var sum = 0.0;
        for (var t = 0u; t < 4u; t++) { sum += smem[lid.x + t] * b[t]; }
        out[g] = sum;
    }
}
