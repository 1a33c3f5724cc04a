// Histogram in Workgroup Memory: per-workgroup counts, merged once per bin.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>>;
var<workgroup> local_bins: array<atomic<u32>, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
) {
    let i = global_id.x;
    if (i < arrayLength(&a)) {
        let bin = u32(floor(a[i]));
        atomicAdd(&local_bins[bin], 1u);
    }
    workgroupBarrier();
    let nbins = arrayLength(&bins);
    for (var j = local_id.x; j < nbins; j += u32(wgs.x)) {
        let count = atomicLoad(&local_bins[j]);
        if (count > 0u) {
            atomicAdd(&bins[j], count);
        }
    }
}
