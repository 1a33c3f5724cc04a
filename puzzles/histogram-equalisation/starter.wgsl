// Histogram Equalisation: three entry points, dispatched in this order.
@group(0) @binding(0) var<storage, read> img: array<u32>;
@group(0) @binding(1) var<storage, read_write> hist: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> cdf: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;

@compute @workgroup_size({{workgroupSize}})
fn histogram(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(num_workgroups) num_workgroups: vec3<u32>,
) {
    // TODO: count this workgroup's pixels in workgroup memory, then add
    // each of its 256 counts into hist once.
}

@compute @workgroup_size({{workgroupSize}})
fn scan(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // TODO: in workgroup 0, cdf[j] = hist[0] + ... + hist[j].
}

@compute @workgroup_size({{workgroupSize}})
fn map(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(num_workgroups) num_workgroups: vec3<u32>,
) {
    // TODO: find m, the first non-zero entry of cdf, then map every pixel.
}
