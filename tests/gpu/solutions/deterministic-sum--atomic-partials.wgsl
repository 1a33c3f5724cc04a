// expect: memory-error in some cases
// message: bits depend on the order
// combine adds the blocks in a fixed tree, but within a block the
// invocations add their sums to partials[w] through a compare-and-swap loop,
// in the order they arrive: with three invocations or more, another order
// gives other bits.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x); // invocations in a workgroup: any number from 1 to 256

struct Params {
    n: u32,     // elements of x
    chunk: u32, // elements of each block; workgroup w sums block w
}

@group(0) @binding(0) var<storage, read> x: array<f32>;              // n values
@group(0) @binding(1) var<storage, read_write> partials: array<atomic<u32>>; // each block's sum's bits
@group(0) @binding(2) var<storage, read_write> total: array<f32>;    // 1 element: the sum
@group(0) @binding(3) var<uniform> params: Params;

var<workgroup> smem: array<f32, {{smemSize}}>; // one sum per invocation

// Adds smem[0..W] into smem[0] in a tree: the upper half, rounded up, folded
// onto the lower until one is left. The same additions in the same order on
// every Run; every invocation of the workgroup must call it.
fn fold(i: u32) {
    for (var m = W; m > 1u; m = (m + 1u) / 2u) {
        let half = (m + 1u) / 2u;
        if (i + half < m) {
            smem[i] += smem[i + half];
        }
        workgroupBarrier();
    }
}

@compute @workgroup_size({{workgroupSize}})
fn block_sums(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) group_id: vec3<u32>,
) {
    let i = local_id.x;
    let start = group_id.x * params.chunk;
    let end = min(start + params.chunk, params.n);
    var sum = 0.0;
    for (var k = start + i; k < end; k += W) {
        sum += x[k];
    }
    // Each invocation adds its sum to the block's with a compare-and-swap
    // loop on the bits: in the order the invocations get there.
    var old = atomicLoad(&partials[group_id.x]);
    loop {
        let next = bitcast<u32>(bitcast<f32>(old) + sum);
        let r = atomicCompareExchangeWeak(&partials[group_id.x], old, next);
        if (r.exchanged) {
            break;
        }
        old = r.old_value;
    }
}

// Dispatched after block_sums has finished in every workgroup, so every
// block's sum is in `partials`. One workgroup is enough; the others leave
// at once (workgroup_id is the same for the whole workgroup, so the
// barriers in fold stay in uniform control flow).
@compute @workgroup_size({{workgroupSize}})
fn combine(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) group_id: vec3<u32>,
) {
    if (group_id.x != 0u) {
        return;
    }
    let i = local_id.x;
    let blocks = (params.n + params.chunk - 1u) / params.chunk;
    var sum = 0.0;
    for (var b = i; b < blocks; b += W) {
        sum += bitcast<f32>(atomicLoad(&partials[b]));
    }
    smem[i] = sum;
    workgroupBarrier();
    fold(i);
    if (i == 0u) {
        total[0] = smem[0];
    }
}
