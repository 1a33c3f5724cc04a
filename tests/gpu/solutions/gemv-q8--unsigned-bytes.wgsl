// expect: failed
// Wrong on purpose: unpack4xU8 reads each byte as 0 to 255, so every weight
// from -128 to -1 (the bytes 0x80 to 0xFF) counts as 256 more than it is.
// About half the weights of a random word are negative, so every case but
// the one where those weights meet a zero scale or a zero x is off by
// 256 · scale · x for each of them: in the worked example word 0 of row 0,
// 0xFD02FF01, gives 1, 255, 2, 253 instead of 1, -1, 2, -3.
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
        let q = vec4<f32>(unpack4xU8(w[row * words + k])); // 0 to 255: no sign
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
