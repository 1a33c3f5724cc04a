// expect: failed
// Wrong on purpose: builds the index as (workgroup_id.x << log2(wgs.x)) + local_id.x, taking
// log2 as countTrailingZeros(wgs.x), which holds only for a power of two. With 63 invocations
// per workgroup ("edge: sizes that are not powers of two") the shift is 0: the 1008
// invocations count a[0..77] over and over and never see the rest.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>>;

const wgs = vec3({{workgroupSize}});

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // log2 of the workgroup size: how many low bits the local index takes.
    let shift = countTrailingZeros(u32(wgs.x));
    let i = (workgroup_id.x << shift) + local_id.x;
    if (i < arrayLength(&a)) {
        let bin = u32(floor(a[i]));
        atomicAdd(&bins[bin], 1u);
    }
}
