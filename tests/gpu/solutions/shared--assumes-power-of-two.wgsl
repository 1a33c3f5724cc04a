// expect: failed
// Wrong on purpose: reads element i back from smem[i & (wgs.x - 1)], which is i mod wgs.x
// only when wgs.x is a power of two. With 63 invocations per workgroup ("edge: sizes that
// are not powers of two") most invocations read another invocation's slot, or an empty one.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
) {
    let i = global_id.x;
    let n = arrayLength(&a);
    if (i < n) {
        smem[local_id.x] = a[i];
    }
    workgroupBarrier();
    if (i < n) {
        // Element i was staged at i mod wgs.x.
        out[i] = smem[i & (u32(wgs.x) - 1u)] + 10.0;
    }
}
