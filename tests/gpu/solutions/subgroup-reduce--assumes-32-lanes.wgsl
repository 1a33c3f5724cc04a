// expect: memory-error in some cases
// message: depends on the subgroup size
enable subgroups;
// Wrong on purpose: subgroups taken to be 32 lanes wide. The subgroup of
// invocation i is i / 32, its lane i % 32, and a workgroup of 256 has 8 of
// them. Right on a GPU whose subgroups really have 32 lanes. With 8-lane
// subgroups (lavapipe) invocation 0 stores only the sum of invocations 0 to 7,
// invocation 32 that of 32 to 39, and so on: three quarters of every block
// are lost. With 64 lanes, invocations 0 and 32 both store the sum of 0 to 63,
// which counts it twice. The judge runs each case at every subgroup size from
// 4 to 128: the kernel is right at 32 lanes (and at any size that holds the
// whole workgroup), wrong at 4, so every case of more than 4 invocations
// reports that the result depends on the subgroup size, on any GPU.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> partials: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    var v = 0.0;
    if (global_id.x < arrayLength(&a)) {
        v = a[global_id.x];
    }
    let s = subgroupAdd(v);
    if (i % 32u == 0u) {
        partials[i / 32u] = s;
    }
    workgroupBarrier();
    let count = (W + 31u) / 32u;
    var t = 0.0;
    if (i < count) {
        t = partials[i];
    }
    let total = subgroupAdd(t);
    if (i == 0u) {
        out[workgroup_id.x] = total;
    }
}
