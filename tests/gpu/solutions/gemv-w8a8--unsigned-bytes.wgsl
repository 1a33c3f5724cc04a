// expect: failed
// Wrong on purpose: dot4U8Packed reads every byte as 0 to 255, so each
// byte from 0x80 up (-128 to -1) counts as 256 more than it is, in both
// operands. About half the bytes of a random word are negative, so every
// case's acc is off but one: where every byte of both operands is 0x80,
// 128 · 128 happens to equal (-128) · (-128). In the worked example row 1's
// last word, 0xFFFFFFFF against 0x000100FF, gives 255 · 255 + 255 · 1 =
// 65280 instead of 0.
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
        sum += i32(dot4U8Packed(w[row * words + k], xq[k])); // bytes 0 to 255: no sign
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
