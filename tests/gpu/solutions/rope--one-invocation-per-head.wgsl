// expect: passed
// Another correct way: one invocation per head vector, the q heads first,
// then the k heads, each looping over its half pairs. It reads the token's
// position once per head instead of once per pair; the dispatch, sized for
// one invocation per pair, leaves most invocations with nothing to do.
struct Params {
    tokens: u32,   // tokens in the batch
    q_heads: u32,  // query heads per token
    kv_heads: u32, // key heads per token: divides q_heads
    head_dim: u32, // elements per head vector: even
}

@group(0) @binding(0) var<storage, read_write> q: array<f32>;     // tokens × q_heads × head_dim, row-major
@group(0) @binding(1) var<storage, read_write> k: array<f32>;     // tokens × kv_heads × head_dim, row-major
@group(0) @binding(2) var<storage, read> positions: array<u32>;   // tokens: each token's position
@group(0) @binding(3) var<storage, read> cos_sin: array<f32>;     // max_positions × head_dim: cos half, then sin half
@group(0) @binding(4) var<uniform> params: Params;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let d = params.head_dim;
    let half = d / 2u;
    let q_rows = params.tokens * params.q_heads;
    let k_rows = params.tokens * params.kv_heads;
    let r = global_id.x;
    if (r >= q_rows + k_rows) {
        return;
    }
    let in_q = r < q_rows;
    var row = r;
    var heads = params.q_heads;
    if (!in_q) {
        row = r - q_rows;
        heads = params.kv_heads;
    }
    let cache = positions[row / heads] * d; // the token's row of the cache
    let base = row * d;
    for (var i = 0u; i < half; i++) {
        let c = cos_sin[cache + i];
        let s = cos_sin[cache + half + i];
        if (in_q) {
            let x1 = q[base + i];
            let x2 = q[base + half + i];
            q[base + i] = x1 * c - x2 * s;
            q[base + half + i] = x2 * c + x1 * s;
        } else {
            let x1 = k[base + i];
            let x2 = k[base + half + i];
            k[base + i] = x1 * c - x2 * s;
            k[base + half + i] = x2 * c + x1 * s;
        }
    }
}
