// Softmax: one workgroup per row, in three phases over workgroup memory (the
// row's maximum, the sum of exp(a - max), the division), with barriers between.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x); // invocations per workgroup: the stride along the row

struct Dims {
    rows: u32, // rows of a and out
    cols: u32, // columns of a and out
}

@group(0) @binding(0) var<storage, read> a: array<f32>;         // rows × cols, row-major
@group(0) @binding(1) var<storage, read_write> out: array<f32>; // rows × cols, row-major
@group(0) @binding(2) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>; // one partial result per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let cols = dims.cols;
    let base = workgroup_id.x * cols; // the row's first element
    // Invocation i takes columns i, i + W, i + 2W, …: only the first
    // min(W, cols) invocations have any, and only they hold a partial result.
    let parts = min(W, cols);

    // Phase 1: the row's maximum. Each invocation folds its own columns,
    // starting from its first one (so no identity value is needed) …
    if (i < parts) {
        var m = a[base + i];
        for (var c = i + W; c < cols; c += W) {
            m = max(m, a[base + c]);
        }
        smem[i] = m;
    }
    workgroupBarrier();
    // … then the partials are halved until one is left. With n of them, the
    // upper half (rounded down) folds onto the lower: when n is odd the middle
    // one waits for the next round. Any n works, not only powers of two. The
    // loop's bounds are the same for every invocation, so every one reaches
    // each barrier; the writes (smem[i], i < n - half) and the reads
    // (smem[i + half]) of one round never touch the same element.
    for (var n = parts; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            smem[i] = max(smem[i], smem[i + half]);
        }
        workgroupBarrier();
    }
    let row_max = smem[0];
    // Everyone has read the maximum before phase 2 overwrites smem[0].
    workgroupBarrier();

    // Phase 2: the sum of exp(a - row_max), reduced the same way. Every
    // exponent is at most 0, so no term exceeds 1 and nothing overflows.
    if (i < parts) {
        var s = 0.0;
        for (var c = i; c < cols; c += W) {
            s += exp(a[base + c] - row_max);
        }
        smem[i] = s;
    }
    workgroupBarrier();
    for (var n = parts; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            smem[i] += smem[i + half];
        }
        workgroupBarrier();
    }
    let total = smem[0]; // at least 1: the maximum's own term is exp(0)

    // Phase 3: the division, each invocation over its own columns again.
    for (var c = i; c < cols; c += W) {
        out[base + c] = exp(a[base + c] - row_max) / total;
    }
}
