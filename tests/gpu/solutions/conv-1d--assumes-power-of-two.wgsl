// expect: failed
// Wrong on purpose: finds the workgroup's first element by clearing the low bits of the
// global index, global_id.x & ~(wgs.x - 1), which is right only when wgs.x is a power of
// two. With 31 invocations per workgroup ("edge: sizes that are not powers of two") the
// invocations disagree on the start and stage the wrong elements of `a`.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;

const wgs = vec3({{workgroupSize}});

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
) {
    let n = arrayLength(&a);
    let k = arrayLength(&b);
    let i = global_id.x;
    // The workgroup's first element: i with the bits of the local index cleared.
    let start = i & ~(u32(wgs.x) - 1u);
    // The slice and its halo: wgs.x + k - 1 elements, loaded in strides of wgs.x.
    for (var j = local_id.x; j < u32(wgs.x) + k - 1u; j += u32(wgs.x)) {
        let g = start + j;
        smem[j] = select(0.0, a[min(g, n - 1u)], g < n);
    }
    workgroupBarrier();
    if (i < n) {
        var sum = 0.0;
        for (var t = 0u; t < k; t++) {
            sum += smem[local_id.x + t] * b[t];
        }
        out[i] = sum;
    }
}
