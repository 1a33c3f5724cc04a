// Comparison kernel: the batch not split at all. Invocation k of the
// dispatch owns weight k and adds up its n products over the whole batch,
// alone, in one loop: no other invocation ever touches dw[k], so there is
// nothing to race and no second pass (reduce is empty). It is correct, and
// slow on a GPU: a 64 × 64 layer has 4,096 weights, so only 4,096
// invocations have work however long the batch, each walking all of it
// one row after another, while most of the GPU idles.
const wgs = vec3({{workgroupSize}});
const twg = vec3({{totalWorkgroups}});
const W = u32(wgs.x);

struct Dims {
    batch: u32, // rows of x and dy
    n_in: u32,  // columns of x and of dw
    n_out: u32, // columns of dy, rows of dw
    chunk: u32, // not used here
}

@group(0) @binding(0) var<storage, read> x: array<f32>;        // batch × n_in
@group(0) @binding(1) var<storage, read> dy: array<f32>;       // batch × n_out
@group(0) @binding(3) var<storage, read_write> dw: array<f32>; // n_out × n_in
@group(0) @binding(4) var<uniform> dims: Dims;

@compute @workgroup_size({{workgroupSize}})
fn partial(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let weights = dims.n_out * dims.n_in;
    // More weights than invocations in a small dispatch: step over them.
    for (var k = workgroup_id.x * W + local_id.x; k < weights; k += W * u32(twg.x)) {
        let o = k / dims.n_in;
        let i = k % dims.n_in;
        var acc = 0.0;
        for (var b = 0u; b < dims.batch; b++) {
            acc += dy[b * dims.n_out + o] * x[b * dims.n_in + i];
        }
        dw[k] = acc;
    }
}

@compute @workgroup_size({{workgroupSize}})
fn reduce() {}
