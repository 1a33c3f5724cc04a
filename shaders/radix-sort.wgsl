// Radix Sort: two passes of 4-bit digits (low, then high), each a count of
// the digits of every block, then a stable scatter, in separate dispatches.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> tmp: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> block_counts: array<u32>;
var<workgroup> digits: array<u32, {{smemSize}}>;
var<workgroup> hist: array<atomic<u32>, 16>;
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

// The 16 digit counts of this workgroup's block. Workgroup memory starts at
// zero in every dispatch, so `hist` needs no reset between the passes.
fn count_pass(high: bool, i: u32, k: u32) {
    let g = k * u32(wgs.x) + i;
    if (g < arrayLength(&keys)) {
        atomicAdd(&hist[digit_of(source_key(high, g), high)], 1u);
    }
    workgroupBarrier();
    // A loop, not `if (i < 16u)`: a workgroup may have fewer than 16
    // invocations.
    for (var d = i; d < 16u; d += u32(wgs.x)) {
        block_counts[16u * k + d] = atomicLoad(&hist[d]);
    }
}

// Every key of this workgroup's block to its place: the keys with a lower
// digit anywhere, plus those with its digit in earlier workgroups, plus
// those with its digit before it in its own workgroup.
fn scatter_pass(high: bool, i: u32, k: u32, groups: u32) {
    let w = u32(wgs.x);
    let g = k * w + i;
    var key = 0u;
    var d = 16u; // past the end: a digit no key has
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
    // Add the totals of the lower digits: an exclusive scan of 16 values.
    if (i == 0u) {
        var below = 0u;
        for (var dd = 0u; dd < 16u; dd++) {
            starts[dd] += below;
            below += totals[dd];
        }
    }
    workgroupBarrier();
    if (d < 16u) {
        // Its rank among the keys of its digit in the block: what keeps
        // equal digits in order (stable).
        var rank = 0u;
        for (var j = 0u; j < i; j++) {
            if (digits[j] == d) {
                rank++;
            }
        }
        if (high) {
            out[starts[d] + rank] = key;
        } else {
            tmp[starts[d] + rank] = key;
        }
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
