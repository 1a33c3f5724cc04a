enable subgroups;
// Faster with Subgroups: one sum per block of wgs.x elements, as in Block
// Sum, but the adding happens inside subgroups. Each subgroup adds its
// elements with one subgroupAdd; the subgroups' sums meet in workgroup memory
// behind a single barrier; the first subgroup adds those up with a second
// subgroupAdd. Nothing here assumes a subgroup size: it is read from
// `sg_size`, and the workgroup need not be a multiple of it.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x); // invocations per workgroup: any number from 1 to 256

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

// One cell per subgroup; {{smemSize}} is wgs.x, more than the at most
// ceil(wgs.x / 4) subgroups a workgroup can have.
var<workgroup> partials: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
    @builtin(subgroup_size) sg_size: u32,
    @builtin(subgroup_invocation_id) lane: u32,
) {
    let i = local_id.x;

    // One element per invocation; past the end of `a` it counts as 0. The
    // load sits in the `if`, the subgroup operation outside it: every
    // invocation must call subgroupAdd, so that it runs in uniform control
    // flow.
    var v = 0.0;
    if (global_id.x < arrayLength(&a)) {
        v = a[global_id.x];
    }
    let subgroup_sum = subgroupAdd(v);

    // Subgroup s holds the invocations s * sg_size … (s + 1) * sg_size - 1.
    // Its lane 0 publishes the subgroup's sum. The count of subgroups is
    // rounded up: when wgs.x is not a multiple of sg_size, the last subgroup
    // is only partly filled, and its sum counts all the same.
    if (lane == 0u) {
        partials[i / sg_size] = subgroup_sum;
    }
    let count = (W + sg_size - 1u) / sg_size;

    // The only barrier: after it every subgroup's sum is in `partials`.
    workgroupBarrier();

    // The first subgroup adds the partial sums. There can be more of them
    // than it has lanes (4-lane subgroups in a workgroup of 256 leave 64),
    // so lane l takes partials l, l + sg_size, l + 2 * sg_size, … The other
    // subgroups hold 0 and join the second subgroupAdd only to keep it in
    // uniform control flow; their result is not used.
    var t = 0.0;
    if (i < sg_size) {
        for (var k = lane; k < count; k += sg_size) {
            t += partials[k];
        }
    }
    let total = subgroupAdd(t);

    // One write per workgroup.
    if (i == 0u && workgroup_id.x < arrayLength(&out)) {
        out[workgroup_id.x] = total;
    }
}
