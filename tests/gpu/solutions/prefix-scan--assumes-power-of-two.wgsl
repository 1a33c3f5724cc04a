// expect: failed
// Wrong on purpose: runs log2(wgs.x) rounds with log2 taken as firstLeadingBit(wgs.x), which
// rounds down and is exact only for a power of two. With 127 invocations ("edge: sizes that
// are not powers of two") it stops after offset 32, so out[i] for i >= 64 sums only the 64
// elements ending at i.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let i = local_id.x;
    let n = arrayLength(&a);
    var v = 0.0;
    if (i < n) {
        v = a[i];
    }
    smem[i] = v;
    workgroupBarrier();
    // log2(wgs.x) rounds, with offsets 1, 2, 4, ...
    let rounds = firstLeadingBit(u32(wgs.x));
    for (var r = 0u; r < rounds; r++) {
        let offset = 1u << r;
        var left = 0.0;
        if (i >= offset) {
            left = smem[i - offset];
        }
        workgroupBarrier();
        smem[i] += left;
        workgroupBarrier();
    }
    if (i < n) {
        out[i] = smem[i];
    }
}
