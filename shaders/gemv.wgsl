// Matrix–Vector Product: one workgroup per row of a. The invocations walk
// the row side by side (invocation i takes columns i, i + W, i + 2W, …), so
// at every step neighbouring invocations read neighbouring addresses; their
// partial sums are then added up in workgroup memory.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x); // invocations per workgroup: any number from 1 up

struct Dims {
    m: u32, // rows of a, elements of y
    k: u32, // columns of a, elements of x
}

@group(0) @binding(0) var<storage, read> a: array<f32>;       // m × k, row-major
@group(0) @binding(1) var<storage, read> x: array<f32>;       // k
@group(0) @binding(2) var<storage, read_write> y: array<f32>; // m
@group(0) @binding(3) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>; // one partial sum per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;     // the dispatch has exactly dims.m workgroups
    let base = row * dims.k;      // the row's first element in a

    // Each invocation's share of the row. In one pass of the loop the W
    // invocations read W consecutive floats of a (and of x): one or a few
    // memory segments for the whole group. A row shorter than the workgroup
    // leaves the invocations from k on with nothing to add: they hold 0.
    var sum = 0.0;
    for (var c = i; c < dims.k; c += W) {
        sum += a[base + c] * x[c];
    }
    smem[i] = sum;
    workgroupBarrier();

    // Add the W partial sums pairwise until one is left. With n of them the
    // upper half, rounded down, is folded onto the lower half; when n is odd
    // the middle one sits out the round. So W need not be a power of two.
    // The loop's bounds come from W alone, the same in every invocation, so
    // every invocation reaches every barrier, and within a round the
    // elements written (below n - half) and read (from half on) never meet.
    for (var n = W; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            smem[i] += smem[i + half];
        }
        workgroupBarrier();
    }

    // One write per row.
    if (i == 0u) {
        y[row] = smem[0];
    }
}
