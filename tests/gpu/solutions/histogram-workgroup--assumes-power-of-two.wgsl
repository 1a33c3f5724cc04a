// expect: failed
// Wrong on purpose: takes the index within the workgroup as global_id.x & (wgs.x - 1), which
// is global_id.x mod wgs.x only for a power of two. With 63 invocations per workgroup ("edge:
// sizes that are not powers of two") it is always even, so the odd bins are never merged
// into `bins` and most even ones are merged twice.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>>;
var<workgroup> local_bins: array<atomic<u32>, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let i = global_id.x;
    // The index within the workgroup: i mod wgs.x.
    let l = i & (u32(wgs.x) - 1u);
    if (i < arrayLength(&a)) {
        let bin = u32(floor(a[i]));
        atomicAdd(&local_bins[bin], 1u);
    }
    workgroupBarrier();
    let nbins = arrayLength(&bins);
    for (var j = l; j < nbins; j += u32(wgs.x)) {
        let count = atomicLoad(&local_bins[j]);
        if (count > 0u) {
            atomicAdd(&bins[j], count);
        }
    }
}
