// Per test case, the page replaces {{workgroupSize}} and {{totalWorkgroups}}
// with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

struct Params {
    rows: u32,
    cols: u32,
    steps: u32,
}

// Set by the page before each dispatch: the step it runs, 0 to steps - 1.
struct Step {
    s: u32,
}

@group(0) @binding(0) var<storage, read_write> a: array<f32>; // buffer 0: rows × cols, the starting grid
@group(0) @binding(1) var<storage, read_write> b: array<f32>; // buffer 1: rows × cols, zeros at the start
@group(0) @binding(2) var<uniform> params: Params;
@group(0) @binding(3) var<uniform> step: Step;

// Dispatched once per step.
@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    // TODO: the cell (global_id.y, global_id.x), if it lies inside the grid:
    // read buffer step.s % 2 (a or b) and write the other: the mean of the
    // four neighbours for an interior cell, a copy for a boundary cell.
}
