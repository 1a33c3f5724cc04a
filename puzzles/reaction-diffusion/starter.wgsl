// Per test case, the page replaces {{workgroupSize}} and {{totalWorkgroups}}
// with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

struct Params {
    rows: u32,
    cols: u32,
    steps: u32,
    feed: f32, // F
    kill: f32, // k
    du: f32,
    dv: f32,
    dt: f32,
}

// Set by the page before each dispatch: the step it runs, 0 to steps - 1.
struct Step {
    s: u32,
}

@group(0) @binding(0) var<storage, read_write> u0: array<f32>; // pair 0: u at the start
@group(0) @binding(1) var<storage, read_write> v0: array<f32>; // pair 0: v at the start
@group(0) @binding(2) var<storage, read_write> u1: array<f32>; // pair 1: zeros at the start
@group(0) @binding(3) var<storage, read_write> v1: array<f32>; // pair 1: zeros at the start
@group(0) @binding(4) var<uniform> params: Params;
@group(0) @binding(5) var<uniform> step: Step;

// Dispatched once per step.
@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    // TODO: the cell (global_id.y, global_id.x), if it lies inside the grid:
    // read u and v at it and at its four neighbours (wrapping around the
    // edges) from pair step.s % 2, and write u' and v' into the other pair.
}
