// expect: passed
// Another correct way: the bytes unpacked with unpack4xI8 and multiplied as
// two vec4<i32>, and the partial sums added into one workgroup atomic
// instead of a tree. Integer addition is associative, so the atomics' order,
// whatever it is, gives the exact sum; with floats it would not. One
// invocation zeroes the atomic before the first barrier and reads it after
// the second.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> w: array<u32>;         // rows × cols / 4 words
@group(0) @binding(1) var<storage, read> xq: array<u32>;        // cols / 4 words
@group(0) @binding(2) var<storage, read> w_scale: array<f32>;   // rows
@group(0) @binding(3) var<storage, read> x_scale: array<f32>;   // 1
@group(0) @binding(4) var<storage, read_write> acc: array<i32>; // rows
@group(0) @binding(5) var<storage, read_write> y: array<f32>;   // rows
@group(0) @binding(6) var<uniform> dims: Dims;

var<workgroup> total: atomic<i32>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    let words = dims.cols / 4u;
    if (i == 0u) {
        atomicStore(&total, 0);
    }
    workgroupBarrier();
    var sum = 0i;
    for (var k = i; k < words; k += W) {
        sum += dot(unpack4xI8(w[row * words + k]), unpack4xI8(xq[k]));
    }
    atomicAdd(&total, sum);
    workgroupBarrier();
    if (i == 0u) {
        let s = atomicLoad(&total);
        acc[row] = s;
        y[row] = f32(s) * w_scale[row] * x_scale[0];
    }
}
