// expect: over-budget in some cases
// message: read storage buffers
// Wrong on purpose: the values are right, but the scan is missing. In
// scan_blocks, invocation 0 runs through its whole block one element at a
// time, reading every flag and value of it while the others wait: 2 * wgs.x
// reads for one invocation, over the budget wherever the blocks are longer
// than there are workgroups, and wgs.x dependent steps.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read> flags: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> block_flags: array<u32>;
@group(0) @binding(4) var<storage, read_write> block_sums: array<u32>;
var<workgroup> carry: u32;
var<workgroup> first_flag: atomic<u32>;

// (f1, v1) then (f2, v2): a flag on the right starts over from its value;
// the flags are OR-ed, so the result knows whether a segment began inside.
fn combine(left: vec2<u32>, right: vec2<u32>) -> vec2<u32> {
    var v = left.y + right.y;
    if (right.x != 0u) {
        v = right.y;
    }
    return vec2(left.x | right.x, v);
}

@compute @workgroup_size({{workgroupSize}})
fn scan_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // Invocation 0 walks its block element by element; the rest wait.
    let w = workgroup_id.x;
    if (local_id.x == 0u && w < arrayLength(&block_sums)) {
        let start = w * u32(wgs.x);
        let end = min(start + u32(wgs.x), arrayLength(&values));
        var total = vec2(0u, 0u);
        for (var g = start; g < end; g++) {
            total = combine(total, vec2(flags[g], values[g]));
            out[g] = total.y;
        }
        block_flags[w] = total.x;
        block_sums[w] = total.y;
    }
}

@compute @workgroup_size({{workgroupSize}})
fn add_carries(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let g = global_id.x;
    if (i == 0u) {
        // The earlier blocks folded with the same operator: a flagged block
        // replaces the carry, an unflagged one adds to it.
        var c = 0u;
        for (var v = 0u; v < workgroup_id.x; v++) {
            if (block_flags[v] != 0u) {
                c = block_sums[v];
            } else {
                c += block_sums[v];
            }
        }
        carry = c;
        atomicStore(&first_flag, u32(wgs.x));
    }
    workgroupBarrier();
    let inside = g < arrayLength(&out);
    if (inside && flags[g] != 0u) {
        atomicMin(&first_flag, i);
    }
    workgroupBarrier();
    // The carry reaches only the elements before the block's first flag.
    if (inside && i < atomicLoad(&first_flag)) {
        out[g] += carry;
    }
}
