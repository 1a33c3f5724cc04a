// expect: over-budget in some cases
// message: per workgroup
// Wrong on purpose: the values are right, but each scatter places every key by comparing it
// with all n keys of the source (a "rank sort"), reading n keys from device memory per key
// where a radix sort reads its key once and the workgroup the 16 · groups counts once. The
// budget (8 · wgs.x + 64 · groups reads per workgroup) lets the small cases through, where the
// two counts are close (the example's 6 keys in blocks of 4); the larger workgroups go over.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> tmp: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> block_counts: array<u32>;
var<workgroup> hist: array<atomic<u32>, 16>;

// A pass reads keys (low pass) or tmp (high pass). WGSL cannot take a
// storage buffer as a function argument everywhere, so a flag picks it.
fn source_key(high: bool, g: u32) -> u32 {
    if (high) {
        return tmp[g];
    }
    return keys[g];
}

fn digit_of(key: u32, high: bool) -> u32 {
    if (high) {
        return (key >> 4u) & 15u;
    }
    return key & 15u;
}

// A pass writes tmp (low pass) or out (high pass).
fn store_key(high: bool, at: u32, key: u32) {
    if (high) {
        out[at] = key;
    } else {
        tmp[at] = key;
    }
}

// The reference's counts.
fn count_pass(high: bool, i: u32, k: u32) {
    let g = k * u32(wgs.x) + i;
    if (g < arrayLength(&keys)) {
        atomicAdd(&hist[digit_of(source_key(high, g), high)], 1u);
    }
    workgroupBarrier();
    for (var d = i; d < 16u; d += u32(wgs.x)) {
        block_counts[16u * k + d] = atomicLoad(&hist[d]);
    }
}

// Each key's place, by comparing it with every key of the source: the keys
// with a lower digit, and those with its digit before it.
fn scatter_pass(high: bool, i: u32, k: u32, groups: u32) {
    let n = arrayLength(&keys);
    let g = k * u32(wgs.x) + i;
    if (g < n) {
        let key = source_key(high, g);
        let d = digit_of(key, high);
        var place = 0u;
        for (var j = 0u; j < n; j++) {
            let e = digit_of(source_key(high, j), high);
            if (e < d || (e == d && j < g)) {
                place++;
            }
        }
        store_key(high, place, key);
    }
}

// Dispatched in this order, each once every workgroup of the one before has
// finished.
@compute @workgroup_size({{workgroupSize}})
fn count_low(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    count_pass(false, local_id.x, workgroup_id.x);
}

@compute @workgroup_size({{workgroupSize}})
fn scatter_low(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
    @builtin(num_workgroups) num_workgroups: vec3<u32>,
) {
    scatter_pass(false, local_id.x, workgroup_id.x, num_workgroups.x);
}

@compute @workgroup_size({{workgroupSize}})
fn count_high(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    count_pass(true, local_id.x, workgroup_id.x);
}

@compute @workgroup_size({{workgroupSize}})
fn scatter_high(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
    @builtin(num_workgroups) num_workgroups: vec3<u32>,
) {
    scatter_pass(true, local_id.x, workgroup_id.x, num_workgroups.x);
}
