// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

struct Params {
    n: u32,    // bodies
    dt: f32,   // time step
    eps2: f32, // softening ε², above 0
}

@group(0) @binding(0) var<storage, read> pos: array<vec4<f32>>; // (x, y, z, m) per body
@group(0) @binding(1) var<storage, read> vel: array<f32>;       // (x, y, z) per body
@group(0) @binding(2) var<storage, read_write> pos_out: array<vec4<f32>>; // (x', y', z', m)
@group(0) @binding(3) var<storage, read_write> vel_out: array<f32>;       // (x', y', z')
@group(0) @binding(4) var<uniform> params: Params;
var<workgroup> tile: array<vec4<f32>, {{smemSize}}>; // one body per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_index) local_index: u32,
    @builtin(global_invocation_id) global_id: vec3<u32>,
) {
    // TODO: for each tile of wgs.x bodies, load body base + local_index into
    // tile[local_index] (mass 0 past the last body), barrier, add the pull of
    // every body of the tile on body global_id.x, barrier. Then, if
    // global_id.x < params.n, write its new velocity and position.
}
