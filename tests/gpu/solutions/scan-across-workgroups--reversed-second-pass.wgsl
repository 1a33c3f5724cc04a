// expect: passed
// Correct: the second dispatch walks the elements in reverse, so `out[e]` is
// written by one invocation in `scan_blocks` and by another in
// `add_offsets`. The dispatch boundary orders them: no conflict.
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
    if (g < n) {
        out[g] = smem[i];
    }
    if (i == u32(wgs.x) - 1u && workgroup_id.x < arrayLength(&block_sums)) {
        block_sums[workgroup_id.x] = smem[i];
    }
}

@compute @workgroup_size({{workgroupSize}})
fn add_offsets(@builtin(global_invocation_id) global_id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let n = arrayLength(&out);
    let total = groups.x * u32(wgs.x);
    let e = total - 1u - global_id.x;
    if (e < n) {
        var sum = 0.0;
        for (var w = 0u; w < e / u32(wgs.x); w++) {
            sum += block_sums[w];
        }
        out[e] += sum;
    }
}
