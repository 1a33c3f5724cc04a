// expect: memory-error in some cases
// message: `dw[
// The naive split along the batch: one invocation per batch row (rows
// b, b + all invocations, … when the dispatch has fewer invocations than
// rows), each adding its row's outer product dy[b]ᵀ x[b] straight into dw
// with `+=`, a plain load, add and store. Invocations of every row do it to
// the same weights at once, and updates are lost. A case whose whole batch
// lands on one invocation ("one row", the smallest sizes) cannot race.
// The racecheck names a lost update on dw at the line of the `+=`; where it
// records only some of the many conflicting pairs (the largest cases), the
// first finding can be the write conflict among them instead.
const wgs = vec3({{workgroupSize}});
const twg = vec3({{totalWorkgroups}});
const W = u32(wgs.x);

struct Dims {
    batch: u32, // rows of x and dy
    n_in: u32,  // columns of x and of dw
    n_out: u32, // columns of dy, rows of dw
    chunk: u32, // batch rows per workgroup
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
    let invocations = W * u32(twg.x);
    for (var b = workgroup_id.x * W + local_id.x; b < dims.batch; b += invocations) {
        for (var o = 0u; o < dims.n_out; o++) {
            for (var i = 0u; i < dims.n_in; i++) {
                dw[o * dims.n_in + i] += dy[b * dims.n_out + o] * x[b * dims.n_in + i];
            }
        }
    }
}

@compute @workgroup_size({{workgroupSize}})
fn reduce() {}
