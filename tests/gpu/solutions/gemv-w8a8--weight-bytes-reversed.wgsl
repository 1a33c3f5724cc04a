// expect: failed
// Wrong on purpose: the weights' bytes are unpacked by hand from the top of
// the word down (byte 3 - j for column 4k + j), the order of a big-endian
// machine, while the activations come from unpack4xI8, lowest byte first.
// So weight 4k meets x[4k + 3] and the other way round. The sign extension
// itself is right. In the worked example row 0's word 0, 0x02FF0103,
// pairs 2, -1, 1, 3 with 1, -2, 3, -4: -5 instead of -10.
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
        var qa = vec4<i32>();
        for (var j = 0u; j < 4u; j++) {
            qa[j] = i32(a << (8u * j)) >> 24u; // byte 3 - j: reversed
        }
        sum += dot(qa, unpack4xI8(xq[k]));
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
