// expect: memory-error in some cases
// message: in different workgroups of one dispatch of `scan_blocks`
// Wrong on purpose: each workgroup adds the block sums that earlier
// workgroups wrote in the same dispatch. Nothing orders workgroups within a
// dispatch, so it often reads them before they are written (always on some
// GPUs). The second entry point does nothing.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read_write> block_sums: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn scan_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let g = global_id.x;
    let n = arrayLength(&a);
    var v = 0.0;
    if (g < n) {
        v = a[g];
    }
    smem[i] = v;
    workgroupBarrier();
    for (var d = 1u; d < u32(wgs.x); d *= 2u) {
        var left = 0.0;
        if (i >= d) {
            left = smem[i - d];
        }
        workgroupBarrier();
        smem[i] += left;
        workgroupBarrier();
    }
    var offset = 0.0;
    for (var w = 0u; w < workgroup_id.x; w++) {
        offset += block_sums[w];
    }
    if (g < n) {
        out[g] = smem[i] + offset;
    }
    if (i == u32(wgs.x) - 1u && workgroup_id.x < arrayLength(&block_sums)) {
        block_sums[workgroup_id.x] = smem[i];
    }
}

@compute @workgroup_size({{workgroupSize}})
fn add_offsets(@builtin(global_invocation_id) global_id: vec3<u32>) {
}
