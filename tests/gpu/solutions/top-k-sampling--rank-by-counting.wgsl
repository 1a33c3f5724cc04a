// expect: passed
// A correct kernel that selects another way: no rounds and no argmax. Each
// invocation takes its columns c = i, i + W, … and counts the logits of the
// row that come before logit c in the order (larger, or equal with a smaller
// index), stopping at k. That count is c's rank, distinct for every column,
// so a column whose count stays below k writes itself to that place of the
// top k without any other invocation touching it; one barrier, and
// invocation 0 computes the probabilities and walks them as the reference
// does. It reads the row up to k times per column, where the reference reads
// it k times in all.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Params {
    vocab: u32,
    k: u32,
    temperature: f32,
}

@group(0) @binding(0) var<storage, read> logits: array<f32>;
@group(0) @binding(1) var<storage, read> u: array<f32>;
@group(0) @binding(2) var<storage, read_write> topk_index: array<u32>;
@group(0) @binding(3) var<storage, read_write> topk_prob: array<f32>;
@group(0) @binding(4) var<storage, read_write> token: array<u32>;
@group(0) @binding(5) var<uniform> params: Params;

// The top k, by rank: written once each, by the column of that rank.
var<workgroup> sel_value: array<f32, 64>;
var<workgroup> sel_index: array<u32, 64>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    let vocab = params.vocab;
    let k = params.k;
    let base = row * vocab;

    for (var c = i; c < vocab; c += W) {
        let v = logits[base + c];
        var rank = 0u;
        for (var d = 0u; d < vocab && rank < k; d++) {
            let w = logits[base + d];
            if (w > v || (w == v && d < c)) {
                rank++;
            }
        }
        if (rank < k) {
            sel_value[rank] = v;
            sel_index[rank] = c;
        }
    }
    workgroupBarrier();

    if (i == 0u) {
        let m = sel_value[0];
        var total = 0.0;
        for (var j = 0u; j < k; j++) {
            total += exp((sel_value[j] - m) / params.temperature);
        }
        let draw = u[row];
        var chosen = sel_index[k - 1u];
        var found = false;
        var cumulative = 0.0;
        for (var j = 0u; j < k; j++) {
            let p = exp((sel_value[j] - m) / params.temperature) / total;
            topk_index[row * k + j] = sel_index[j];
            topk_prob[row * k + j] = p;
            cumulative += p;
            if (!found && cumulative > draw) {
                chosen = sel_index[j];
                found = true;
            }
        }
        token[row] = chosen;
    }
}
