// expect: passed
// Correct, another way: the counts come from the digits in workgroup memory without atomics,
// and in each scatter invocation 0 alone gives every key of the block its place, walking the
// block in order, instead of each invocation counting the equal digits before its own.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> tmp: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> block_counts: array<u32>;
var<workgroup> digits: array<u32, {{smemSize}}>;
var<workgroup> starts: array<u32, 16>;
var<workgroup> totals: array<u32, 16>;

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

// Each invocation stores its key's digit (16 past the end) in workgroup
// memory; invocation t then counts the digits t, t + wgs.x, …: no atomics.
fn count_pass(high: bool, i: u32, k: u32) {
    let w = u32(wgs.x);
    let g = k * w + i;
    var d = 16u;
    if (g < arrayLength(&keys)) {
        d = digit_of(source_key(high, g), high);
    }
    digits[i] = d;
    workgroupBarrier();
    for (var dd = i; dd < 16u; dd += w) {
        var c = 0u;
        for (var j = 0u; j < w; j++) {
            if (digits[j] == dd) {
                c++;
            }
        }
        block_counts[16u * k + dd] = c;
    }
}

// The offsets as in the reference; then invocation 0 alone gives each key
// its place, walking the block in order and replacing each digit in
// workgroup memory by its key's place.
fn scatter_pass(high: bool, i: u32, k: u32, groups: u32) {
    let w = u32(wgs.x);
    let g = k * w + i;
    var key = 0u;
    var d = 16u;
    if (g < arrayLength(&keys)) {
        key = source_key(high, g);
        d = digit_of(key, high);
    }
    digits[i] = d;
    // Each digit's count in the workgroups before this one, and in all.
    for (var dd = i; dd < 16u; dd += w) {
        var before = 0u;
        var total = 0u;
        for (var j = 0u; j < groups; j++) {
            let c = block_counts[16u * j + dd];
            if (j < k) {
                before += c;
            }
            total += c;
        }
        starts[dd] = before;
        totals[dd] = total;
    }
    workgroupBarrier();
    if (i == 0u) {
        var below = 0u;
        for (var dd = 0u; dd < 16u; dd++) {
            starts[dd] += below;
            below += totals[dd];
        }
        for (var j = 0u; j < w; j++) {
            let e = digits[j];
            if (e < 16u) {
                digits[j] = starts[e];
                starts[e] += 1u;
            }
        }
    }
    workgroupBarrier();
    if (d < 16u) {
        store_key(high, digits[i], key);
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
