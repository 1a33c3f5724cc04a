// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch: one per row

struct Params {
    vocab: u32,       // logits per row
    k: u32,           // how many to keep: 1 to 64, at most vocab
    temperature: f32, // above 0: divide the differences of logits by it
}

@group(0) @binding(0) var<storage, read> logits: array<f32>;          // rows × vocab, row-major
@group(0) @binding(1) var<storage, read> u: array<f32>;               // rows: one number in [0, 1) each
@group(0) @binding(2) var<storage, read_write> topk_index: array<u32>; // rows × k
@group(0) @binding(3) var<storage, read_write> topk_prob: array<f32>;  // rows × k
@group(0) @binding(4) var<storage, read_write> token: array<u32>;      // rows
@group(0) @binding(5) var<uniform> params: Params;

// One candidate (logit and index) per invocation, for a workgroup argmax.
var<workgroup> cand_value: array<f32, {{smemSize}}>;
var<workgroup> cand_index: array<u32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    // TODO: in params.k rounds, find the best logit of the row that comes
    // after the previous round's winner (larger first, equal logits by
    // smaller index): each invocation scans columns i, i + wgs.x, …, then
    // the workgroup reduces the candidates in cand_value / cand_index, with
    // barriers. Then softmax over the k winners ((logit - max) / temperature),
    // and walk their cumulative probabilities: token = the first whose sum
    // exceeds u[row], else the last. Write topk_index, topk_prob and token.
}
