// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> tmp: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> block_counts: array<u32>;
var<workgroup> smem: array<u32, {{smemSize}}>;
var<workgroup> hist: array<atomic<u32>, 16>;

// The pass's source: keys for the low pass, tmp for the high pass. (WGSL
// cannot take a storage buffer as a function argument everywhere, so a
// flag picks it.)
fn source_key(high: bool, g: u32) -> u32 {
    if (high) {
        return tmp[g];
    }
    return keys[g];
}

// The pass's destination: tmp for the low pass, out for the high pass.
fn store_key(high: bool, at: u32, key: u32) {
    if (high) {
        out[at] = key;
    } else {
        tmp[at] = key;
    }
}

// The digit a pass sorts by: bits 0-3 (low) or 4-7 (high).
fn digit_of(key: u32, high: bool) -> u32 {
    if (high) {
        return (key >> 4u) & 15u;
    }
    return key & 15u;
}

fn count_pass(high: bool, i: u32, k: u32) {
    let g = k * u32(wgs.x) + i;
    // TODO: write how many keys of this workgroup's block have each digit d
    // to block_counts[16 * k + d], all 16 of them (zeros included).
}

fn scatter_pass(high: bool, i: u32, k: u32, groups: u32) {
    let g = k * u32(wgs.x) + i;
    // TODO: this copies every key to its own index. Send it to its place
    // instead: the keys with a lower digit in all workgroups, plus the keys
    // with its digit in the workgroups before k, plus the keys with its
    // digit before it in its own workgroup.
    if (g < arrayLength(&keys)) {
        store_key(high, g, source_key(high, g));
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
) {
    scatter_pass(false, local_id.x, workgroup_id.x, u32(twg.x));
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
) {
    scatter_pass(true, local_id.x, workgroup_id.x, u32(twg.x));
}
