// expect: memory-error in some cases
// message: bits depend on the order
// Every block's sum is right and the total is within the tolerance, but
// the workgroups add their sums to total[0] through a compare-and-swap loop
// in the order they finish: with three blocks or more, another order gives
// other bits (the CPU's reverse schedule, or the GPU's next run).
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x); // invocations in a workgroup: any number from 1 to 256

struct Params {
    n: u32,     // elements of x
    chunk: u32, // elements of each block; workgroup w sums block w
}

@group(0) @binding(0) var<storage, read> x: array<f32>;              // n values
@group(0) @binding(1) var<storage, read_write> partials: array<f32>; // one sum per block
@group(0) @binding(2) var<storage, read_write> total: array<atomic<u32>>; // the sum's bits
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
    smem[i] = sum;
    workgroupBarrier();
    fold(i);
    if (i == 0u) {
        partials[group_id.x] = smem[0];
        // Add this block's sum to total[0] with a compare-and-swap loop on
        // its bits: no addition is lost, but the order is the order the
        // workgroups arrive in.
        var old = atomicLoad(&total[0]);
        loop {
            let next = bitcast<u32>(bitcast<f32>(old) + smem[0]);
            let r = atomicCompareExchangeWeak(&total[0], old, next);
            if (r.exchanged) {
                break;
            }
            old = r.old_value;
        }
    }
}

// Nothing left to do: the blocks' sums went into total as they came.
@compute @workgroup_size({{workgroupSize}})
fn combine() {}
