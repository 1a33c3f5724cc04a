// expect: failed
// Wrong on purpose: partial adds its sum into its slot of scratch
// (`+=`) as if the slot started at 0. scratch is working memory the
// kernel did not clear: it arrives with leftovers (here numbers up to 99),
// and every partial carries them into dw. Write the slot (`=`), or zero it
// first.
const wgs = vec3({{workgroupSize}});
const twg = vec3({{totalWorkgroups}});
const W = u32(wgs.x); // invocations per workgroup

struct Dims {
    batch: u32, // rows of x and dy
    n_in: u32,  // columns of x and of dw
    n_out: u32, // columns of dy, rows of dw
    chunk: u32, // batch rows per workgroup
}

@group(0) @binding(0) var<storage, read> x: array<f32>;             // batch × n_in
@group(0) @binding(1) var<storage, read> dy: array<f32>;            // batch × n_out
@group(0) @binding(2) var<storage, read_write> scratch: array<f32>; // chunks × n_out × n_in
@group(0) @binding(3) var<storage, read_write> dw: array<f32>;      // n_out × n_in
@group(0) @binding(4) var<uniform> dims: Dims;

@compute @workgroup_size({{workgroupSize}})
fn partial(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let g = workgroup_id.x;
    let weights = dims.n_out * dims.n_in;
    let first = g * dims.chunk;                          // the chunk's first row
    let end = min(first + dims.chunk, dims.batch);       // one past its last
    // Invocation t takes the weights t, t + W, t + 2W, …: neighbouring
    // invocations read neighbouring columns of x, and write neighbouring
    // words of scratch.
    for (var k = local_id.x; k < weights; k += W) {
        let o = k / dims.n_in;
        let i = k % dims.n_in;
        var acc = 0.0;
        for (var b = first; b < end; b++) {
            acc += dy[b * dims.n_out + o] * x[b * dims.n_in + i];
        }
        // Wrong on purpose: added to what the slot holds.
        scratch[g * weights + k] += acc;
    }
}

@compute @workgroup_size({{workgroupSize}})
fn reduce(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let weights = dims.n_out * dims.n_in;
    // Every chunk, the last one too when it is shorter: batch / chunk,
    // rounded up (the dispatch's workgroup count).
    let chunks = (dims.batch + dims.chunk - 1u) / dims.chunk;
    let stride = W * u32(twg.x); // invocations in the dispatch
    for (var k = workgroup_id.x * W + local_id.x; k < weights; k += stride) {
        var sum = 0.0;
        for (var c = 0u; c < chunks; c++) {
            sum += scratch[c * weights + k];
        }
        dw[k] = sum;
    }
}
