// expect: failed
// Wrong on purpose: of two equal logits, the one with the larger index comes
// first. Only the tie rule differs from the reference, so the kernel passes
// every case without a tie among the logits it selects, and fails where
// there are: in the worked example row 0 keeps index 5 before index 1 (and
// draws 5), and in "ties" the 3 at index 8 takes the place of the one at 5.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);     // invocations per workgroup: any number from 1 up
const K_MAX = 64u;        // the largest k a case asks for
const NONE = 0xFFFFFFFFu; // the index of "no candidate"

struct Params {
    vocab: u32,       // logits per row
    k: u32,           // how many to keep: 1 to 64, at most vocab
    temperature: f32, // above 0: the logits are divided by it
}

@group(0) @binding(0) var<storage, read> logits: array<f32>;          // rows × vocab, row-major
@group(0) @binding(1) var<storage, read> u: array<f32>;               // rows: one number in [0, 1) each
@group(0) @binding(2) var<storage, read_write> topk_index: array<u32>; // rows × k
@group(0) @binding(3) var<storage, read_write> topk_prob: array<f32>;  // rows × k
@group(0) @binding(4) var<storage, read_write> token: array<u32>;      // rows
@group(0) @binding(5) var<uniform> params: Params;

// One candidate per invocation, reduced to the round's winner in [0].
var<workgroup> cand_value: array<f32, {{smemSize}}>;
var<workgroup> cand_index: array<u32, {{smemSize}}>;

// Whether the logit `av` at index `ai` comes before `bv` at `bi` in the
// order: the larger logit, or for equal logits the smaller index. NONE comes
// after every index. Logits are compared as they are read, so equal means
// bit-for-bit equal (or 0 and -0) on every GPU.
fn before(av: f32, ai: u32, bv: f32, bi: u32) -> bool {
    if (ai == NONE) {
        return false;
    }
    if (bi == NONE) {
        return true;
    }
    return av > bv || (av == bv && ai > bi); // should be ai < bi
}

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    let vocab = params.vocab;
    let k = params.k;
    let base = row * vocab; // the row's first logit

    // Every invocation follows the winners; invocation 0 alone uses them after.
    var top_value: array<f32, K_MAX>;
    var top_index: array<u32, K_MAX>;
    var last_value = 0.0;
    var last_index = NONE; // no winner yet: every logit is eligible

    for (var r = 0u; r < k; r++) {
        // The best of this invocation's columns i, i + W, … that come after
        // the last winner (none when it has no such column).
        var best_value = 0.0;
        var best_index = NONE;
        for (var c = i; c < vocab; c += W) {
            let v = logits[base + c];
            let eligible = last_index == NONE || before(last_value, last_index, v, c);
            if (eligible && before(v, c, best_value, best_index)) {
                best_value = v;
                best_index = c;
            }
        }
        cand_value[i] = best_value;
        cand_index[i] = best_index;
        workgroupBarrier();
        // The argmax of the W candidates: fold the upper half (rounded down)
        // onto the lower until one is left, a barrier after every round. The
        // bounds depend on W alone, so every invocation passes every barrier.
        for (var n = W; n > 1u; n = (n + 1u) / 2u) {
            let half = (n + 1u) / 2u;
            if (i + half < n && before(cand_value[i + half], cand_index[i + half], cand_value[i], cand_index[i])) {
                cand_value[i] = cand_value[i + half];
                cand_index[i] = cand_index[i + half];
            }
            workgroupBarrier();
        }
        last_value = cand_value[0];
        last_index = cand_index[0]; // never NONE: k is at most vocab
        top_value[r] = last_value;
        top_index[r] = last_index;
        // Everyone has read the winner before the next round overwrites it.
        workgroupBarrier();
    }

    if (i == 0u) {
        // Softmax over the k, from the largest: every exponent is at most 0.
        let m = top_value[0];
        var total = 0.0;
        for (var j = 0u; j < k; j++) {
            top_value[j] = exp((top_value[j] - m) / params.temperature);
            total += top_value[j];
        }
        // The inverse CDF: the first entry whose cumulative probability
        // exceeds u, or the last one if rounding leaves the sum short of u.
        let draw = u[row];
        var chosen = top_index[k - 1u];
        var found = false;
        var cumulative = 0.0;
        for (var j = 0u; j < k; j++) {
            let p = top_value[j] / total;
            topk_index[row * k + j] = top_index[j];
            topk_prob[row * k + j] = p;
            cumulative += p;
            if (!found && cumulative > draw) {
                chosen = top_index[j];
                found = true;
            }
        }
        token[row] = chosen;
    }
}
