// Comparison kernel: the batch split as in the reference, but each chunk's
// partial added straight into dw with atomics, in one dispatch (reduce is
// empty, scratch unused). WGSL has atomics on u32 and i32 only, so dw is
// declared array<atomic<u32>>, holding the bits of the f32 sums (it starts
// at 0u, the bits of 0.0), and a partial goes in by compare-and-swap: read
// the bits, add as floats, and store only if no other workgroup changed
// the word meanwhile; otherwise try again from the value it holds now.
// Every chunk's partial lands exactly once, in an order the GPU picks.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    batch: u32, // rows of x and dy
    n_in: u32,  // columns of x and of dw
    n_out: u32, // columns of dy, rows of dw
    chunk: u32, // batch rows per workgroup
}

@group(0) @binding(0) var<storage, read> x: array<f32>;                // batch × n_in
@group(0) @binding(1) var<storage, read> dy: array<f32>;               // batch × n_out
@group(0) @binding(3) var<storage, read_write> dw: array<atomic<u32>>; // n_out × n_in, f32 bits
@group(0) @binding(4) var<uniform> dims: Dims;

// dw[k] += value, as floats, atomically.
fn add_to(k: u32, value: f32) {
    var old = atomicLoad(&dw[k]);
    loop {
        let sum = bitcast<u32>(bitcast<f32>(old) + value);
        let r = atomicCompareExchangeWeak(&dw[k], old, sum);
        if (r.exchanged) {
            break;
        }
        old = r.old_value;
    }
}

@compute @workgroup_size({{workgroupSize}})
fn partial(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let weights = dims.n_out * dims.n_in;
    let first = workgroup_id.x * dims.chunk;
    let end = min(first + dims.chunk, dims.batch);
    for (var k = local_id.x; k < weights; k += W) {
        let o = k / dims.n_in;
        let i = k % dims.n_in;
        var acc = 0.0;
        for (var b = first; b < end; b++) {
            acc += dy[b * dims.n_out + o] * x[b * dims.n_in + i];
        }
        add_to(k, acc);
    }
}

@compute @workgroup_size({{workgroupSize}})
fn reduce() {}
