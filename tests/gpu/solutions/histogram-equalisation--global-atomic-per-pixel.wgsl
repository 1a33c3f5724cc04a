// expect: over-budget in some cases
// message: per workgroup
// Wrong on purpose: the values are right, but every pixel is counted with an
// atomicAdd on hist in device memory, the previous puzzle's way: a workgroup
// writes its share of the pixels twice (once into hist, once into out), and
// goes over the budget of 1024 + ceil(n / G) writes wherever that share is
// above about 768 pixels (the photographs and the larger pictures). On
// small pictures the two ways write about as much, and it passes.
const wgs = vec3({{workgroupSize}}); // (256, 1, 1): one invocation per level

@group(0) @binding(0) var<storage, read> img: array<u32>;
@group(0) @binding(1) var<storage, read_write> hist: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> cdf: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;

var<workgroup> counts: array<atomic<u32>, 256>; // histogram: this workgroup's counts
var<workgroup> partial: array<u32, 256>;        // scan: the running totals so far
var<workgroup> first_nonzero: u32;              // map: m

@compute @workgroup_size({{workgroupSize}})
fn histogram(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(num_workgroups) num_workgroups: vec3<u32>,
) {
    // Every invocation of the dispatch visits every stride-th pixel: the
    // workgroups do not depend on the picture's size.
    let n = arrayLength(&img);
    let stride = u32(wgs.x) * num_workgroups.x;
    for (var i = global_id.x; i < n; i += stride) {
        atomicAdd(&hist[img[i]], 1u);
    }
}

@compute @workgroup_size({{workgroupSize}})
fn scan(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // One workgroup is enough for 256 bins. The condition is the same for
    // every invocation of a workgroup, so the barriers below stay uniform.
    if (workgroup_id.x != 0u) {
        return;
    }
    let j = local_id.x;
    partial[j] = atomicLoad(&hist[j]);
    workgroupBarrier();
    // Hillis-Steele: after the step with distance d, partial[j] holds the
    // sum of the 2d bins up to j (fewer near the start).
    for (var d = 1u; d < 256u; d *= 2u) {
        var left = 0u;
        if (j >= d) {
            left = partial[j - d];
        }
        workgroupBarrier(); // every read of this step before any write
        partial[j] += left;
        workgroupBarrier(); // every write before the next step's reads
    }
    cdf[j] = partial[j];
}

@compute @workgroup_size({{workgroupSize}})
fn map(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(num_workgroups) num_workgroups: vec3<u32>,
) {
    // m: cdf never decreases, so exactly one level j has cdf[j] > 0 and
    // nothing before it (cdf[255] = n is at least 1).
    let j = local_id.x;
    if (cdf[j] != 0u && (j == 0u || cdf[j - 1u] == 0u)) {
        first_nonzero = cdf[j];
    }
    workgroupBarrier();
    let m = first_nonzero;
    let n = arrayLength(&img);
    let spread = n - m; // 0 when the picture has one level
    let stride = u32(wgs.x) * num_workgroups.x;
    for (var i = global_id.x; i < n; i += stride) {
        let v = img[i];
        if (spread == 0u) {
            out[i] = v;
        } else {
            // Multiply first (at most n * 255 + n / 2, far below 2^32), and
            // add half the divisor so that the division rounds to nearest.
            out[i] = ((cdf[v] - m) * 255u + spread / 2u) / spread;
        }
    }
}
