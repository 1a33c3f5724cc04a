// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

struct Dims {
    n: u32, // rows of q, k, v and out
    d: u32, // columns of q, k, v and out, at most 64
}

@group(0) @binding(0) var<storage, read> q: array<f32>;         // n × d, row-major
@group(0) @binding(1) var<storage, read> k: array<f32>;         // n × d, row-major
@group(0) @binding(2) var<storage, read> v: array<f32>;         // n × d, row-major
@group(0) @binding(3) var<storage, read_write> out: array<f32>; // n × d, row-major
@group(0) @binding(4) var<uniform> dims: Dims;

// 2 · wgs.x · d floats: a tile of wgs.x rows of k from tiles[0], the same
// rows of v from tiles[wgs.x * d].
var<workgroup> tiles: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = workgroup_id.x * u32(wgs.x) + local_id.x; // this invocation's query row; may be ≥ dims.n
    // TODO: keep a running maximum m, a running sum l and an accumulator
    // acc: array<f32, 64>. For each tile of wgs.x keys (the last may be shorter):
    // 1. every invocation helps copy the tile's rows of k and v into tiles;
    //    then workgroupBarrier();
    // 2. if i < dims.n: the tile's scores q[i]·k[j] / √d and their maximum; if
    //    it is larger than m, multiply l and acc by exp(m - new maximum); then
    //    add exp(s - m) to l and exp(s - m) · (row j of v) to acc;
    // 3. workgroupBarrier() before the next tile overwrites tiles.
    // Finally, if i < dims.n: out[i * d + c] = acc[c] / l.
}
