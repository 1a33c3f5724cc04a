// expect: failed
// Wrong on purpose: builds (x, y) as `(workgroup_id << log2(wgs)) + local_id`, with log2 the
// smallest shift s where 1 << s reaches the size: a shift multiplies by wgs only when wgs is a
// power of two. In "edge: sizes that are not powers of two" (7 × 7) the shift is 3, so
// workgroup Y starts at row 8·Y instead of 7·Y: rows 7, 15, 23 and 31 of out are never written.
const wgs = vec3({{workgroupSize}});
const WX = u32(wgs.x);
const WY = u32(wgs.y);

struct Dims {
    m: u32, // rows of a and out
    n: u32, // columns of b and out (a multiple of 4)
    k: u32, // columns of a, rows of b (a multiple of 4)
}

@group(0) @binding(0) var<storage, read> a: array<vec4<f32>>;      // m × k floats, row-major, 4 per element
@group(0) @binding(1) var<storage, read> b: array<vec4<f32>>;      // k × n floats, row-major, 4 per element
@group(0) @binding(2) var<storage, read_write> out: array<vec4<f32>>; // m × n floats, row-major, 4 per element
@group(0) @binding(3) var<uniform> dims: Dims;

// log2 of a workgroup size: the shift s with 1 << s == size.
fn log2_size(size: u32) -> u32 {
    var s = 0u;
    while ((1u << s) < size) {
        s++;
    }
    return s;
}

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let x = (workgroup_id.x << log2_size(WX)) + local_id.x; // which group of four columns
    let y = (workgroup_id.y << log2_size(WY)) + local_id.y; // which row
    let n4 = dims.n / 4u;
    if (y >= dims.m || x >= n4) {
        return;
    }
    var sum = vec4<f32>(0.0);
    for (var l = 0u; l < dims.k; l += 4u) {
        let a4 = a[(y * dims.k + l) / 4u];
        let b0 = b[l * n4 + x];
        let b1 = b[(l + 1u) * n4 + x];
        let b2 = b[(l + 2u) * n4 + x];
        let b3 = b[(l + 3u) * n4 + x];
        sum += a4.x * b0;
        sum += a4.y * b1;
        sum += a4.z * b2;
        sum += a4.w * b3;
    }
    out[y * n4 + x] = sum;
}
