// expect: memory-error in some cases
// message: out-of-bounds
// k laid out as if it had q_heads heads per token: the invocation of q's
// pair rotates the pair at the same place in k. Right where kv_heads equals
// q_heads; with fewer k heads (grouped-query attention) k is shorter than q,
// and the later tokens' invocations write past its end.
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

// Pair i of a head vector whose token is at position pos, (x1, x2), turned:
// (x1·c − x2·s, x2·c + x1·s) with c and s from the cache's row pos.
fn rotate(x1: f32, x2: f32, pos: u32, i: u32) -> vec2<f32> {
    let half = params.head_dim / 2u;
    let c = cos_sin[pos * params.head_dim + i];
    let s = cos_sin[pos * params.head_dim + half + i];
    return vec2(x1 * c - x2 * s, x2 * c + x1 * s);
}

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let half = params.head_dim / 2u;
    let q_pairs = params.tokens * params.q_heads * half;
    let p = global_id.x;
    if (p < q_pairs) {
        let row = p / half; // the head vector: token · q_heads + head
        let a = row * params.head_dim + p % half;
        let r = rotate(q[a], q[a + half], positions[row / params.q_heads], p % half);
        q[a] = r.x;
        q[a + half] = r.y;
        let rk = rotate(k[a], k[a + half], positions[row / params.q_heads], p % half);
        k[a] = rk.x;
        k[a + half] = rk.y;
    }
}
