// expect: memory-error in some cases
// message: write conflict
// Wrong on purpose: builds the column from `wgs.y` and the row from `wgs.x`, the two sizes
// swapped. With square workgroups that is the same thing, and every written case but one has
// them. In "edge: several workgroups along x and y, 2 × 4 invocations" workgroup (X, Y) takes
// the rows 2·Y … 2·Y + 3, so neighbouring workgroups write the same rows of out (a race the
// judge names), and the vec4 columns 4·X … 4·X + 1, so half of out is never written.
const wgs = vec3({{workgroupSize}});
const WX = u32(wgs.x);
const WY = u32(wgs.y);

struct Dims {
    m: u32, // rows of a and out
    n: u32, // columns of b and out (a multiple of 4)
    k: u32, // columns of a, rows of b (a multiple of 4)
}

@group(0) @binding(0) var<storage, read> a: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> out: array<vec4<f32>>;
@group(0) @binding(3) var<uniform> dims: Dims;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let x = wid.x * WY + lid.x; // should be WX
    let y = wid.y * WX + lid.y; // should be WY
    let n4 = dims.n / 4u;
    if (y >= dims.m || x >= n4) {
        return;
    }
    var sum = vec4<f32>(0.0);
    for (var l = 0u; l < dims.k; l += 4u) {
        let a4 = a[(y * dims.k + l) / 4u];
        sum += a4.x * b[l * n4 + x];
        sum += a4.y * b[(l + 1u) * n4 + x];
        sum += a4.z * b[(l + 2u) * n4 + x];
        sum += a4.w * b[(l + 3u) * n4 + x];
    }
    out[y * n4 + x] = sum;
}
