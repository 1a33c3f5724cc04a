// Per test case, the page replaces {{workgroupSize}} and {{totalWorkgroups}}
// with the values shown above the image.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)

// Fixed point: an i32 holds a real value times 4096 (12 fractional bits).
struct Params {
    x0: i32,       // real part of the top-left pixel's point c
    y0: i32,       // imaginary part of the top-left pixel's point c
    step: i32,     // distance between neighbouring pixels
    rows: u32,
    cols: u32,
    max_iter: u32,
}

@group(0) @binding(0) var<storage, read_write> count: array<u32>; // rows × cols, row-major
@group(0) @binding(1) var<uniform> params: Params;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    // TODO: for pixel (row = global_id.y, col = global_id.x), if it lies
    // inside the image, run the fixed-point escape loop of the statement for
    // c = (x0 + col * step, y0 - row * step) and write the count.
}
