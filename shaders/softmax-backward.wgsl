// Softmax Backward: one workgroup per row. The row's dot product
// s = Σ dy·y is reduced in workgroup memory, then every invocation writes
// dx = y · (dy − s) for its own columns.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x); // invocations per workgroup: the stride along the row

struct Dims {
    rows: u32, // rows of y, dy and dx
    cols: u32, // columns of y, dy and dx
}

@group(0) @binding(0) var<storage, read> y: array<f32>;          // rows × cols, row-major
@group(0) @binding(1) var<storage, read> dy: array<f32>;         // rows × cols, row-major
@group(0) @binding(2) var<storage, read_write> dx: array<f32>;   // rows × cols, row-major
@group(0) @binding(3) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>; // one partial dot product per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let cols = dims.cols;
    let base = workgroup_id.x * cols; // the row's first element
    // Invocation i takes columns i, i + W, i + 2W, …: only the first
    // min(W, cols) of them have any, and only they hold a partial.
    let parts = min(W, cols);

    // Each invocation's share of the dot product, over its own columns.
    if (i < parts) {
        var p = 0.0;
        for (var c = i; c < cols; c += W) {
            p += dy[base + c] * y[base + c];
        }
        smem[i] = p;
    }
    workgroupBarrier();
    // Halve the partials until one is left: with n of them, the upper half
    // (rounded down) is added onto the lower, and an odd middle one waits for
    // the next round, so any n works. The bounds are the same for the whole
    // workgroup, so every invocation reaches each barrier; within a round the
    // writes (smem[i], i < n - half) never touch what is read (smem[i + half]).
    for (var n = parts; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            smem[i] += smem[i + half];
        }
        workgroupBarrier();
    }
    let s = smem[0]; // the row's Σ dy·y, the same for every column

    // dx = y ⊙ dy − y (yᵀ dy), one column at a time: the Jacobian-vector
    // product without the cols × cols Jacobian.
    for (var c = i; c < cols; c += W) {
        dx[base + c] = y[base + c] * (dy[base + c] - s);
    }
}
