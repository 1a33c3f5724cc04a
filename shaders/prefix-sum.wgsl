// Prefix Sum (block sums): a tree reduction in workgroup memory.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;

const wgs = vec3({{workgroupSize}});

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let g = global_id.x;
    let n = arrayLength(&a);
    smem[i] = select(0.0, a[min(g, n - 1u)], g < n);
    workgroupBarrier();
    for (var stride = 1u; stride < u32(wgs.x); stride *= 2u) {
        if (i % (2u * stride) == 0u && i + stride < u32(wgs.x)) {
            smem[i] += smem[i + stride];
        }
        workgroupBarrier();
    }
    if (i == 0u && workgroup_id.x < arrayLength(&out)) {
        out[workgroup_id.x] = smem[0];
    }
}
