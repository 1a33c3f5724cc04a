// expect: memory-error in some cases
// Wrong on purpose: no workgroupBarrier() between lane 0 of each subgroup storing its
// partial sum and the first subgroup reading all of them. The partials come from other
// subgroups, which nothing makes the reader wait for: a race in workgroup memory, which
// the racecheck names where the GPU's subgroups split the workgroup. A workgroup that
// is a single subgroup on the GPU that runs it (5 invocations, 8 lanes) shows the bug
// only at a narrower size, where the subgroup check finds the sum wrong ("depends on
// the subgroup size"): hence no `// message:` line. A workgroup of one invocation has
// no one to race with.
enable subgroups;
const wgs = vec3<u32>({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> partials: array<f32, 64>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(subgroup_size) sg_size: u32,
    @builtin(subgroup_invocation_id) lane: u32,
) {
    var v = 0.0;
    if (gid.x < arrayLength(&a)) {
        v = a[gid.x];
    }
    let sg_sum = subgroupAdd(v);
    let sg = lid.x / sg_size;
    if (lane == 0u) {
        partials[sg] = sg_sum;
    }
    let count = (wgs.x + sg_size - 1u) / sg_size;
    var share = 0.0;
    if (sg == 0u) {
        for (var k = lane; k < count; k += sg_size) {
            share += partials[k];
        }
    }
    let total = subgroupAdd(share);
    if (lid.x == 0u && wid.x < arrayLength(&out)) {
        out[wid.x] = total;
    }
}
