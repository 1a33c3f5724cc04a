// expect: failed
// Wrong on purpose: byte j is taken from the top of the word down (bits
// 31 - 8j to 24 - 8j), the order of a big-endian machine, so weight 4k meets
// x[4k + 3] and the other way round. The sign extension itself is right. In
// the worked example row 0's word 0, 0xFD02FF01, pairs -3, 2, -1, 1 with
// x = 1, 2, 3, 4: 2 instead of -7, and y[0] = 27 instead of 0.5.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> w: array<u32>;       // rows × cols / 4 words
@group(0) @binding(1) var<storage, read> scales: array<f32>;  // rows × cols / 32
@group(0) @binding(2) var<storage, read> x: array<f32>;       // cols
@group(0) @binding(3) var<storage, read_write> y: array<f32>; // rows
@group(0) @binding(4) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    let words = dims.cols / 4u;
    let blocks = dims.cols / 32u;
    var sum = 0.0;
    for (var k = i; k < words; k += W) {
        let word = w[row * words + k];
        var q = vec4<f32>();
        for (var j = 0u; j < 4u; j++) {
            q[j] = f32(i32(word << (8u * j)) >> 24u); // byte 3 - j: reversed
        }
        let xs = vec4<f32>(x[4u * k], x[4u * k + 1u], x[4u * k + 2u], x[4u * k + 3u]);
        sum += scales[row * blocks + k / 8u] * dot(q, xs);
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
        y[row] = smem[0];
    }
}
