// expect: failed
// Wrong on purpose: packs the index as (workgroup_id.x << bits) | local_id.x, with bits
// the width of a local index, which is dense only when wgs.x is a power of two. With 63
// invocations per workgroup the blocks sit 64 apart, so out[63], out[127] and out[191]
// are never written ("edge: sizes that are not powers of two").
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

const wgs = vec3({{workgroupSize}});

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // local_id.x fits in the low `bits` bits; the workgroup id goes above them.
    let bits = 32u - countLeadingZeros(u32(wgs.x) - 1u);
    let i = (workgroup_id.x << bits) | local_id.x;
    if (i < arrayLength(&a)) {
        out[i] = a[i] + 10.0;
    }
}
