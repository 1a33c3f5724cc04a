// expect: failed
// Wrong on purpose: takes subgroupAdd for a sum over the whole workgroup and writes it
// from invocation 0. It adds only the lanes of invocation 0's own subgroup; the sums of
// the other subgroups never reach it. Right only when the workgroup fits in one subgroup
// (every workgroup of 32 or fewer invocations on a GPU with 32 lanes).
enable subgroups;

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(workgroup_id) wid: vec3<u32>,
) {
    var v = 0.0;
    if (gid.x < arrayLength(&a)) {
        v = a[gid.x];
    }
    let total = subgroupAdd(v);
    if (lid.x == 0u && wid.x < arrayLength(&out)) {
        out[wid.x] = total;
    }
}
