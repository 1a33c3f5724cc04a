// Attention: scaled dot-product attention for one head, in three dispatches
// over the same bindings, one workgroup per query row each time. The first
// writes the scaled scores Q·Kᵀ/√d into `scores`, the second turns each row of
// `scores` into probabilities in place (the Softmax puzzle's two reductions),
// the third mixes the rows of V with those probabilities. A dispatch starts
// only after the one before has finished, and sees everything it stored.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x); // invocations per workgroup: the stride along a row

struct Dims {
    n: u32, // rows of q, k, v and out; rows and columns of scores
    d: u32, // columns of q, k, v and out
}

@group(0) @binding(0) var<storage, read> q: array<f32>;              // n × d
@group(0) @binding(1) var<storage, read> k: array<f32>;              // n × d
@group(0) @binding(2) var<storage, read> v: array<f32>;              // n × d
@group(0) @binding(3) var<storage, read_write> scores: array<f32>;   // n × n
@group(0) @binding(4) var<storage, read_write> out: array<f32>;      // n × d
@group(0) @binding(5) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>; // one partial result per invocation

// Dispatch 1: scores[i][j] = (q row i · k row j) / √d. Row j of k is column j
// of Kᵀ, so both operands are read along a row: k[j * d + c]. Invocation t
// takes the keys j = t, t + W, t + 2W, … of its workgroup's query row.
@compute @workgroup_size({{workgroupSize}})
fn dot_scores(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let n = dims.n;
    let d = dims.d;
    let i = workgroup_id.x;
    let scale = inverseSqrt(f32(d)); // 1 / √d, the same for every score
    for (var j = local_id.x; j < n; j += W) {
        var dot = 0.0;
        for (var c = 0u; c < d; c++) {
            dot += q[i * d + c] * k[j * d + c];
        }
        scores[i * n + j] = dot * scale;
    }
}

// Dispatch 2: the softmax of row i of scores, in place. As in Softmax: the
// row's maximum, then the sum of exp(s - max), each reduced over the
// workgroup in smem, then every element divided by the sum.
@compute @workgroup_size({{workgroupSize}})
fn softmax_rows(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let t = local_id.x;
    let n = dims.n;
    let base = workgroup_id.x * n; // the row's first element in scores
    // Only the first min(W, n) invocations have a column, and only they hold
    // a partial result; the others still reach every barrier below.
    let parts = min(W, n);

    // The maximum: each invocation folds its own columns, from its first
    // one (no identity value needed), then the partials are halved, rounding
    // up, until smem[0] holds the row's maximum. Any count works. The loop
    // bounds are the same for the whole workgroup, so every barrier is
    // reached by every invocation.
    if (t < parts) {
        var m = scores[base + t];
        for (var c = t + W; c < n; c += W) {
            m = max(m, scores[base + c]);
        }
        smem[t] = m;
    }
    workgroupBarrier();
    for (var count = parts; count > 1u; count = (count + 1u) / 2u) {
        let half = (count + 1u) / 2u;
        if (t + half < count) {
            smem[t] = max(smem[t], smem[t + half]);
        }
        workgroupBarrier();
    }
    let row_max = smem[0];
    // Every invocation has read the maximum before the sums overwrite smem[0].
    workgroupBarrier();

    // The sum of exp(s - row_max): every exponent is at most 0, so no term
    // is above 1 and nothing overflows, however large the scores are.
    if (t < parts) {
        var sum = 0.0;
        for (var c = t; c < n; c += W) {
            sum += exp(scores[base + c] - row_max);
        }
        smem[t] = sum;
    }
    workgroupBarrier();
    for (var count = parts; count > 1u; count = (count + 1u) / 2u) {
        let half = (count + 1u) / 2u;
        if (t + half < count) {
            smem[t] += smem[t + half];
        }
        workgroupBarrier();
    }
    let total = smem[0]; // at least 1: the maximum contributes exp(0)

    // In place: each invocation reads and then overwrites only its own
    // columns, which no other invocation touches in this dispatch.
    for (var c = t; c < n; c += W) {
        scores[base + c] = exp(scores[base + c] - row_max) / total;
    }
}

// Dispatch 3: out[i][c] = Σ_j scores[i][j] · v[j][c]. Invocation t takes the
// output columns c = t, t + W, … (none when t >= d), each a sum over the n
// probabilities of the row, which every invocation reads.
@compute @workgroup_size({{workgroupSize}})
fn mix_values(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let n = dims.n;
    let d = dims.d;
    let i = workgroup_id.x;
    for (var c = local_id.x; c < d; c += W) {
        var acc = 0.0;
        for (var j = 0u; j < n; j++) {
            acc += scores[i * n + j] * v[j * d + c];
        }
        out[i * d + c] = acc;
    }
}
