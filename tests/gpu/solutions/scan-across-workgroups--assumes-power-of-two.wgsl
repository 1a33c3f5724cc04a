// expect: failed
// Wrong on purpose: add_offsets adds up the earlier block sums with a tree in workgroup memory
// whose stride halves from wgs.x / 2, which pairs up every partial sum only when wgs.x is a
// power of two. In "edge: 46 invocations per workgroup, not a power of two" the strides are
// 23, 11, 5, 2, 1, and smem[4] is never added in: workgroups 5 and 6 leave out block 4's total.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read_write> block_sums: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;

// Dispatched first: scan each block, and record its total.
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
    if (g < n) {
        out[g] = smem[i];
    }
    if (i == u32(wgs.x) - 1u && workgroup_id.x < arrayLength(&block_sums)) {
        block_sums[workgroup_id.x] = smem[i];
    }
}

// Dispatched second: the whole workgroup adds up the totals of the blocks
// before this one, a tree reduction in smem, instead of one invocation alone.
@compute @workgroup_size({{workgroupSize}})
fn add_offsets(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    var part = 0.0;
    for (var w = i; w < workgroup_id.x; w += u32(wgs.x)) {
        part += block_sums[w];
    }
    smem[i] = part;
    workgroupBarrier();
    for (var s = u32(wgs.x) / 2u; s > 0u; s /= 2u) {
        if (i < s) {
            smem[i] += smem[i + s];
        }
        workgroupBarrier();
    }
    let offset = smem[0];
    let g = global_id.x;
    if (g < arrayLength(&out)) {
        out[g] += offset;
    }
}
