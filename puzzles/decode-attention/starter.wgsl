// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z): at most 64
const twg = vec3({{totalWorkgroups}}); // workgroups: (splits, heads, 1)

struct Params {
    heads: u32,    // query heads
    kv_heads: u32, // key/value heads: divides heads
    d: u32,        // elements per head vector
    t: u32,        // keys in the cache: rows 0 to t - 1 of each kv head
    capacity: u32, // rows each kv head has room for; rows t to capacity - 1 are stale
    split: u32,    // keys per split
}

@group(0) @binding(0) var<storage, read> q: array<f32>;             // heads × d
@group(0) @binding(1) var<storage, read> k_cache: array<f32>;       // kv_heads × capacity × d
@group(0) @binding(2) var<storage, read> v_cache: array<f32>;       // kv_heads × capacity × d
@group(0) @binding(3) var<storage, read_write> scratch: array<f32>; // heads × splits × (d + 2): yours to use
@group(0) @binding(4) var<storage, read_write> out: array<f32>;     // heads × d
@group(0) @binding(5) var<uniform> params: Params;

var<workgroup> p: array<f32, {{smemSize}}>; // one per key of the split ({{smemSize}} = params.split)
var<workgroup> red: array<f32, 64>;         // one per invocation, for the reductions

// Dispatched first: workgroup (s, h) = (workgroup_id.x, workgroup_id.y)
// takes split s of query head h's keys.
@compute @workgroup_size({{workgroupSize}})
fn attend_split(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // TODO: the split's keys are start = s · split up to min(start + split, t) − 1,
    // in kv head h / (heads / kv_heads). Compute their scores q·k · inverseSqrt(d)
    // into p, reduce their maximum m, turn each into exp(score − m) and reduce
    // their sum l, then store m, l and acc[c] = Σ_j p[j] · v[j][c] (every
    // column c) in the split's slot of scratch. Every barrier outside the ifs.
}

// Dispatched second, with the same grid, after every workgroup of the first
// has finished.
@compute @workgroup_size({{workgroupSize}})
fn combine(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    // TODO: one workgroup per head (say those with workgroup_id.x == 0) merges
    // its splits: M = the largest m; each split's l and acc times exp(m − M),
    // summed over the splits; out[h · d + c] = Σ acc · exp(m − M) / Σ l · exp(m − M).
}
