// expect: passed
// Another correct way, without the packed_4x8_integer_dot_product
// functions: byte j of a word is shifted to the top of the word, and the
// i32 shifted right by 24 copies its top bit, the sign, into the bits it
// frees. The four products are added in i32, exactly, as dot4I8Packed does.
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

var<workgroup> smem: array<i32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    let words = dims.cols / 4u;
    var sum = 0i;
    for (var k = i; k < words; k += W) {
        let a = w[row * words + k];
        let b = xq[k];
        for (var j = 0u; j < 4u; j++) {
            sum += (i32(a << (24u - 8u * j)) >> 24u) * (i32(b << (24u - 8u * j)) >> 24u);
        }
    }
    smem[i] = sum;
    workgroupBarrier();
    for (var n = W; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            smem[i] += smem[i + half];
        }
        workgroupBarrier();
    }
    if (i == 0u) {
        acc[row] = smem[0];
        y[row] = f32(smem[0]) * w_scale[row] * x_scale[0];
    }
}
