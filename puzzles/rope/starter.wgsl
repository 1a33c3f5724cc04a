// Per test case, the page replaces {{workgroupSize}} and {{totalWorkgroups}}
// with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

struct Params {
    tokens: u32,   // tokens in the batch
    q_heads: u32,  // query heads per token
    kv_heads: u32, // key heads per token: divides q_heads
    head_dim: u32, // elements per head vector: even
}

@group(0) @binding(0) var<storage, read_write> q: array<f32>;     // tokens × q_heads × head_dim, row-major: rotate in place
@group(0) @binding(1) var<storage, read_write> k: array<f32>;     // tokens × kv_heads × head_dim, row-major: rotate in place
@group(0) @binding(2) var<storage, read> positions: array<u32>;   // tokens: each token's position
@group(0) @binding(3) var<storage, read> cos_sin: array<f32>;     // max_positions × head_dim: cos half, then sin half
@group(0) @binding(4) var<uniform> params: Params;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let half = params.head_dim / 2u;
    let p = global_id.x;
    // TODO: invocation p takes one pair: q's pairs first (tokens · q_heads · half
    // of them), then k's (tokens · kv_heads · half); past both, nothing. For a
    // pair i of the head vector starting at row · head_dim, with its token's
    // position pos: c = cos_sin[pos · head_dim + i], s = cos_sin[pos · head_dim + half + i],
    // then v[i] = x1 · c − x2 · s and v[i + half] = x2 · c + x1 · s.
}
