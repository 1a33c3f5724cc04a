// expect: failed
// Pairwise within each invocation, but the tree over the invocations halves
// a stride from W / 2: with 63 or 100 invocations the last partial sum of
// every odd round is never added (the cases of 63, 100 and of random sizes
// fail; those of 1, 64 and 256 invocations pass).
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x); // invocations in the workgroup: any number from 1 to 256
const BLOCK = 8u;     // values added one after another before the tree takes over
const LEVELS = 24u;   // more than log2 of the most blocks an invocation has (2^12)

struct Params {
    n: u32, // elements of x
}

@group(0) @binding(0) var<storage, read> x: array<f32>;            // n values, none negative
@group(0) @binding(1) var<storage, read_write> total: array<f32>;  // 1 element: the sum
@group(0) @binding(2) var<uniform> params: Params;

var<workgroup> smem: array<f32, {{smemSize}}>; // one partial sum per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let i = local_id.x;

    // levels[j] holds the sum of 2^j blocks while bit j of `blocks` is set.
    var levels: array<f32, LEVELS>;
    var blocks = 0u;
    var k = i;
    while (k < params.n) {
        var block = 0.0;
        for (var j = 0u; j < BLOCK && k < params.n; j++) {
            block += x[k];
            k += W;
        }
        // Add the block as 1 is added to `blocks`: every full level it meets
        // (a carry) is merged into it, and it settles in the first empty one.
        var level = 0u;
        while (((blocks >> level) & 1u) == 1u) {
            block += levels[level];
            level += 1u;
        }
        levels[level] = block;
        blocks += 1u;
    }
    // The levels left, smallest first.
    var sum = 0.0;
    for (var j = 0u; j < LEVELS; j++) {
        if (((blocks >> j) & 1u) == 1u) {
            sum += levels[j];
        }
    }
    smem[i] = sum;
    workgroupBarrier();

    // Fold the upper half (rounded up) onto the lower until one is left; the
    // bounds depend on W alone, so every invocation reaches every barrier.
    for (var stride = W / 2u; stride > 0u; stride /= 2u) {
        if (i < stride) {
            smem[i] += smem[i + stride];
        }
        workgroupBarrier();
    }

    if (i == 0u) {
        total[0] = smem[0];
    }
}
