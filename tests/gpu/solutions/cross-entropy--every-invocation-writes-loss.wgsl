// expect: memory-error in some cases
// message: write conflict
// Wrong on purpose: every invocation with a column writes loss[row], each
// from its own partial sum s (the exponentials of its own columns) instead
// of the row's total S in smem[0]. The writes to loss[row] race (a write
// conflict: which one lands depends on the order the GPU runs them), and
// each writes a different value, none of them the loss: log(s) < log(S).
// Where one invocation holds the whole row (one invocation, or one column)
// its partial sum is S, nothing races, and those cases pass.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x); // invocations per workgroup: the stride along the row

struct Dims {
    rows: u32, // rows of z and grad; elements of labels and loss
    cols: u32, // columns of z and grad: the classes
}

@group(0) @binding(0) var<storage, read> z: array<f32>;            // rows × cols logits, row-major
@group(0) @binding(1) var<storage, read> labels: array<u32>;       // rows: each row's class, < cols
@group(0) @binding(2) var<storage, read_write> loss: array<f32>;   // rows
@group(0) @binding(3) var<storage, read_write> grad: array<f32>;   // rows × cols, row-major
@group(0) @binding(4) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>; // one partial result per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    let cols = dims.cols;
    let base = row * cols; // the row's first element
    // Invocation i takes columns i, i + W, i + 2W, …: only the first
    // min(W, cols) invocations have any, and only they hold a partial result.
    let parts = min(W, cols);

    // Phase 1: the row's maximum, folded per invocation from its first
    // column, then halved in rounds until smem[0] holds it (any number of
    // partials, not only powers of two). Every barrier is outside the ifs.
    if (i < parts) {
        var m = z[base + i];
        for (var c = i + W; c < cols; c += W) {
            m = max(m, z[base + c]);
        }
        smem[i] = m;
    }
    workgroupBarrier();
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

    // Phase 2: S = the sum of exp(z - row_max), reduced the same way. No
    // exponent is above 0, so nothing overflows, and S is at least 1.
    var s = 0.0;
    if (i < parts) {
        for (var c = i; c < cols; c += W) {
            s += exp(z[base + c] - row_max);
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
    let total = smem[0];
    let label = labels[row];

    // The forward pass: one value per row, so one invocation writes it. In
    // the log domain: log(total) is between 0 and log(cols), and
    // row_max - z[label] is exact for the puzzle's integers; never
    // -log(p_label), which is -log(0) = inf once p_label underflows.
    if (i < parts) {
        loss[row] = log(s) + (row_max - z[base + label]); // every invocation, its own s
    }
    // The backward pass: d loss / d z_j = softmax_j - (j == label).
    for (var c = i; c < cols; c += W) {
        let p = exp(z[base + c] - row_max) / total;
        grad[base + c] = select(p, p - 1.0, c == label);
    }
}
